import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Bulk actions on people (issue 50; app/models/people-bulk/) against the real server: the people list's ticked rows
 * and "all that match", its confirmation naming how many, the job's progress and outcome, and `POST /api/users/bulk`.
 * A hand-counted fixture of twelve people "Zbulk Person01" to "Person12": 1–10 learners, 11–12 without a role;
 * 5 and 6 deactivated; 1–4 in "Bulk home", whose admin is a learner (a group admin); "Bulk target" empty.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
let admin: string;
let adminId: number;
let home: number;
let target: number;
let course: number;
const ids: number[] = [];
const pad = (n: number) => String(n).padStart(2, "0");

function scalar<T = number>(sql: string, ...params: unknown[]): T {
  const db = tenantDb(server, 1);
  try {
    return Object.values(db.prepare(sql).get(...params) as object)[0] as T;
  } finally {
    db.close();
  }
}

function rows(sql: string, ...params: unknown[]) {
  const db = tenantDb(server, 1);
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

function post(path: string, fields: [string, string | number][], cookie = admin) {
  const body = new URLSearchParams(fields.map(([k, v]) => [k, String(v)])).toString();
  return request(server.port, ORG, path, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${ORG}`, Cookie: cookie },
  });
}

/** The job a form started (its page's address), once it has finished, as its page shows it. */
async function finished(location: string | undefined) {
  const jobId = Number(/\/dashboard\/users\/bulk\/(\d+)$/.exec(location ?? "")?.[1]);
  expect(jobId, location).toBeGreaterThan(0);
  for (let i = 0; i < 200 && scalar<string>("select status from jobs where id = ?", jobId) !== "done"; i++)
    await new Promise((r) => setTimeout(r, 25));
  const page = await request(server.port, ORG, `/dashboard/users/bulk/${jobId}`, { headers: { Cookie: admin } });
  expect(page.status).toBe(200);
  return { jobId, body: page.body, result: JSON.parse(scalar<string>("select result from jobs where id = ?", jobId)) };
}

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  adminId = scalar("select id from users where email = 'admin@acme.test'");
  for (let n = 1; n <= 12; n++) {
    execTenant(
      server,
      1,
      "insert into users (email, first_name, last_name, role, disabled_at) values (?, 'Zbulk', ?, ?, ?)",
      `zbulk${pad(n)}@acme.test`,
      `Person${pad(n)}`,
      n <= 10 ? "learner" : null,
      n === 5 || n === 6 ? 1_700_000_000 : null,
    );
    ids.push(scalar("select id from users where email = ?", `zbulk${pad(n)}@acme.test`));
  }
  execTenant(server, 1, "insert into groups (name) values ('Bulk home'), ('Bulk target')");
  home = scalar("select id from groups where name = 'Bulk home'");
  target = scalar("select id from groups where name = 'Bulk target'");
  for (const id of ids.slice(0, 4))
    execTenant(server, 1, "insert into group_members (group_id, user_id, source) values (?, ?, 'manual')", home, id);
  course = scalar("select id from courses where published = 1 order by id limit 1");
});
afterAll(async () => {
  await server?.stop();
});

describe("a bulk action from the people list", () => {
  it("names how many ticked people it reaches, then adds them to a group in a job, each in the audit", async () => {
    const search = new URLSearchParams([["bulkAction", "add_to_group"], ...ids.slice(0, 3).map((id) => ["ids", String(id)])]);
    const confirm = await request(server.port, ORG, `/dashboard/users/bulk?${search}`, { headers: { Cookie: admin } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain("This reaches the 3 people you chose.");
    expect(confirm.body).toContain("Apply to 3 people");
    const started = await post("/dashboard/users/bulk", [
      ["bulkAction", "add_to_group"],
      ["bulkGroup", target],
      ...ids.slice(0, 3).map((id) => ["ids", id] as [string, number]),
    ]);
    expect(started.status).toBe(302);
    const job = await finished(started.headers.location);
    expect(job.result).toMatchObject({ total: 3, done: 3, unchanged: 0, refused: {} });
    expect(job.body).toContain("Done for 3 people of 3.");
    expect(scalar("select progress from jobs where id = ?", job.jobId)).toBe(100);
    expect(scalar("select count(*) from group_members where group_id = ?", target)).toBe(3);
    expect(scalar("select count(*) from admin_audit where group_id = ? and action = 'member_added' and via = 'page'", target)).toBe(3);
  });

  it("reaches every person the list's filters match, and says who already was as asked", async () => {
    const confirm = await request(server.port, ORG, "/dashboard/users/bulk?bulkAction=deactivate&scope=all&q=zbulk&role=learner", {
      headers: { Cookie: admin },
    });
    expect(confirm.body).toContain("This reaches all 10 people who match the list.");
    const sessionOf3 = insertSession(server, { organizationId: 1 }, { email: "zbulk03@acme.test", kind: "web" });
    expect(sessionOf3).toBeTruthy();
    const started = await post("/dashboard/users/bulk", [
      ["bulkAction", "deactivate"],
      ["scope", "all"],
      ["q", "zbulk"],
      ["role", "learner"],
    ]);
    const job = await finished(started.headers.location);
    // 5 and 6 were deactivated already; 11 and 12 have no role, so the filter leaves them out.
    expect(job.result).toMatchObject({ total: 10, done: 8, unchanged: 2 });
    expect(job.body).toContain("2 people already were as asked, and were left so.");
    expect(scalar("select count(*) from users where email like 'zbulk%' and disabled_at is not null")).toBe(10);
    expect(scalar("select count(*) from sessions where user_id = ?", ids[2])).toBe(0);
    // Each person it changed, in the audit: who did it, how, to whom.
    expect(
      scalar(
        "select count(*) from admin_audit where action = 'deactivated' and via = 'page' and actor_email = 'admin@acme.test' and subject_email like 'zbulk%'",
      ),
    ).toBe(8);
    const back = await post("/dashboard/users/bulk", [
      ["bulkAction", "reactivate"],
      ["scope", "all"],
      ["q", "zbulk"],
    ]);
    expect((await finished(back.headers.location)).result).toMatchObject({ total: 12, done: 10, unchanged: 2 });
    expect(scalar("select count(*) from users where email like 'zbulk%' and disabled_at is not null")).toBe(0);
  });

  it("assigns a course due on a day to each person once, and leaves the admin's own account as it is", async () => {
    const started = await post("/dashboard/users/bulk", [
      ["bulkAction", "assign_course"],
      ["bulkCourse", course],
      ["bulkDue", "2027-03-31"],
      ...[...ids.slice(6, 9), adminId].map((id) => ["ids", id] as [string, number]),
    ]);
    expect((await finished(started.headers.location)).result).toMatchObject({ total: 4, done: 4 });
    const assigned = (id: number) =>
      scalar(
        "select count(*) from assignments a join assignment_people ap on ap.assignment_id = a.id where a.course_id = ? and a.user_id = ? and ap.due_on = '2027-03-31'",
        course,
        id,
      );
    expect(ids.slice(6, 9).map(assigned)).toEqual([1, 1, 1]);
    expect(scalar("select count(*) from admin_audit where action = 'course_assigned' and detail like '% · 2027-03-31'")).toBe(4);
    const again = await post("/dashboard/users/bulk", [
      ["bulkAction", "assign_course"],
      ["bulkCourse", course],
      ["bulkDue", "2027-04-30"],
      ["ids", ids[6]],
      ["ids", ids[9]],
    ]);
    expect((await finished(again.headers.location)).result).toMatchObject({ total: 2, done: 1, unchanged: 1 });
    const own = await post("/dashboard/users/bulk", [
      ["bulkAction", "change_role"],
      ["bulkRole", "learner"],
      ["ids", adminId],
      ["ids", ids[10]],
    ]);
    const job = await finished(own.headers.location);
    expect(job.result).toMatchObject({ total: 2, done: 1, refused: { self: 1 } });
    expect(job.body).toContain("Your own account was left as it is.");
    expect(scalar("select role from users where id = ?", adminId)).toBe("admin");
    expect(scalar<string>("select detail from admin_audit where action = 'role_changed' and subject_id = ?", ids[10])).toBe("learner");
    expect(scalar("select count(*) from admin_audit where action = 'role_changed' and subject_id = ?", adminId)).toBe(0);
  });

  it("refuses bad input with a translated message and starts nothing", async () => {
    const jobs = () => scalar("select count(*) from jobs");
    const before = jobs();
    const cases: [string, string | number][][] = [
      [
        ["bulkAction", "explode"],
        ["ids", ids[0]],
      ],
      [["bulkAction", "deactivate"]],
      [
        ["bulkAction", "deactivate"],
        ["scope", "all"],
        ["role", "emperor"],
      ],
      [
        ["bulkAction", "add_to_group"],
        ["bulkGroup", 999_999],
        ["ids", ids[0]],
      ],
      [
        ["bulkAction", "assign_course"],
        ["bulkCourse", course],
        ["bulkDue", "2027-02-30"],
        ["ids", ids[0]],
      ],
      [
        ["bulkAction", "assign_course"],
        ["bulkCourse", 999_999],
        ["bulkDue", "2027-02-01"],
        ["ids", ids[0]],
      ],
      [["bulkAction", "deactivate"], ...Array.from({ length: 101 }, (_, i) => ["ids", i + 1] as [string, number])],
    ];
    for (const fields of cases) {
      const res = await post("/dashboard/users/bulk", fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
    }
    expect(jobs()).toBe(before);
    const page = await request(server.port, ORG, "/dashboard/users/bulk?bulkAction=deactivate&scope=all&role=emperor", {
      headers: { Cookie: admin },
    });
    expect(page.body).toContain("The list&#x27;s filters are not valid: nothing was changed.");
  });
});

describe("the audit of a bulk action", () => {
  it("finds its people by action and by address, and exports what it finds as CSV", async () => {
    const rows = async (search: string) => {
      const res = await request(server.port, ORG, `/dashboard/users/audit${search}`, { headers: { Cookie: admin } });
      expect(res.status).toBe(200);
      return [...res.body.matchAll(/<tr data-action="([a-z_]+)" data-actor="[^"]*" data-person="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    };
    const deactivated = await rows("?action=deactivated&q=zbulk");
    expect(deactivated).toHaveLength(8);
    expect(new Set(deactivated.map((r) => r[0]))).toEqual(new Set(["deactivated"]));
    expect(await rows("?q=zbulk08%40acme.test&action=course_assigned")).toEqual([["course_assigned", "zbulk08@acme.test"]]);
    const csv = await request(server.port, ORG, "/dashboard/users/audit/export?action=course_assigned&via=page", {
      headers: { Cookie: admin },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("at,action,via,actor_email,actor_role,actor_token,person_id,person_email,group,detail,subject_kind,address");
    // Four assigned in the first run, one more in the second: each about a person, from the address the admin's
    // request came from (the job keeps the one that started it).
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(Array(5).fill("course_assigned"));
    expect(lines.slice(1).map((l) => l.split(",").slice(-2).join(","))).toEqual(Array(5).fill("person,127.0.0.1"));
    expect((await request(server.port, ORG, "/dashboard/users/audit/export?action=exploded", { headers: { Cookie: admin } })).status).toBe(
      400,
    );
  });
});

describe("POST /api/users/bulk", () => {
  it("lets a group admin add only people of their own groups, and nothing of anyone else's", async () => {
    // Person 1 (in both groups since the first test) administers them.
    execTenant(server, 1, "update group_members set is_admin = 1 where group_id in (?, ?) and user_id = ?", home, target, ids[0]);
    const token = insertSession(server, { organizationId: 1 }, { email: "zbulk01@acme.test", kind: "api" });
    const outside = await api(server, ORG, "POST", "users/bulk", { token, body: { action: "deactivate", user_ids: [ids[1]] } });
    expect(outside.status).toBe(403);
    const foreign = scalar("select id from groups where id not in (?, ?) order by id limit 1", home, target);
    const notTheirs = await api(server, ORG, "POST", "users/bulk", {
      token,
      body: { action: "add_to_group", group_id: foreign, user_ids: [ids[1]] },
    });
    expect(notTheirs.status).toBe(403);
    // 2–4 are in their group; 9 is in none of theirs; 999,999 is nobody (told apart from nobody-here for them: no).
    const started = await api(server, ORG, "POST", "users/bulk", {
      token,
      body: { action: "add_to_group", group_id: target, user_ids: [ids[1], ids[3], ids[8], 999_999] },
    });
    expect(started.status, started.body).toBe(200);
    const jobId = started.json().payload.id as number;
    for (let i = 0; i < 200 && scalar<string>("select status from jobs where id = ?", jobId) !== "done"; i++)
      await new Promise((r) => setTimeout(r, 25));
    const read = await api(server, ORG, "GET", `users/bulk/${jobId}`, { token });
    expect(read.json().payload).toMatchObject({ status: "done", total: 4, done: 1, unchanged: 1, refused: { not_managed: 2 } });
    expect(scalar("select count(*) from group_members where group_id = ? and user_id = ?", target, ids[8])).toBe(0);
    expect(
      scalar("select actor_role from admin_audit where group_id = ? and subject_id = ? order by id desc limit 1", target, ids[3]),
    ).toBe("group_admin");
    // A filter of theirs reaches the people of their own groups only (1 to 4 of the twelve): its count tells of nobody else.
    const filtered = await api(server, ORG, "POST", "users/bulk", {
      token,
      body: { action: "add_to_group", group_id: target, filter: { q: "zbulk" } },
    });
    expect(filtered.status, filtered.body).toBe(200);
    expect(filtered.json().payload.total).toBe(4);
  });

  it("lets a group admin take members out of their group, never its admins, each in the audit", async () => {
    const token = insertSession(server, { organizationId: 1 }, { email: "zbulk01@acme.test", kind: "api" });
    const settle = async (jobId: number) => {
      for (let i = 0; i < 200 && scalar<string>("select status from jobs where id = ?", jobId) !== "done"; i++)
        await new Promise((r) => setTimeout(r, 25));
    };
    await settle(scalar("select max(id) from jobs where kind = 'people.bulk'"));
    // In "Bulk target" now: 1 (its admin), 2, 3 and 4. 9 and 999,999 are not members.
    const members = () =>
      rows("select user_id from group_members where group_id = ? order by user_id", target).map((r) => (r as { user_id: number }).user_id);
    expect(members()).toEqual(ids.slice(0, 4));
    const started = await api(server, ORG, "POST", "users/bulk", {
      token,
      body: { action: "remove_from_group", group_id: target, user_ids: [ids[0], ids[1], ids[2], ids[8], 999_999] },
    });
    expect(started.status, started.body).toBe(200);
    const jobId = started.json().payload.id as number;
    await settle(jobId);
    const read = await api(server, ORG, "GET", `users/bulk/${jobId}`, { token });
    expect(read.json().payload).toMatchObject({
      status: "done",
      total: 5,
      done: 2,
      unchanged: 0,
      refused: { not_managed: 1, not_member: 2 },
    });
    expect(members()).toEqual([ids[0], ids[3]]);
    const audit = rows(
      "select subject_id, subject_email, actor_role, via from admin_audit where group_id = ? and action = 'member_removed' order by subject_id",
      target,
    );
    expect(audit).toEqual(
      [ids[1], ids[2]].map((id, i) => ({
        subject_id: id,
        subject_email: `zbulk${pad(i + 2)}@acme.test`,
        actor_role: "group_admin",
        via: "api",
      })),
    );
  });
});
