import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { loginThrottle, users } from "../../db/tenant";
import { organizationRealm, type AuthRealm } from "~/models/auth/realm.server";
import { chargeAttempt, claimAlert, clientOfAddress, MAX_FAILURES_PER_HOUR, waitAfter } from "~/models/auth/throttle.server";

/**
 * Issue 44, item 5: the counters behind the sign-in guards (app/models/auth/throttle.server.ts), on a real
 * tenant database. What an unauthenticated request may cost: one read of two rows by primary key, no write
 * once refused, and rows bounded per account.
 */
let dir: string;
let db: TenantDb;
let realm: AuthRealm;
let owner: number;
const T0 = new Date("2026-03-02T09:00:00Z");
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const address = (i: number) => clientOfAddress(`10.${Math.floor(i / 65_536) % 256}.${Math.floor(i / 256) % 256}.${i % 256}`);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-throttle-"));
  const file = path.join(dir, "org-1", "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  realm = organizationRealm(db, { id: 1, twoFactorRequired: false } as Organization);
  owner = db.insert(users).values({ email: "owner@example.test", role: "learner" }).returning().get().id;
});
afterEach(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One guess from each of `count` addresses (a wrong password: the charge is never taken back). */
function guessFromMany(count: number, now = T0, first = 0) {
  return Array.from({ length: count }, (_, i) => chargeAttempt(realm, owner, address(first + i), { knownDevice: false }, now));
}

describe("failed sign-ins, counted", () => {
  it("let a client fail five times, then make it wait 30 s, doubling up to an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(waitAfter)).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    const client = address(1);
    for (let i = 0; i < 5; i++) expect(chargeAttempt(realm, owner, client, { knownDevice: false }, T0)).toHaveProperty("accountFailures");
    expect(chargeAttempt(realm, owner, client, { knownDevice: false }, later(29))).toEqual({ error: "wait", retryAfter: 1, alert: false });
    expect(chargeAttempt(realm, owner, client, { knownDevice: false }, later(30))).toHaveProperty("accountFailures");
    expect(chargeAttempt(realm, owner, client, { knownDevice: false }, later(31))).toEqual({ error: "wait", retryAfter: 59, alert: false });
  });

  it("stop at 100 failures of an account from everywhere, but not for its known devices, which wait on their own", () => {
    guessFromMany(MAX_FAILURES_PER_HOUR);
    expect(guessFromMany(1, later(60), 500)[0]).toMatchObject({ error: "throttled", retryAfter: 3540 });
    for (let i = 0; i < 5; i++)
      expect(chargeAttempt(realm, owner, "device:known", { knownDevice: true }, later(60))).toHaveProperty("accountFailures");
    expect(chargeAttempt(realm, owner, "device:known", { knownDevice: true }, later(61))).toMatchObject({ error: "wait" });
    // The window is an hour from its first failure; then passwords are checked from anywhere again.
    expect(guessFromMany(1, later(3600), 501)[0]).toEqual({ accountFailures: 1 });
  });

  it("check an attempt with one read by primary key, and write nothing once the account is refused", () => {
    guessFromMany(MAX_FAILURES_PER_HOUR);
    // The first refusal claims the owner's alert (one update); the statements of the next are watched.
    expect(guessFromMany(1, T0, 200)[0]).toMatchObject({ error: "throttled", alert: true });
    // Every statement the driver runs (the real better-sqlite3 connection's), prepared before or not.
    const statements: string[] = [];
    const client = db.$client;
    const proto = Object.getPrototypeOf(client.prepare("select 1")) as Record<
      "all" | "get" | "run" | "iterate",
      (...args: unknown[]) => unknown
    >;
    const originals = { all: proto.all, get: proto.get, run: proto.run, iterate: proto.iterate };
    for (const name of ["all", "get", "run", "iterate"] as const) {
      proto[name] = function (this: { source: string }, ...args: unknown[]) {
        statements.push(this.source);
        return originals[name].apply(this, args);
      };
    }
    try {
      expect(guessFromMany(1, T0, 201)[0]).toMatchObject({ error: "throttled", alert: false });
    } finally {
      Object.assign(proto, originals);
    }
    const reads = statements.filter((s) => /^\s*select/i.test(s));
    expect(reads).toHaveLength(1);
    expect(statements.filter((s) => /^\s*(insert|update|delete|replace)/i.test(s))).toEqual([]);
    const plan = client
      .prepare(`explain query plan ${reads[0]}`)
      .all(owner, "", address(201))
      .map((row) => (row as { detail: string }).detail);
    // The primary key's own index (the table keeps its rowid): one seek per row, no scan.
    expect(plan).toEqual(["SEARCH login_throttle USING INDEX sqlite_autoindex_login_throttle_1 (user_id=? AND client=?)"]);
  });

  it("keep at most one row per account and failing client: a thousand addresses leave 101 rows", () => {
    const answers = guessFromMany(1000);
    expect(answers.filter((a) => "error" in a)).toHaveLength(900);
    expect(db.select().from(loginThrottle).all()).toHaveLength(MAX_FAILURES_PER_HOUR + 1);
  });

  it("tell the owner once per window", () => {
    guessFromMany(MAX_FAILURES_PER_HOUR);
    expect(claimAlert(db as unknown as AuthRealm["db"], realm, owner, T0)).toBe(true);
    expect(claimAlert(db as unknown as AuthRealm["db"], realm, owner, later(10))).toBe(false);
    expect(guessFromMany(1, later(20), 300)[0]).toMatchObject({ error: "throttled", alert: false });
    guessFromMany(MAX_FAILURES_PER_HOUR, later(3600), 400);
    expect(guessFromMany(1, later(3601), 600)[0]).toMatchObject({ error: "throttled", alert: true });
  });
});
