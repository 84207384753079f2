import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Four people lists of issue 50 against the real server, as their GET forms ask without JavaScript, on one
 * hand-counted fixture in Acme: thirty people "Zpl Person01" to "Person30" (zpl01@acme.test …; 07 deactivated).
 * - The group "Zpl team": 1–28, added from 28 down to 1; 1 and 2 its admins. Lead (lead@zpl.test) administers
 *   only "Zpl other" (29 and 30).
 * - The course "Zpl course" (4 lessons): 01 completed it (4 of 4, last active 5 days ago), 02 did 2 (1 day ago),
 *   03 began one (3 days ago), 29 did 1 (2 days ago); 01–04 assigned through the group's assignment, whose people
 *   are 01 (done), 02 (overdue), 03 (in progress), 04 (not started) and 05 (left the group).
 * - Imports: zpl-a.csv (done, 5 rows, 3 days ago), zpl-b.csv (failed, 2 rows, 2 days ago), zpl-c.csv (preview,
 *   9 rows, yesterday); Nordlys has zpl-nordlys.csv.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const BASE = "/dashboard/organizations/1";
let admin: string;
let lead: string;
let team: number;
let other: number;
let course: number;
let assignment: number;
const pad = (n: number) => String(n).padStart(2, "0");
const zpl = (...ns: number[]) => ns.map((n) => `zpl${pad(n)}@acme.test`);
const DAY = 86_400;

async function get(path: string, cookie = admin) {
  return request(server.port, ORG, path, { headers: { Cookie: cookie } });
}
async function list(path: string, attribute: string, cookie = admin) {
  const res = await get(path, cookie);
  expect(res.status).toBe(200);
  return {
    rows: [...res.body.matchAll(new RegExp(`<tr data-${attribute}="([^"]+)"`, "g"))].map((m) => m[1]),
    total: /data-testid="list-total">([^<]*)</.exec(res.body)?.[1],
    body: res.body,
  };
}
const sql = (text: string, ...params: unknown[]) => execTenant(server, 1, text, ...params);

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  const now = Math.floor(Date.now() / 1000);
  for (let n = 1; n <= 30; n++)
    sql(
      "insert into users (email, first_name, last_name, role, disabled_at) values (?, 'Zpl', ?, 'learner', ?)",
      `zpl${pad(n)}@acme.test`,
      `Person${pad(n)}`,
      n === 7 ? now : null,
    );
  sql("insert into users (email, first_name, last_name, role) values ('lead@zpl.test', 'Lea', 'Lead', 'learner')");
  team = Number(sql("insert into groups (name) values ('Zpl team')").lastInsertRowid);
  other = Number(sql("insert into groups (name) values ('Zpl other')").lastInsertRowid);
  for (let n = 28; n >= 1; n--)
    sql(
      "insert into group_members (group_id, user_id, is_admin) select ?, id, ? from users where email = ?",
      team,
      n <= 2 ? 1 : 0,
      zpl(n)[0],
    );
  sql("insert into group_members (group_id, user_id) select ?, id from users where email in (?, ?)", other, ...zpl(29, 30));
  sql("insert into group_members (group_id, user_id, is_admin) select ?, id, 1 from users where email = 'lead@zpl.test'", other);
  lead = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "lead@zpl.test", kind: "web" }));

  course = Number(
    sql("insert into courses (title, description, type, published, position) values ('Zpl course', '', 'series', 1, 999)").lastInsertRowid,
  );
  for (let k = 1; k <= 4; k++)
    sql("insert into lessons (course_id, title, kind, position) values (?, ?, 'text', ?)", course, `Zpl lesson ${k}`, k);
  // Person n: how many lessons they completed, how many they only began, and how many days ago they last worked.
  const progress: [number, number, number, number][] = [
    [1, 4, 0, 5],
    [2, 2, 0, 1],
    [3, 0, 1, 3],
    [29, 1, 0, 2],
  ];
  for (const [n, done, begun, days] of progress) {
    const at = now - days * DAY;
    sql(
      `insert into lesson_progress (user_id, lesson_id, course_id, completed_at, created_at, updated_at)
       select u.id, l.id, l.course_id, case when l.position <= ? then ? end, ?, ? from users u, lessons l
       where u.email = ? and l.course_id = ? and l.position <= ?`,
      done,
      at,
      at,
      at,
      zpl(n)[0],
      course,
      done + begun,
    );
  }
  sql(
    "insert into course_completions (user_id, course_id, completed_at) select id, ?, ? from users where email = ?",
    course,
    now - 5 * DAY,
    zpl(1)[0],
  );
  assignment = Number(
    sql(
      "insert into assignments (course_id, target, group_id, due_kind, due_date) values (?, 'group', ?, 'date', '2099-12-31')",
      course,
      team,
    ).lastInsertRowid,
  );
  const person = (n: number, due: string, completed: number | null, left: number | null) =>
    sql(
      "insert into assignment_people (assignment_id, user_id, assigned_at, due_on, completed_at, left_at) select ?, id, ?, ?, ?, ? from users where email = ?",
      assignment,
      now,
      due,
      completed,
      left,
      zpl(n)[0],
    );
  person(1, "2099-12-31", now - 5 * DAY, null);
  person(2, "2020-01-01", null, null);
  person(3, "2099-06-30", null, null);
  person(4, "2099-12-31", null, null);
  person(5, "2099-12-31", null, now);

  const file = (name: string, status: string, rows: number, days: number) =>
    sql(
      "insert into user_imports (status, file_name, content, row_count, created_at, updated_at) values (?, ?, '', ?, ?, ?)",
      status,
      name,
      rows,
      now - days * DAY,
      now - days * DAY,
    );
  file("zpl-a.csv", "done", 5, 3);
  file("zpl-b.csv", "failed", 2, 2);
  file("zpl-c.csv", "preview", 9, 1);
  execTenant(server, 2, "insert into user_imports (status, file_name, content, row_count) values ('done', 'zpl-nordlys.csv', '', 1)");
});
afterAll(async () => {
  await server?.stop();
});

