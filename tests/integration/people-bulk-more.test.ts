import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { startMailbox, type Mailbox } from "../helpers/mail";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * More bulk actions on people (issue 50; app/models/people-bulk/): a learning path assigned due on a day, the
 * invitation mailed again, and the chosen people exported as CSV (`GET /api/users/export`). A hand-counted fixture
 * of ten people "Zmore Person01" to "Person10", all learners without a password unless said:
 *   1–4 never signed in, in "More home" (1 also in "More other"); 5 chose a password; 6 deactivated; 7 signs in
 *   through another platform; 8 signed in by a link (a device); 9 administers "More home" (a group admin, signed
 *   in); 10 only in "More other". Person 3's first name looks like a formula.
 */
let server: InProcessServer;
let mailbox: Mailbox;
const ORG = "acme.localhost";
let admin: string;
let adminToken: string;
let groupAdmin: string;
let home: number;
let other: number;
let path: { id: number; title: string };
const ids: number[] = [];
const pad = (n: number) => String(n).padStart(2, "0");
const person = (n: number) => ids[n - 1];

function scalar<T = number>(sql: string, ...params: unknown[]): T {
  const db = tenantDb(server, 1);
  try {
    return Object.values(db.prepare(sql).get(...params) as object)[0] as T;
  } finally {
    db.close();
  }
}

