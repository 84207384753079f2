import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";
import { tenantDb } from "../helpers/auth";

/**
 * The people management list (issue 50; app/models/user-list.server.ts) against the real server, as its GET form
 * asks without JavaScript, on a hand-counted fixture of twelve people "Ylist Person01" to "Person12": 1–3 admins,
 * 4–10 learners, 11–12 without a role here; 5 and 6 deactivated; the even ones in Polish; 1–4 in the group "List
 * team". Each filter, a sort either way, the search by full name, and a filter outside the choices.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const LIST = "/dashboard/users";
let admin: string;
let team: number;
const pad = (n: number) => String(n).padStart(2, "0");

async function page(search: string) {
  const res = await request(server.port, ORG, `${LIST}${search}`, { headers: { Cookie: admin } });
  expect(res.status).toBe(200);
  return {
    emails: [...res.body.matchAll(/<tr data-email="([^"]+)"/g)].map((m) => m[1]),
    total: /data-testid="list-total">([^<]*)</.exec(res.body)?.[1],
    body: res.body,
  };
}
const ylist = (...ns: number[]) => ns.map((n) => `ylist${pad(n)}@acme.test`);

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  for (let n = 1; n <= 12; n++)
    execTenant(
      server,
      1,
      "insert into users (email, first_name, last_name, role, language, disabled_at) values (?, 'Ylist', ?, ?, ?, ?)",
      `ylist${pad(n)}@acme.test`,
      `Person${pad(n)}`,
      n <= 3 ? "admin" : n <= 10 ? "learner" : null,
      n % 2 ? null : "pl",
      n === 5 || n === 6 ? 1_700_000_000 : null,
    );
  execTenant(server, 1, "insert into groups (name) values ('List team')");
  const db = tenantDb(server, 1);
  try {
    team = (db.prepare("select id from groups where name = 'List team'").get() as { id: number }).id;
  } finally {
    db.close();
  }
  for (let n = 1; n <= 4; n++)
    execTenant(
      server,
      1,
      "insert into group_members (group_id, user_id) select ?, id from users where email = ?",
      team,
      `ylist${pad(n)}@acme.test`,
    );
});
afterAll(async () => {
  await server?.stop();
});

describe("the people list", () => {
  it("searches by e-mail address and by full name, by name in order, a page at a time", async () => {
    const all = await page("?q=ylist");
    expect(all.total).toBe("1–12 of 12");
    expect(all.emails).toEqual(ylist(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    expect((await page("?q=ylist+person03")).emails).toEqual(ylist(3));
    const many = await page("");
    expect(many.emails).toHaveLength(25);
    expect(many.body).toContain('rel="next"');
  });

  it("filters by role, group, status and language, and sorts either way", async () => {
    expect((await page("?q=ylist&role=admin")).emails).toEqual(ylist(1, 2, 3));
    expect((await page("?q=ylist&role=none")).emails).toEqual(ylist(11, 12));
    expect((await page("?q=ylist&status=disabled")).emails).toEqual(ylist(5, 6));
    expect((await page("?q=ylist&status=active&role=learner")).emails).toEqual(ylist(4, 7, 8, 9, 10));
    expect((await page("?q=ylist&language=pl")).emails).toEqual(ylist(2, 4, 6, 8, 10, 12));
    expect((await page(`?group=${team}`)).emails).toEqual(ylist(1, 2, 3, 4));
    expect((await page("?q=ylist&sort=email&dir=desc")).emails.slice(0, 2)).toEqual(ylist(12, 11));
  });

  it("filters and sorts by when each person was last active, kept as their sessions are used", async () => {
    const day = 86_400;
    const now = Math.floor(Date.now() / 1000);
    // 1–3 two days ago, 4 twenty, 5 sixty, 6 two hundred; 8–12 never; 7 by using a session an hour old.
    for (const [n, ago] of [
      [1, 2],
      [2, 2],
      [3, 2],
      [4, 20],
      [5, 60],
      [6, 200],
    ])
      execTenant(
        server,
        1,
        "insert into user_activity (user_id, last_active_at) select id, ? from users where email = ?",
        now - ago * day,
        `ylist${pad(n)}@acme.test`,
      );
    const seven = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "ylist07@acme.test", kind: "web" }));
    execTenant(
      server,
      1,
      "update sessions set last_seen_at = last_seen_at - 3600 where user_id = (select id from users where email = ?)",
      "ylist07@acme.test",
    );
    expect((await page("?q=ylist&seen=never")).emails).toEqual(ylist(7, 8, 9, 10, 11, 12));
    expect((await request(server.port, ORG, "/", { headers: { Cookie: seven } })).status).toBe(200);
    expect((await page("?q=ylist&seen=7d")).emails).toEqual(ylist(1, 2, 3, 7));
    expect((await page("?q=ylist&seen=30d")).emails).toEqual(ylist(1, 2, 3, 4, 7));
    expect((await page("?q=ylist&seen=90d")).emails).toEqual(ylist(1, 2, 3, 4, 5, 7));
    expect((await page("?q=ylist&seen=over_90d")).emails).toEqual(ylist(6));
    expect((await page("?q=ylist&seen=never")).emails).toEqual(ylist(8, 9, 10, 11, 12));
    // The most recent first; the same moment in id order (the same direction); never last.
    const recent = await page("?q=ylist&sort=seen");
    expect(recent.emails).toEqual(ylist(7, 3, 2, 1, 4, 5, 6, 12, 11, 10, 9, 8));
    expect((await page("?q=ylist&sort=seen&dir=asc")).emails).toEqual(ylist(8, 9, 10, 11, 12, 6, 5, 4, 1, 2, 3, 7));
    // The column: a date, or "Never".
    const row = (email: string) => new RegExp(`<tr data-email="${email}">.*?</tr>`).exec(recent.body)?.[0] ?? "";
    expect(row("ylist12@acme.test")).toContain("<td>Never</td>");
    expect(row("ylist06@acme.test")).not.toContain("<td>Never</td>");
  });

  it("leaves out a filter outside its choices and says so", async () => {
    const bad = await page("?q=ylist&role=owner&status=sleeping");
    expect(bad.emails).toHaveLength(12);
    expect(bad.body.match(/Not one of the choices: left out\./g)).toHaveLength(2);
  });
});
