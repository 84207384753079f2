import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOrganization, deleteOrganization } from "~/models/organization.server";
import { listPlatformPeople, NOTES_PER_CARRY, organizationsWithoutSummary, platformTotals } from "~/models/tenant-summary.server";
import type { TenantDb } from "../../db/open";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

/**
 * The platform's copy of each organization's people and counts (app/models/tenant-summary.server.ts,
 * server/tenant-summaries.ts): whatever changes people or courses in an organization's database, by
 * whichever way, is in the copy once that use of the database ends.
 */
let dir: string;
let platform: Platform;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-summary-"));
  platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dir, PLATFORM_DOMAIN: "lectern.test" });
});
afterEach(() => {
  platform.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const organization = (name: string) =>
  createOrganization(platform.db, { dataDir: dir }, { name, urlPrefix: name.toLowerCase(), language: "en" });
const run = (id: number, sql: string, ...params: unknown[]) =>
  platform.tenants.withTenant(id, (db) => db.$client.prepare(sql).run(...params));
const people = (organizationId?: number) => listPlatformPeople(platform.db, { organizationId, limit: 100_000 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the platform's copy of the organizations' people and counts", () => {
  it("follows people added, changed, disabled and removed, and courses added and removed, by any statement", () => {
    const acme = organization("Acme");
    const other = organization("Other");
    expect(organizationsWithoutSummary(platform.db)).toEqual([acme.id, other.id]);
    run(
      acme.id,
      "insert into users (email, first_name, last_name, role) values ('a@acme.test', 'Ada', 'Zed', 'admin'), ('b@acme.test', 'Bo', 'Young', 'learner')",
    );
    run(other.id, "insert into users (email, role) values ('c@other.test', null)");
    run(acme.id, "insert into courses (title) values ('One'), ('Two')");
    expect(organizationsWithoutSummary(platform.db)).toEqual([]);
    expect(platformTotals(platform.db)).toEqual({ users: 3, courses: 2, notGathered: 0 });
    expect(people(acme.id).map((p) => [p.email, p.firstName, p.lastName, p.role, p.disabled, p.organization])).toEqual([
      ["b@acme.test", "Bo", "Young", "learner", false, "Acme"],
      ["a@acme.test", "Ada", "Zed", "admin", false, "Acme"],
    ]);

    run(acme.id, "update users set last_name = 'Ashby', role = 'learner', disabled_at = unixepoch() where email = 'a@acme.test'");
    run(acme.id, "delete from users where email = 'b@acme.test'");
    run(acme.id, "delete from courses where title = 'One'");
    expect(platformTotals(platform.db)).toEqual({ users: 2, courses: 1, notGathered: 0 });
    expect(people(acme.id).map((p) => [p.email, p.lastName, p.role, p.disabled])).toEqual([["a@acme.test", "Ashby", "learner", true]]);
    expect(listPlatformPeople(platform.db, { q: "other", limit: 10 }).map((p) => p.email)).toEqual(["c@other.test"]);
  });

  it("notes nothing for changes the list does not show (a sign-in, a password)", () => {
    const acme = organization("Acme");
    run(acme.id, "insert into users (email) values ('a@acme.test')");
    run(acme.id, "update users set password_hash = 'x', watch_credited_until = 1, last_name = last_name");
    expect(platform.tenants.peek(acme.id, (db: TenantDb) => db.$client.prepare("select count(*) from summary_changes").pluck().get())).toBe(
      0,
    );
  });

  it("carries a large import over several turns, with the event loop free between them", async () => {
    const acme = organization("Acme");
    const count = NOTES_PER_CARRY * 2 + 10;
    platform.tenants.withTenant(acme.id, () => undefined); // its first use gathers it (empty)
    platform.tenants.withTenant(acme.id, (db) => {
      const insert = db.$client.prepare("insert into users (email, last_name) values (?, ?)");
      db.$client.transaction(() => {
        for (let i = 0; i < count; i++) insert.run(`p${i}@acme.test`, `P${String(i).padStart(5, "0")}`);
      })();
    });
    // The first batch as the use ended; the rest in later turns.
    expect(people(acme.id).length).toBe(NOTES_PER_CARRY);
    for (let i = 0; i < 50 && people(acme.id).length < count; i++) await sleep(10);
    expect(people(acme.id).length).toBe(count);
    expect(platformTotals(platform.db).users).toBe(count);
  });

  it("keeps nothing of an organization deleted meanwhile, and gathers a forgotten one again in full", () => {
    const acme = organization("Acme");
    const other = organization("Other");
    run(acme.id, "insert into users (email) values ('a@acme.test')");
    run(other.id, "insert into users (email) values ('o@other.test')");
    platform.summaries.regather(other.id);
    expect(people(other.id).map((p) => p.email)).toEqual(["o@other.test"]);
    deleteOrganization(platform.db, { dataDir: dir }, acme.id);
    expect(people().map((p) => p.email)).toEqual(["o@other.test"]);
    expect(platformTotals(platform.db)).toEqual({ users: 1, courses: 0, notGathered: 0 });
  });
});