function post(path: string, fields: [string, string | number][]) {
  const body = new URLSearchParams(fields.map(([k, v]) => [k, String(v)])).toString();
  return request(server.port, ORG, path, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${ORG}`, Cookie: admin },
  });
}

async function settle(jobId: number) {
  for (let i = 0; i < 400 && scalar<string>("select status from jobs where id = ?", jobId) !== "done"; i++)
    await new Promise((r) => setTimeout(r, 25));
  expect(scalar<string>("select status from jobs where id = ?", jobId)).toBe("done");
  return JSON.parse(scalar<string>("select result from jobs where id = ?", jobId));
}

/** A bulk action through /api, run to its end: the job as `GET /api/users/bulk/{id}` shows it. */
async function viaApi(body: Record<string, unknown>, token = adminToken) {
  const started = await api(server, ORG, "POST", "users/bulk", { token, body });
  expect(started.status, started.body).toBe(200);
  const jobId = started.json().payload.id as number;
  await settle(jobId);
  return (await api(server, ORG, "GET", `users/bulk/${jobId}`, { token })).json().payload;
}

/** A CSV's lines, without the byte-order mark. */
const csvLines = (body: string) =>
  body
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startInProcess({ env: { SMTP_URL: mailbox.url } });
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  adminToken = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  for (let n = 1; n <= 10; n++) {
    execTenant(
      server,
      1,
      `insert into users (email, first_name, last_name, role, language, password_hash, disabled_at, managed_externally)
       values (?, ?, ?, 'learner', ?, ?, ?, ?)`,
      `zmore${pad(n)}@acme.test`,
      n === 3 ? "=SUM(A1)" : "Zmore",
      `Person${pad(n)}`,
      n === 2 ? "pl" : null,
      n === 5 ? "x" : null,
      n === 6 ? 1_700_000_000 : null,
      n === 7 ? 1 : 0,
    );
    ids.push(scalar("select id from users where email = ?", `zmore${pad(n)}@acme.test`));
  }
  execTenant(server, 1, "insert into groups (name) values ('More home'), ('More other')");
  home = scalar("select id from groups where name = 'More home'");
  other = scalar("select id from groups where name = 'More other'");
  for (const n of [1, 2, 3, 4, 9])
    execTenant(
      server,
      1,
      "insert into group_members (group_id, user_id, source, is_admin) values (?, ?, 'manual', ?)",
      home,
      person(n),
      n === 9 ? 1 : 0,
    );
  for (const n of [1, 10])
    execTenant(server, 1, "insert into group_members (group_id, user_id, source) values (?, ?, 'manual')", other, person(n));
  insertSession(server, { organizationId: 1 }, { email: "zmore08@acme.test", kind: "web" });
  // Signing in keeps when they were last active (app/models/auth/session.server.ts): the export's last_seen_at.
  execTenant(server, 1, "insert into user_activity (user_id, last_active_at) values (?, unixepoch())", person(8));
  groupAdmin = insertSession(server, { organizationId: 1 }, { email: "zmore09@acme.test", kind: "api" });
  const db = tenantDb(server, 1);
  try {
    path = db.prepare("select id, title from learning_paths where published = 1 order by id limit 1").get() as typeof path;
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

describe("assigning a learning path to many people", () => {
  it("asks for the path and its due day, assigns it to each person once, each in the audit", async () => {
    const search = new URLSearchParams([["bulkAction", "assign_path"], ...[1, 2, 3].map((n) => ["ids", String(person(n))])]);
    const confirm = await request(server.port, ORG, `/dashboard/users/bulk?${search}`, { headers: { Cookie: admin } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain("Assign a learning path");
    expect(confirm.body).toContain("This reaches the 3 people you chose.");
    expect(confirm.body).toContain(`>${path.title}</option>`);
    const started = await post("/dashboard/users/bulk", [
      ["bulkAction", "assign_path"],
      ["bulkPath", path.id],
      ["bulkDue", "2027-05-31"],
      ...[1, 2, 3].map((n) => ["ids", person(n)] as [string, number]),
    ]);
    expect(started.status).toBe(302);
    const jobId = Number(/\/bulk\/(\d+)$/.exec(started.headers.location ?? "")?.[1]);
    expect(await settle(jobId)).toMatchObject({ total: 3, done: 3, unchanged: 0, refused: {} });
    const page = await request(server.port, ORG, `/dashboard/users/bulk/${jobId}`, { headers: { Cookie: admin } });
    expect(page.body).toContain(path.title);
    expect(page.body).toContain("Done for 3 people of 3.");
    const assigned = (n: number) =>
      scalar(
        `select count(*) from path_assignments pa join path_assignment_people p on p.assignment_id = pa.id and p.user_id = pa.user_id
         join path_enrolments e on e.path_id = pa.path_id and e.user_id = pa.user_id
         where pa.path_id = ? and pa.target = 'person' and pa.user_id = ? and p.due_on = '2027-05-31'`,
        path.id,
        person(n),
      );
    expect([1, 2, 3, 4].map(assigned)).toEqual([1, 1, 1, 0]);
    expect(
      scalar(
        "select count(*) from admin_audit where action = 'path_assigned' and via = 'page' and detail = ?",
        `${path.title} · 2027-05-31`,
      ),
    ).toBe(3);

    // Again through /api with 3 and 4: 3 has it already; 999,999 is nobody.
    const again = await viaApi({
      action: "assign_path",
      path_id: path.id,
      due_date: "2027-06-30",
      user_ids: [person(3), person(4), 999_999],
    });
    expect(again).toMatchObject({ status: "done", total: 3, done: 1, unchanged: 1, refused: { gone: 1 } });
    expect(scalar("select count(*) from path_assignments where path_id = ? and user_id = ?", path.id, person(3))).toBe(1);
    expect(scalar("select count(*) from admin_audit where action = 'path_assigned' and via = 'api' and subject_id = ?", person(4))).toBe(1);
  });

  it("refuses a missing path, a bad day and a group admin, starting nothing", async () => {
    const jobs = () => scalar("select count(*) from jobs");
    const before = jobs();
    for (const fields of [
      [
        ["bulkPath", 999_999],
        ["bulkDue", "2027-05-31"],
      ],
      [
        ["bulkPath", path.id],
        ["bulkDue", "2027-02-30"],
      ],
      [["bulkDue", "2027-05-31"]],
    ] as [string, string | number][][]) {
      const res = await post("/dashboard/users/bulk", [["bulkAction", "assign_path"], ...fields, ["ids", person(1)]]);
      expect(res.status, JSON.stringify(fields)).toBe(400);
    }
    const noPath = await api(server, ORG, "POST", "users/bulk", {
      token: adminToken,
      body: { action: "assign_path", path_id: 999_999, due_date: "2027-05-31", user_ids: [person(1)] },
    });
    expect(noPath.status).toBe(422);
    expect(noPath.json().payload.fields).toEqual({ path_id: ["Choose a learning path you may assign."] });
    // A group admin assigns to their groups, never to people one by one: not even their own group's members.
    const refused = await api(server, ORG, "POST", "users/bulk", {
      token: groupAdmin,
      body: { action: "assign_path", path_id: path.id, due_date: "2027-05-31", user_ids: [person(1)] },
    });
    expect(refused.status).toBe(403);
    expect(jobs()).toBe(before);
  });
});

describe("mailing the invitation again", () => {
  it("mails only those who never signed in, says why the others were not, and never twice within the hour", async () => {
    const confirm = await request(server.port, ORG, "/dashboard/users/bulk?bulkAction=resend_invitation&scope=all&q=zmore", {
      headers: { Cookie: admin },
    });
    expect(confirm.body).toContain("This reaches all 10 people who match the list.");
    expect(confirm.body).toContain("Each person who has never signed in gets the invitation mail again");

    const mailed = mailbox.mails.length;
    const job = await viaApi({ action: "resend_invitation", user_ids: [...ids.slice(0, 9), 999_999] });
    // 1–4 mailed; 5, 8 and 9 signed in; 6 deactivated; 7 another platform's; 999,999 nobody.
    expect(job).toMatchObject({
      status: "done",
      total: 10,
      done: 4,
      unchanged: 0,
      refused: { signed_in: 3, deactivated: 1, external: 1, gone: 1 },
    });
    for (const n of [1, 2, 3, 4]) {
      const mail = await mailbox.next(`zmore${pad(n)}@acme.test`);
      expect(mail.text).toMatch(/\/auth\/reset\/zmore0\d%40acme\.test\/\S+/);
    }
    expect(mailbox.mails.length - mailed).toBe(4);
    expect(
      scalar("select count(*) from admin_audit where action = 'invitation_resent' and via = 'api' and subject_email like 'zmore%'"),
    ).toBe(4);

    // At once again, from the page: nobody is mailed a second time.
    const started = await post("/dashboard/users/bulk", [
      ["bulkAction", "resend_invitation"],
      ["ids", person(1)],
      ["ids", person(2)],
    ]);
    const jobId = Number(/\/bulk\/(\d+)$/.exec(started.headers.location ?? "")?.[1]);
    expect(await settle(jobId)).toMatchObject({ done: 0, refused: { recently_invited: 2 } });
    const page = await request(server.port, ORG, `/dashboard/users/bulk/${jobId}`, { headers: { Cookie: admin } });
    expect(page.body).toContain("2 people were invited less than an hour ago, and were not mailed again.");

    // An hour later person 1 may be mailed again; the mail server refusing it is told, not hidden.
    execTenant(server, 1, "update password_resets set created_at = created_at - 3601 where user_id = ?", person(1));
    mailbox.refuseNext(1);
    expect(await viaApi({ action: "resend_invitation", user_ids: [person(1)] })).toMatchObject({ done: 0, refused: { mail_failed: 1 } });
    expect(mailbox.mails.length - mailed).toBe(4);
  });

  it("is the organization admins': a group admin may not, even for their own group", async () => {
    const res = await api(server, ORG, "POST", "users/bulk", {
      token: groupAdmin,
      body: { action: "resend_invitation", user_ids: [person(2)] },
    });
    expect(res.status).toBe(403);
  });
});

describe("exporting the chosen people", () => {
  it("links the confirmation to the CSV of the same people, streamed in name order with their groups", async () => {
    const confirm = await request(server.port, ORG, "/dashboard/users/bulk?bulkAction=export&scope=all&q=zmore&status=active", {
      headers: { Cookie: admin },
    });
    expect(confirm.body).toContain("This reaches all 9 people who match the list.");
    const href = /href="(\/api\/users\/export[^"]*)"/.exec(confirm.body)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBe("/api/users/export?q=zmore&status=active");
    // The list's own "Export as CSV" is of the list as it is filtered.
    const list = await request(server.port, ORG, "/dashboard/users?q=zmore&status=active&sort=email", { headers: { Cookie: admin } });
    expect(list.body).toContain('href="/api/users/export?q=zmore&amp;status=active"');
    const csv = await request(server.port, ORG, href!, { headers: { Cookie: admin } });
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = csvLines(csv.body);
    expect(lines[0]).toBe("id,first_name,last_name,phone,email,type,status,created_at,language,groups,last_seen_at");
    expect(lines.slice(1).map((l) => l.split(",")[4])).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10].map((n) => `zmore${pad(n)}@acme.test`));
    const row = (n: number) => lines.find((l) => l.includes(`zmore${pad(n)}@`))!.split(",");
    expect(row(1).slice(5, 10)).toEqual(["learner", "active", row(1)[7], "", "More home; More other"]);
    expect(row(2)[8]).toBe("pl");
    // A name that a spreadsheet would run as a formula is written as text.
    expect(row(3)[1]).toBe("'=SUM(A1)");
    expect(row(8)[10]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(row(1)[10]).toBe("");

    // From a list filtered by last activity: its export link is of the same people (person 8 alone signed in).
    const seenList = await request(server.port, ORG, "/dashboard/users?q=zmore&seen=7d", { headers: { Cookie: admin } });
    const seenHref = /href="(\/api\/users\/export[^"]*)"/.exec(seenList.body)![1].replace(/&amp;/g, "&");
    expect(seenHref).toBe("/api/users/export?q=zmore&seen=7d");
    const seen = await request(server.port, ORG, seenHref, { headers: { Cookie: admin } });
    expect(seen.status).toBe(200);
    expect(
      csvLines(seen.body)
        .slice(1)
        .map((l) => l.split(",")[4]),
    ).toEqual(["zmore08@acme.test"]);

    const ticked = await request(server.port, ORG, `/dashboard/users/bulk?bulkAction=export&ids=${person(2)}&ids=${person(6)}`, {
      headers: { Cookie: admin },
    });
    const tickedHref = /href="(\/api\/users\/export[^"]*)"/.exec(ticked.body)![1].replace(/&amp;/g, "&");
    const two = await request(server.port, ORG, tickedHref, { headers: { Cookie: admin } });
    expect(
      csvLines(two.body)
        .slice(1)
        .map((l) => l.split(",")[4]),
    ).toEqual(["zmore02@acme.test", "zmore06@acme.test"]);
  });

  it("gives a group admin their groups' people only, with those groups only; refuses bad parameters and learners", async () => {
    const mine = await api(server, ORG, "GET", "users/export?q=zmore", { token: groupAdmin });
    expect(mine.status).toBe(200);
    const lines = csvLines(mine.body);
    expect(lines.slice(1).map((l) => l.split(",")[4])).toEqual([1, 2, 3, 4, 9].map((n) => `zmore${pad(n)}@acme.test`));
    expect(lines.find((l) => l.includes("zmore01@"))!.split(",")[9]).toBe("More home");
    // Person 10 is in none of their groups: asked by id, or by the other group, nobody.
    const outside = await api(server, ORG, "GET", `users/export?ids=${person(10)}`, { token: groupAdmin });
    expect(csvLines(outside.body)).toHaveLength(1);
    expect(csvLines((await api(server, ORG, "GET", `users/export?group=${other}&q=zmore`, { token: groupAdmin })).body).slice(1)).toEqual([
      expect.stringContaining("zmore01@acme.test"),
    ]);
    // A filter that does not parse refuses the export instead of exporting everyone.
    for (const query of ["status=gone", "colour=red", "ids=1,x", "role=emperor", "language=xx", "group=9007199254740991", "seen=soon"]) {
      const res = await api(server, ORG, "GET", `users/export?${query}`, { token: adminToken });
      expect(res.status, query).toBe(422);
      expect(res.json().error).toBe(true);
    }
    const learner = insertSession(server, { organizationId: 1 }, { email: "zmore05@acme.test", kind: "api" });
    expect((await api(server, ORG, "GET", "users/export", { token: learner })).status).toBe(403);
  });
});
