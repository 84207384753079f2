import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { TenantDb } from "../../db/open";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { deleteDocument, deleteDocuments, documentIds, getDocument, writeDocument, type DocumentKey } from "~/models/xapi/documents.server";
import { createXapiCredential } from "~/models/xapi/credentials.server";

/**
 * The LRS's documents (issue 47; docs/decisions/043-learning-record-store.md, "Documents") on a real tenant
 * database: ETags as quoted SHA-1s, If-Match / If-None-Match, the 409 for a blind overwrite where the version
 * asks for it, JSON merged on POST, and the state's several documents listed and deleted together.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-documents-");
let db: TenantDb;
const STATE: DocumentKey = {
  kind: "state",
  activityId: "http://acme.localhost/activities/1",
  agentKey: "mbox:mailto:anna@example.test",
  documentId: "bookmark",
};
const PROFILE: DocumentKey = { kind: "activity-profile", activityId: "http://acme.localhost/activities/1", documentId: "settings" };
const json = (value: object) => ({ contentType: "application/json", body: Buffer.from(JSON.stringify(value)) });
const text = (value: string) => ({ contentType: "text/plain", body: Buffer.from(value) });
const put = (
  key: DocumentKey,
  document: ReturnType<typeof json>,
  preconditions = {},
  requirePrecondition: "never" | "existing" | "always" = "existing",
) => writeDocument(db, key, document, { method: "PUT", preconditions, requirePrecondition });
const post = (key: DocumentKey, document: ReturnType<typeof json>, preconditions = {}) =>
  writeDocument(db, key, document, { method: "POST", preconditions, requirePrecondition: "existing" });
const read = (key: DocumentKey) => {
  const doc = getDocument(db, key);
  return doc && { type: doc.contentType, body: doc.body.toString("utf8"), etag: doc.etag };
};

beforeEach(() => {
  db = tenant.db;
});

describe("xAPI documents", () => {
  it("are kept as sent, with the SHA-1 of their bytes, quoted, as ETag", () => {
    const sha1 = `"${crypto.createHash("sha1").update("plain words").digest("hex")}"`;
    expect(put(PROFILE, text("plain words"))).toEqual({ ok: true, etag: sha1 });
    expect(read(PROFILE)).toEqual({ type: "text/plain", body: "plain words", etag: sha1 });
  });

  it("refuse a blind overwrite with 409 where asked, and a wrong ETag with 412, changing nothing", () => {
    put(PROFILE, json({ a: 1 }));
    const { etag } = read(PROFILE)!;
    expect(put(PROFILE, json({ a: 2 }))).toMatchObject({ ok: false, status: 409 });
    expect(put(PROFILE, json({ a: 2 }), { ifMatch: '"0000"' })).toMatchObject({ ok: false, status: 412 });
    expect(put(PROFILE, json({ a: 2 }), { ifMatch: `W/${etag}` })).toMatchObject({ ok: false, status: 412 });
    expect(put(PROFILE, json({ a: 2 }), { ifNoneMatch: "*" })).toMatchObject({ ok: false, status: 412 });
    expect(read(PROFILE)!.body).toBe('{"a":1}');
    expect(put(PROFILE, json({ a: 2 }), { ifMatch: etag })).toMatchObject({ ok: true });
    expect(read(PROFILE)!.body).toBe('{"a":2}');
    // Where the version does not ask for a precondition (1.0.3's state), a PUT replaces.
    expect(put(STATE, json({ b: 1 }), {}, "never")).toMatchObject({ ok: true });
    expect(put(STATE, json({ b: 2 }), {}, "never")).toMatchObject({ ok: true });
    expect(read(STATE)!.body).toBe('{"b":2}');
    // Where one is always asked for (1.0.3's profiles), a PUT naming none is refused even onto nothing.
    const fresh = { ...PROFILE, documentId: "fresh" };
    expect(put(fresh, json({ c: 1 }), {}, "always")).toMatchObject({ ok: false, status: 400 });
    expect(read(fresh)).toBeNull();
    expect(put(fresh, json({ c: 1 }), { ifNoneMatch: "*" }, "always")).toMatchObject({ ok: true });
  });

  it("merge a POSTed JSON object into the one there, and refuse to merge anything else", () => {
    expect(post(STATE, json({ a: 1, b: 1 }))).toMatchObject({ ok: true });
    expect(post(STATE, json({ b: 2, c: 3 }))).toMatchObject({ ok: true });
    expect(JSON.parse(read(STATE)!.body)).toEqual({ a: 1, b: 2, c: 3 });
    expect(post(STATE, text("words"))).toMatchObject({ ok: false, status: 400 });
    // Onto nothing, a POST stores what it sends, as a PUT would.
    const fresh = { ...STATE, documentId: "notes" };
    expect(post(fresh, text("words"))).toMatchObject({ ok: true });
    expect(read(fresh)).toMatchObject({ type: "text/plain", body: "words" });
    expect(post(STATE, { contentType: "application/json", body: Buffer.from("[1,2]") })).toMatchObject({ ok: false, status: 400 });
    put(PROFILE, text("words"));
    expect(post(PROFILE, json({ a: 1 }))).toMatchObject({ ok: false, status: 400 });
    expect(read(PROFILE)!.body).toBe("words");
  });

  it("are listed by place and time, and deleted one by one or a state's all together", () => {
    const other = { ...STATE, documentId: "progress" };
    const registered = { ...STATE, registration: "7C1D5A0E-3B1F-4C1E-9A55-6D1F2C3B4A5E", documentId: "suspend" };
    writeDocument(db, STATE, json({}), { method: "PUT", requirePrecondition: "never", now: new Date(1000) });
    writeDocument(db, other, json({}), { method: "PUT", requirePrecondition: "never", now: new Date(2000) });
    writeDocument(db, registered, json({}), { method: "PUT", requirePrecondition: "never", now: new Date(3000) });
    expect(documentIds(db, STATE)).toEqual(["bookmark", "progress"]);
    expect(documentIds(db, STATE, 1000)).toEqual(["progress"]);
    expect(documentIds(db, { ...STATE, registration: registered.registration.toLowerCase() })).toEqual(["suspend"]);
    expect(deleteDocument(db, other, { ifMatch: '"nope"' })).toMatchObject({ status: 412 });
    expect(deleteDocument(db, other)).toEqual({ ok: true, etag: null });
    expect(deleteDocuments(db, STATE)).toBe(1);
    expect(documentIds(db, STATE)).toEqual([]);
    expect(read(registered)).not.toBeNull();
  });

  it("keep a write credential to the documents it wrote: another's is neither read, listed, changed nor deleted", () => {
    const made = (name: string) =>
      (createXapiCredential(db, { name, scope: "write", userId: null }) as { credential: { id: number } }).credential.id;
    const one = made("one");
    const other = made("other");
    expect(
      writeDocument(db, { ...STATE, writtenBy: one }, json({ a: 1 }), { method: "PUT", requirePrecondition: "never", credentialId: one }),
    ).toMatchObject({ ok: true });
    const theirs = { ...STATE, writtenBy: other };
    expect(getDocument(db, theirs)).toBeNull();
    expect(documentIds(db, theirs)).toEqual([]);
    expect(writeDocument(db, theirs, json({ a: 2 }), { method: "PUT", requirePrecondition: "never", credentialId: other })).toMatchObject({
      ok: false,
      status: 403,
    });
    deleteDocument(db, theirs);
    deleteDocuments(db, theirs);
    expect(read({ ...STATE, writtenBy: one })?.body).toBe('{"a":1}');
    expect(read(STATE)?.body).toBe('{"a":1}');
  });
});
