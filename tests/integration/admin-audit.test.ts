import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { makeDataDir } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";
import { api, postForm } from "../helpers/auth";

/**
 * The audit of what admins did (issue 50). An admin's changes to one person, on the pages and through /api alike
 * (app/models/user-audited.server.ts), each an entry with who, what, how and from where.
 *
 * Its retention (server/audit-retention.ts): entries past an organization's
 * `audit_retention_days` are deleted by the server's own sweep at start, a batch of 2,000 at a time, and nothing
 * younger; each organization by its own setting. The setting is chosen on the people settings page, where a value
 * outside the choices is refused with a translated error and changes nothing.
 */
let server: InProcessServer;
let dataDir: string;
const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);

function tenant(org: number) {
  return new Database(path.join(dataDir, `org-${org}`, "db.sqlite"));
}
/** Entries of organization `org`, by age in days: how many of each. */
function writeEntries(org: number, ages: Array<[days: number, count: number]>) {
  const db = tenant(org);
  try {
    const insert = db.prepare(
      "insert into admin_audit (at, action, actor_role, via, subject_id, subject_email, detail) values (?, 'deactivated', 'admin', 'page', 1, 'kept@test', ?)",
    );
    db.transaction(() => {
      for (const [days, count] of ages) for (let i = 0; i < count; i++) insert.run(now - days * DAY, `age ${days}`);
    })();
  } finally {
    db.close();
  }
}
function agesOf(org: number) {
  const db = tenant(org);
  try {
    return db.prepare("select detail, count(*) as n from admin_audit where detail like 'age %' group by detail order by detail").all();
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dataDir = makeDataDir();
  // Acme keeps the default two years: 4,500 entries 800 days old (three batches), 10 of 100 days, 5 of today.
  writeEntries(1, [
    [800, 4_500],
    [100, 10],
    [0, 5],
  ]);
  // Nordlys keeps 90 days: both older kinds go.
  writeEntries(2, [
    [800, 3],
    [100, 10],
    [0, 5],
  ]);
  const nordlys = tenant(2);
  try {
    nordlys
      .prepare(
        "insert into user_settings (id, audit_retention_days) values (1, 90) on conflict (id) do update set audit_retention_days = 90",
      )
      .run();
  } finally {
    nordlys.close();
  }
  server = await startInProcess({ dataDir });
});
afterAll(async () => {
  await server?.stop();
});

async function settled(probe: () => unknown, expected: unknown) {
  const deadline = Date.now() + 10_000;
  while (JSON.stringify(probe()) !== JSON.stringify(expected) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(probe()).toEqual(expected);
}

describe("the audit's retention", () => {
  it("deletes at start what each organization keeps no longer, and nothing younger", async () => {
    await settled(
      () => agesOf(1),
      [
        { detail: "age 0", n: 5 },
        { detail: "age 100", n: 10 },
      ],
    );
    await settled(() => agesOf(2), [{ detail: "age 0", n: 5 }]);
  });

  it("is chosen on the people settings page, where a value outside the choices changes nothing", async () => {
    const admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
    const page = await request(server.port, "acme.localhost", "/dashboard/users/audit", { headers: { Cookie: admin } });
    expect(page.body).toContain("Entries are kept for 730 days, then deleted.");
    const form = { intent: "save", defaultLanguage: "", inviteImported: "on" };
    const bad = await postForm(server, "acme.localhost", "/dashboard/users/settings", { ...form, auditRetentionDays: "7" }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Choose one of the options.");
    const read = () => {
      const db = tenant(1);
      try {
        return db.prepare("select audit_retention_days as days from user_settings where id = 1").get() as
          | { days: number | null }
          | undefined;
      } finally {
        db.close();
      }
    };
    expect(read()?.days ?? 730).toBe(730);
    const good = await postForm(server, "acme.localhost", "/dashboard/users/settings", { ...form, auditRetentionDays: "forever" }, admin);
    expect(good.status).toBe(302);
    expect(read()?.days).toBeNull();
    const after = await request(server.port, "acme.localhost", "/dashboard/users/audit", { headers: { Cookie: admin } });
    expect(after.body).toContain("Entries are kept for ever.");
    execTenant(server, 1, "update user_settings set audit_retention_days = 730 where id = 1");
  });
});

describe("an admin's changes to one person", () => {
  it("are each in the audit, made on a page or through /api, with the address they came from", async () => {
    const admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
    const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const person = { firstName: "Audra", lastName: "Trail", email: "audra.trail@acme.test", phone: "", role: "learner", language: "" };
    expect((await postForm(server, "acme.localhost", "/dashboard/users/create", person, admin)).status).toBe(302);
    const id = (read1("select id from users where email = 'audra.trail@acme.test'") as { id: number }).id;
    const put = await api(server, "acme.localhost", "PUT", `users/${id}`, { token, body: { last_name: "Trailblazer", type: "admin" } });
    expect(put.status).toBe(200);
    expect((await postForm(server, "acme.localhost", `/dashboard/users/${id}`, { intent: "disable" }, admin)).status).toBe(302);
    // Deactivating someone already deactivated changes nothing, and writes nothing.
    expect((await postForm(server, "acme.localhost", `/dashboard/users/${id}`, { intent: "disable" }, admin)).status).toBe(302);
    expect((await api(server, "acme.localhost", "DELETE", `users/${id}`, { token })).status).toBe(200);
    const entries = await api(server, "acme.localhost", "GET", "audit?q=audra.trail", { token });
    expect(entries.status, entries.body).toBe(200);
    const data = (JSON.parse(entries.body) as { payload: { data: Array<Record<string, unknown>> } }).payload.data;
    expect(data.map((e) => [e.action, e.via, e.detail, e.address])).toEqual([
      ["deleted", "api", "admin", "127.0.0.1"],
      ["deactivated", "page", null, "127.0.0.1"],
      ["profile_changed", "api", "last_name", "127.0.0.1"],
      ["role_changed", "api", "admin", "127.0.0.1"],
      ["created", "page", "learner", "127.0.0.1"],
    ]);
    expect(data[0].subject).toEqual({ kind: "person", id, name: "audra.trail@acme.test" });
    // The screen names them in the organization's words.
    const screen = await request(server.port, "acme.localhost", "/dashboard/users/audit?q=audra.trail", { headers: { Cookie: admin } });
    for (const text of ["Removed", "Deactivated", "Details changed", "Type changed", "Added"]) expect(screen.body).toContain(`>${text}<`);
  });
});

function read1(sql: string) {
  const db = tenant(1);
  try {
    return db.prepare(sql).get();
  } finally {
    db.close();
  }
}
