import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { TenantDb } from "../../db/open";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { xapiStatementActivities, xapiStatementAgents, xapiStatements, type XapiCredential } from "../../db/tenant";
import { attachmentFile } from "~/models/xapi/attachment-files.server";
import { createXapiCredential } from "~/models/xapi/credentials.server";
import { statementById, storeStatements, VOIDED, type StoreOptions } from "~/models/xapi/statements.server";

/**
 * The LRS's statement store (issue 47; docs/decisions/043-learning-record-store.md, "Statements", "Voiding
 * and immutability") on a real tenant database: what it fills in, what it refuses, a batch stored whole or
 * not at all, ids that never change content, voiding, and an actor credential's reach.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-statements-");
let db: TenantDb;
let all: XapiCredential;
const T0 = new Date("2026-11-02T09:00:00Z");
const AUTHORITY = { objectType: "Agent", account: { homePage: "http://acme.localhost", name: "reports" } };
const options: StoreOptions = { version: "2.0.0", authority: AUTHORITY, now: T0 };
const ANNA = { objectType: "Agent", mbox: "mailto:anna@example.test" };
const COMPLETED = { id: "http://adlnet.gov/expapi/verbs/completed", display: { "en-US": "completed" } };
const COURSE = { objectType: "Activity", id: "http://acme.localhost/courses/1" };
const ID = "6e4f3c2a-1b0d-4e9f-8a7b-5c4d3e2f1a0b";
const statement = (extra: Record<string, unknown> = {}) => ({ actor: ANNA, verb: COMPLETED, object: COURSE, ...extra });
const count = () => db.select().from(xapiStatements).all().length;

function credential(scope: "all" | "actor", actor?: unknown, registration?: string) {
  const made = createXapiCredential(db, { name: scope, scope, actor, registration, userId: null, now: T0 });
  if ("error" in made) throw new Error(made.error);
  return made.credential;
}

beforeEach(() => {
  db = tenant.db;
  all = credential("all");
});

describe("storing statements", () => {
  it("keeps an attachment's bytes as a file named by its hash, with the statement or not at all", () => {
    const data = Buffer.from("a certificate of completion");
    const sha2 = crypto.createHash("sha256").update(data).digest("hex");
    const attachments = [
      { usageType: "http://example.test/usage", display: { en: "Certificate" }, contentType: "text/plain", length: data.length, sha2 },
    ];
    const files = { dataDir: tenant.dataDir, organizationId: 1 };
    const sent = { parts: [{ contentType: "text/plain", sha2, data }], files };
    const folder = path.join(tenant.dataDir, "org-1", "files", "xapi", "attachments");
    // Refused (the id is taken, with other content): no file, no temporary one, no row.
    storeStatements(db, all, statement({ id: ID }), options);
    expect(storeStatements(db, all, statement({ id: ID, attachments }), { ...options, attachments: sent })).toMatchObject({ status: 409 });
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(attachmentFile(db, files, sha2)).toBeNull();
    expect(storeStatements(db, all, statement({ attachments }), { ...options, attachments: sent })).toMatchObject({ ok: true });
    expect(fs.readdirSync(folder)).toEqual([sha2]);
    const kept = attachmentFile(db, files, sha2.toUpperCase())!;
    expect(kept).toMatchObject({ contentType: "text/plain", length: data.length });
    expect(fs.readFileSync(kept.file)).toEqual(data);
  });

  it("fills in the id, stored, timestamp, authority and version, keeping the rest as sent", () => {
    const outcome = storeStatements(db, all, statement({ result: { score: { scaled: 0.8 }, success: true } }), options);
    expect(outcome.ok).toBe(true);
    const [id] = (outcome as { ids: string[] }).ids;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const kept = JSON.parse(statementById(db, all, id)!);
    expect(kept).toEqual({
      ...statement({ result: { score: { scaled: 0.8 }, success: true } }),
      id,
      timestamp: T0.toISOString(),
      stored: T0.toISOString(),
      authority: AUTHORITY,
      version: "2.0.0",
    });
    expect(Object.keys(kept).slice(0, 3)).toEqual(["actor", "verb", "object"]);
  });

  it.each([
    ["a property xAPI does not define", statement({ colour: "red" })],
    ["a verb id that is no IRI", statement({ verb: { id: "completed" } })],
    ["an Agent with two identifiers", statement({ actor: { ...ANNA, openid: "http://id.example.test/anna" } })],
    ["an Agent with none", statement({ actor: { name: "Anna" } })],
    ["a raw score above its max", statement({ result: { score: { raw: 11, min: 0, max: 10 } } })],
    ["a scaled score above 1", statement({ result: { score: { scaled: 1.5 } } })],
    ["a duration that is no ISO 8601 duration", statement({ result: { duration: "5 minutes" } })],
    ["a timestamp at -00:00", statement({ timestamp: "2026-11-02T09:00:00-00:00" })],
    ["a registration that is no UUID", statement({ context: { registration: "abc" } })],
    ["a platform about an Agent", statement({ object: { ...ANNA }, context: { platform: "web" } })],
    ["an Agent object without its objectType", statement({ object: { mbox: "mailto:bo@example.test" } })],
    ["a voiding statement about an activity", statement({ verb: { id: VOIDED } })],
    ["an interaction's choices without its interactionType", statement({ object: { ...COURSE, definition: { choices: [{ id: "a" }] } } })],
    ["an authority Group of three", statement({ authority: { objectType: "Group", member: [ANNA, ANNA, ANNA] } })],
    ["weeks with days in a duration", statement({ result: { duration: "P4W1D" } })],
    ["a 30 February", statement({ timestamp: "2013-02-30T10:00:00Z" })],
  ])("refuses %s with a 400, storing nothing", (_what, bad) => {
    const outcome = storeStatements(db, all, bad, options);
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    expect(count()).toBe(0);
  });

  it("stores a context activity sent alone as a list of one, and a zoneless timestamp as UTC", () => {
    const [id] = (
      storeStatements(
        db,
        all,
        statement({ context: { contextActivities: { parent: COURSE } }, timestamp: "2026-11-02T10:00:00" }),
        options,
      ) as { ids: string[] }
    ).ids;
    const kept = JSON.parse(statementById(db, all, id)!);
    expect(kept.context.contextActivities.parent).toEqual([COURSE]);
    expect(db.select({ t: xapiStatements.timestamp }).from(xapiStatements).get()!.t).toBe(Date.parse("2026-11-02T10:00:00Z"));
  });

  it("refuses in a 1.0.3 request a statement of version 2.0, and a PUT's statementId that is no UUID", () => {
    expect(storeStatements(db, all, statement({ version: "2.0.0" }), { ...options, version: "1.0.3" })).toMatchObject({ status: 400 });
    expect(storeStatements(db, all, statement(), { ...options, putId: "not-a-uuid" })).toMatchObject({ status: 400 });
    expect(count()).toBe(0);
  });

  it("voids within one batch, whatever the order, and refuses a batch that voids its own voiding statement", () => {
    const voiding = "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
    const voidOf = (id: string, target: string) => ({
      id,
      actor: ANNA,
      verb: { id: VOIDED },
      object: { objectType: "StatementRef", id: target },
    });
    expect(storeStatements(db, all, [voidOf(voiding, ID), statement({ id: ID })], options)).toMatchObject({ ok: true });
    expect(statementById(db, all, ID)).toBeNull();
    const again = "1c2d3e4f-5a6b-4c7d-9e8f-0a1b2c3d4e5f";
    const twice = "2d3e4f5a-6b7c-4d8e-8f9a-1b2c3d4e5f6a";
    expect(storeStatements(db, all, [voidOf(again, twice), voidOf(twice, ID)], options)).toMatchObject({ status: 400 });
    expect(statementById(db, all, again)).toBeNull();
  });

  it("lets a credential read by id only what its scope reaches", () => {
    storeStatements(db, all, statement({ id: ID }), options);
    const writer = createXapiCredential(db, { name: "w", scope: "write", userId: null, now: T0 });
    if ("error" in writer) throw new Error(writer.error);
    expect(statementById(db, writer.credential, ID)).toBeNull();
    expect(statementById(db, credential("actor", ANNA), ID)).not.toBeNull();
  });

  it("lets no actor credential void, and a write credential void only what it sent", () => {
    storeStatements(db, all, statement({ id: ID }), options);
    const voidWith = (by: XapiCredential) =>
      storeStatements(db, by, { actor: ANNA, verb: { id: VOIDED }, object: { objectType: "StatementRef", id: ID } }, options);
    expect(voidWith(credential("actor", ANNA))).toMatchObject({ status: 403 });
    const writer = createXapiCredential(db, { name: "w", scope: "write", userId: null, now: T0 });
    if ("error" in writer) throw new Error(writer.error);
    expect(voidWith(writer.credential)).toMatchObject({ status: 403 });
    expect(statementById(db, all, ID)).not.toBeNull();
  });

  it("indexes a Group of thousands of members", () => {
    const member = Array.from({ length: 3000 }, (_, i) => ({ mbox: `mailto:m${i}@example.test` }));
    expect(storeStatements(db, all, statement({ actor: { objectType: "Group", member } }), options)).toMatchObject({ ok: true });
    expect(db.select().from(xapiStatementAgents).all().length).toBeGreaterThan(3000);
  });

  it("refuses xAPI 2.0's context agents in a 1.0.3 request", () => {
    const context = { contextAgents: [{ objectType: "contextAgent", agent: ANNA }] };
    expect(storeStatements(db, all, statement({ context }), { ...options, version: "1.0.3" })).toMatchObject({ status: 400 });
    expect(storeStatements(db, all, statement({ context }), options)).toMatchObject({ ok: true });
  });

  it("stores a batch whole or not at all", () => {
    expect(storeStatements(db, all, [statement(), statement({ verb: { id: "nope" } })], options)).toMatchObject({ ok: false, status: 400 });
    expect(count()).toBe(0);
    expect(storeStatements(db, all, [statement({ id: ID }), statement()], options)).toMatchObject({ ok: true });
    // A batch whose second statement conflicts with a stored one leaves its first unstored too.
    const other = "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
    expect(storeStatements(db, all, [statement({ id: other }), statement({ id: ID, verb: { id: VOIDED + "x" } })], options)).toMatchObject({
      status: 409,
    });
    expect(statementById(db, all, other)).toBeNull();
    expect(count()).toBe(2);
  });

  it("answers a statement sent again unchanged with its id, and one changed with 409", () => {
    expect(storeStatements(db, all, statement({ id: ID }), options)).toEqual({ ok: true, ids: [ID] });
    expect(storeStatements(db, all, statement({ id: ID.toUpperCase() }), { ...options, now: new Date(T0.getTime() + 1000) })).toEqual({
      ok: true,
      ids: [ID],
    });
    expect(storeStatements(db, all, statement({ id: ID, verb: { ...COMPLETED, display: { da: "gennemførte" } } }), options)).toEqual({
      ok: true,
      ids: [ID],
    });
    expect(storeStatements(db, all, statement({ id: ID, result: { success: false } }), options)).toMatchObject({ ok: false, status: 409 });
    expect(count()).toBe(1);
  });

  it("takes a PUT's statementId, and refuses a statement naming another", () => {
    expect(storeStatements(db, all, statement(), { ...options, putId: ID })).toEqual({ ok: true, ids: [ID] });
    expect(storeStatements(db, all, statement({ id: ID }), { ...options, putId: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e" })).toMatchObject({
      status: 400,
    });
  });

  it("voids: the target leaves the reads and stays readable as voided; a voiding statement cannot be voided", () => {
    storeStatements(db, all, statement({ id: ID }), options);
    const voiding = "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
    const voidIt = (id: string, target: string) =>
      storeStatements(db, all, { id, actor: ANNA, verb: { id: VOIDED }, object: { objectType: "StatementRef", id: target } }, options);
    expect(voidIt(voiding, ID)).toMatchObject({ ok: true });
    expect(statementById(db, all, ID)).toBeNull();
    expect(JSON.parse(statementById(db, all, ID, { voided: true })!).id).toBe(ID);
    expect(voidIt("1c2d3e4f-5a6b-4c7d-9e8f-0a1b2c3d4e5f", voiding)).toMatchObject({ ok: false, status: 400 });
  });

  it("lets an actor credential send only its own agent's statements, of its registration", () => {
    const registration = "7c1d5a0e-3b1f-4c1e-9a55-6d1f2c3b4a5e";
    const anna = credential("actor", ANNA, registration);
    expect(storeStatements(db, anna, statement({ actor: { objectType: "Agent", mbox: "mailto:bo@example.test" } }), options)).toMatchObject(
      { status: 403 },
    );
    expect(storeStatements(db, anna, statement(), options)).toMatchObject({ status: 403 });
    expect(storeStatements(db, anna, statement({ context: { registration } }), options)).toMatchObject({ ok: true });
  });

  it("indexes every agent and activity a statement names, a sub-statement's too", () => {
    const outcome = storeStatements(
      db,
      all,
      statement({
        object: { objectType: "SubStatement", actor: ANNA, verb: COMPLETED, object: { id: "http://acme.localhost/lessons/7" } },
        context: {
          instructor: { objectType: "Agent", account: { homePage: "http://acme.localhost", name: "teacher" } },
          contextActivities: { parent: COURSE, grouping: [{ id: "http://acme.localhost/paths/2" }] },
        },
      }),
      options,
    );
    expect(outcome.ok).toBe(true);
    expect(db.select({ key: xapiStatementAgents.agentKey, role: xapiStatementAgents.role }).from(xapiStatementAgents).all()).toEqual(
      expect.arrayContaining([
        { key: "mbox:mailto:anna@example.test", role: "actor" },
        { key: "mbox:mailto:anna@example.test", role: "sub-actor" },
        { key: "account:http://acme.localhost|teacher", role: "instructor" },
      ]),
    );
    expect(
      db.select({ id: xapiStatementActivities.activityId, role: xapiStatementActivities.role }).from(xapiStatementActivities).all(),
    ).toEqual(
      expect.arrayContaining([
        { id: "http://acme.localhost/lessons/7", role: "sub-object" },
        { id: COURSE.id, role: "parent" },
        { id: "http://acme.localhost/paths/2", role: "grouping" },
      ]),
    );
  });
});
