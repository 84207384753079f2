import { beforeEach, describe, expect, it } from "vitest";
import type { TenantDb } from "../../db/open";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { users, xapiCredentials } from "../../db/tenant";
import { agentKey } from "~/models/xapi/agents";
import {
  authenticateXapi,
  createXapiCredential,
  listXapiCredentials,
  MAX_CREDENTIAL_DAYS,
  revokeXapiCredential,
} from "~/models/xapi/credentials.server";

/**
 * The LRS's credentials (issue 47; docs/decisions/043-learning-record-store.md, "Credentials") on a real
 * tenant database: the secret shown once and kept only as its hash, scopes bound to an Agent, expiry and
 * revocation, and every malformed Basic header refused alike.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-credentials-");
let db: TenantDb;
let admin: number;
const T0 = new Date("2026-11-02T09:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;
const ANNA = { objectType: "Agent", mbox: "mailto:anna@example.test" };

beforeEach(() => {
  db = tenant.db;
  admin = db.insert(users).values({ email: "admin@example.test", role: "admin" }).returning().get().id;
});

function make(options: Partial<Parameters<typeof createXapiCredential>[1]> = {}) {
  const made = createXapiCredential(db, { name: "Reports", scope: "all", userId: admin, now: T0, ...options });
  if ("error" in made) throw new Error(made.error);
  return made;
}

describe("xAPI credentials", () => {
  it("keep only the secret's hash, and sign in with the key and secret until they expire", () => {
    const { key, secret, credential } = make();
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = db.select().from(xapiCredentials).get()!;
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.expiresAt.getTime() - T0.getTime()).toBe(30 * DAY);
    expect(authenticateXapi(db, basic(key, secret), T0)?.id).toBe(credential.id);
    expect(db.select().from(xapiCredentials).get()!.lastUsedAt).toEqual(T0);
    expect(authenticateXapi(db, basic(key, secret), new Date(T0.getTime() + 30 * DAY))).toBeNull();
  });

  it("refuse a wrong secret, an unknown key and every malformed header alike", () => {
    const { key, secret } = make();
    for (const header of [
      null,
      "",
      basic(key, `${secret}x`),
      basic("unknown", secret),
      basic(key, ""),
      `Bearer ${secret}`,
      `Basic ${key}:${secret}`,
      "Basic !!!",
      `Basic ${"A".repeat(500)}`,
    ])
      expect(authenticateXapi(db, header, T0), String(header)).toBeNull();
  });

  it("stop working the moment they are revoked, and are listed until a month after", () => {
    const { key, secret, credential } = make();
    expect(revokeXapiCredential(db, credential.id, T0)).toBe(true);
    expect(revokeXapiCredential(db, credential.id, T0)).toBe(false);
    expect(authenticateXapi(db, basic(key, secret), T0)).toBeNull();
    expect(listXapiCredentials(db, T0).map((c) => c.revokedAt)).toEqual([T0]);
    expect(listXapiCredentials(db, new Date(T0.getTime() + 31 * DAY))).toEqual([]);
  });

  it("bind an actor credential to one Agent, and refuse an Agent elsewhere", () => {
    expect(createXapiCredential(db, { name: "x", scope: "actor", userId: admin })).toEqual({ error: "actor_required" });
    expect(
      createXapiCredential(db, { name: "x", scope: "actor", actor: { mbox: "mailto:a@b.test", openid: "http://a.test/" }, userId: admin }),
    ).toEqual({
      error: "actor_required",
    });
    expect(createXapiCredential(db, { name: "x", scope: "all", actor: ANNA, userId: admin })).toEqual({ error: "actor_not_allowed" });
    const { credential } = make({ scope: "actor", actor: ANNA });
    expect(credential.actorKey).toBe("mbox:mailto:anna@example.test");
  });

  it("live 1 to 365 days, and a launch's no longer than the launch", () => {
    expect(make({ days: 10_000 }).credential.expiresAt.getTime() - T0.getTime()).toBe(MAX_CREDENTIAL_DAYS * DAY);
    expect(make({ days: 0 }).credential.expiresAt.getTime() - T0.getTime()).toBe(DAY);
    const launch = make({
      scope: "actor",
      actor: ANNA,
      registration: "7c1d5a0e-3b1f-4c1e-9a55-6d1f2c3b4a5e",
      userId: null,
      notAfter: new Date(T0.getTime() + 3_600_000),
      purpose: "launch",
    });
    expect(launch.credential.expiresAt.getTime() - T0.getTime()).toBe(3_600_000);
    // The player's credentials for launches, and the LMS's own, are not the people's to list.
    const lms = make({ name: "Lectern (the LMS)", scope: "all", userId: null, purpose: "lms" });
    const tool = make({ name: "A tool", scope: "write", userId: null });
    const listed = listXapiCredentials(db, T0).map((c) => c.id);
    expect(listed).not.toContain(launch.credential.id);
    expect(listed).not.toContain(lms.credential.id);
    expect(listed).toContain(tool.credential.id);
  });
});

describe("agent keys", () => {
  it("are an Agent's one identifier, and nothing for none or two", () => {
    expect(agentKey({ mbox: "mailto:anna@example.test" })).toBe("mbox:mailto:anna@example.test");
    expect(agentKey({ mbox_sha1sum: "a".repeat(40) })).toBe(`mbox_sha1sum:${"a".repeat(40)}`);
    expect(agentKey({ openid: "http://id.example.test/anna" })).toBe("openid:http://id.example.test/anna");
    expect(agentKey({ account: { homePage: "http://lms.example.test", name: "anna" } })).toBe("account:http://lms.example.test|anna");
    for (const bad of [
      null,
      {},
      [],
      { mbox: "anna@example.test" },
      { mbox: "mailto:anna@example.test", openid: "http://id.example.test/anna" },
      { mbox_sha1sum: "xyz" },
      { account: { homePage: "not an iri", name: "anna" } },
      { account: { homePage: "http://lms.example.test" } },
    ])
      expect(agentKey(bad), JSON.stringify(bad)).toBeNull();
  });
});