describe("a group's members", () => {
  const at = (search = "") => `${BASE}/groups/${team}${search}`;

  it("pages with the total, by name, and keeps the member buttons", async () => {
    const first = await list(at(), "member");
    expect(first.total).toBe("1–25 of 28");
    expect(first.rows).toEqual(zpl(...Array.from({ length: 25 }, (_, i) => i + 1)));
    expect(first.body).toContain('data-testid="add-member"');
    expect(first.body).toContain('data-testid="remove-member"');
    expect(first.body).toContain('value="make-admin"');
    const second = await list(at("?page=2"), "member");
    expect(second.rows).toEqual(zpl(26, 27, 28));
    expect(second.total).toBe("26–28 of 28");
  });

  it("searches, filters by role and status, and sorts by e-mail and order added", async () => {
    expect((await list(at("?q=person1"), "member")).rows).toEqual(zpl(10, 11, 12, 13, 14, 15, 16, 17, 18, 19));
    expect((await list(at("?role=admin"), "member")).rows).toEqual(zpl(1, 2));
    const members = await list(at("?role=member&per_page=50"), "member");
    expect(members.rows).toHaveLength(26);
    expect(members.rows).not.toContain(zpl(1)[0]);
    expect((await list(at("?status=disabled"), "member")).rows).toEqual(zpl(7));
    expect((await list(at("?status=active"), "member")).total).toBe("1–25 of 27");
    expect((await list(at("?sort=email&dir=desc"), "member")).rows.slice(0, 2)).toEqual(zpl(28, 27));
    // Added from 28 down to 1: the newest first is 01.
    expect((await list(at("?sort=added"), "member")).rows.slice(0, 3)).toEqual(zpl(1, 2, 3));
    expect((await list(at("?sort=added&dir=asc"), "member")).rows.slice(0, 2)).toEqual(zpl(28, 27));
  });

  it("says which parameter it could not use, and a group admin sees only their own group", async () => {
    const bad = await list(at("?sort=nope&role=boss"), "member");
    expect(bad.body).toContain("Not one of the choices: left out.");
    expect(bad.total).toBe("1–25 of 28");
    expect((await get(`/groups/${team}`, lead)).status).toBe(404);
    const own = await list(`/groups/${other}?q=person`, "member", lead);
    expect(own.rows).toEqual(zpl(29, 30));
  });
});

describe("a course's learners", () => {
  const at = (search = "") => `${BASE}/courses/${course}/learners${search}`;

  it("lists everyone with progress, a completion or an assignment, with progress, state and dates", async () => {
    const all = await list(at(), "learner");
    expect(all.total).toBe("1–5 of 5");
    expect(all.rows).toEqual(zpl(1, 2, 3, 4, 29));
    expect(all.body).toMatch(/data-learner="zpl01@acme.test" data-state="completed"/);
    expect(all.body).toMatch(/data-learner="zpl02@acme.test" data-state="in_progress"/);
    expect(all.body).toMatch(/data-learner="zpl04@acme.test" data-state="not_started"/);
    expect(all.body).toContain('data-percent="100"');
    expect(all.body).toContain('data-percent="50"');
    expect(all.body).toContain('data-percent="25"');
    const coursePage = await get(`${BASE}/courses/${course}`);
    expect(coursePage.body).toContain(`href="${at()}"`);
  });

  it("filters by state, group and assignment, and searches", async () => {
    expect((await list(at("?state=completed"), "learner")).rows).toEqual(zpl(1));
    expect((await list(at("?state=in_progress"), "learner")).rows).toEqual(zpl(2, 3, 29));
    expect((await list(at("?state=not_started"), "learner")).rows).toEqual(zpl(4));
    expect((await list(at(`?group=${team}`), "learner")).rows).toEqual(zpl(1, 2, 3, 4));
    expect((await list(at(`?group=${other}`), "learner")).rows).toEqual(zpl(29));
    expect((await list(at("?assigned=yes"), "learner")).rows).toEqual(zpl(1, 2, 3, 4));
    expect((await list(at("?assigned=no"), "learner")).rows).toEqual(zpl(29));
    expect((await list(at("?q=zpl29"), "learner")).rows).toEqual(zpl(29));
  });

  it("sorts by name, progress, last activity and completion", async () => {
    expect((await list(at("?sort=name&dir=desc"), "learner")).rows).toEqual(zpl(29, 4, 3, 2, 1));
    expect((await list(at("?sort=progress"), "learner")).rows).toEqual(zpl(1, 2, 29, 4, 3));
    expect((await list(at("?sort=activity"), "learner")).rows).toEqual(zpl(2, 29, 3, 1, 4));
    expect((await list(at("?sort=completed"), "learner")).rows).toEqual(zpl(1, 29, 4, 3, 2));
  });

  it("shows a bad parameter as an error, and is not a group admin's page", async () => {
    const bad = await list(at("?state=bogus&group=abc"), "learner");
    expect(bad.body).toContain("Not one of the choices: left out.");
    expect(bad.rows).toHaveLength(5);
    // The dashboard is the organization admins': a group admin is refused the page, whoever is on it.
    expect((await get(at(), lead)).status).toBe(403);
    expect((await get(`${BASE}/courses/999999/learners`)).status).toBe(404);
  });
});

describe("an assignment's people", () => {
  const at = (search = "") => `${BASE}/courses/${course}/assignments?assignment=${assignment}${search}`;

  it("filters by state, searches and sorts, keeping the assignment in its form", async () => {
    const all = await list(at(), "person");
    expect(all.rows).toEqual(zpl(1, 2, 3, 4, 5));
    expect(all.total).toBe("1–5 of 5");
    expect(all.body).toContain(`<input type="hidden" name="assignment" value="${assignment}"/>`);
    expect((await list(at("&state=overdue"), "person")).rows).toEqual(zpl(2));
    expect((await list(at("&state=left"), "person")).rows).toEqual(zpl(5));
    expect((await list(at("&q=zpl03"), "person")).rows).toEqual(zpl(3));
    expect((await list(at("&sort=state"), "person")).rows).toEqual(zpl(4, 3, 2, 1, 5));
    expect((await list(at("&sort=due"), "person")).rows).toEqual(zpl(2, 3, 1, 4, 5));
    expect((await list(at("&sort=name&dir=desc"), "person")).rows).toEqual(zpl(5, 4, 3, 2, 1));
    const bad = await list(at("&state=late"), "person");
    expect(bad.body).toContain("Not one of the choices: left out.");
  });
});

describe("the organization's imports", () => {
  const at = (search = "") => `/dashboard/users/import${search}`;

  it("lists them newest first, searched by file name, filtered by state and sorted by rows or name", async () => {
    const mine = await list(at("?q=zpl"), "import");
    expect(mine.rows).toEqual(["zpl-c.csv", "zpl-b.csv", "zpl-a.csv"]);
    expect(mine.total).toBe("1–3 of 3");
    expect(mine.body).toMatch(/<a data-discover="true" href="\/dashboard\/users\/import\/\d+">zpl-c.csv<\/a>/);
    expect((await list(at("?q=zpl&status=failed"), "import")).rows).toEqual(["zpl-b.csv"]);
    expect((await list(at("?q=zpl&sort=rows"), "import")).rows).toEqual(["zpl-c.csv", "zpl-a.csv", "zpl-b.csv"]);
    expect((await list(at("?q=zpl&sort=name"), "import")).rows).toEqual(["zpl-a.csv", "zpl-b.csv", "zpl-c.csv"]);
    expect((await list(at("?q=zpl&sort=created&dir=asc"), "import")).rows).toEqual(["zpl-a.csv", "zpl-b.csv", "zpl-c.csv"]);
    const bad = await list(at("?status=lost"), "import");
    expect(bad.body).toContain("Not one of the choices: left out.");
  });
});
