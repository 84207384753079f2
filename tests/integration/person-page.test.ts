import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * A person's page (issue 50; app/models/person-page.server.ts) against the real server, on a hand-made person:
 * Pia Page, in the group "Page team" by hand, one lesson of a three-lesson course done, that course assigned to her
 * due in 2020 (overdue), signed in on one device, and one audit entry about her. The page and
 * `GET /api/users/{id}/overview` show exactly that; a group admin reads only their groups' people; a device is
 * signed out from the page.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
let admin: string;
let pia: number;
let other: number;
let course: { id: number; title: string };
let team: number;

function value<T = number>(sql: string, ...params: unknown[]): T {
  const db = tenantDb(server, 1);
  try {
    return Object.values(db.prepare(sql).get(...params) as object)[0] as T;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  execTenant(server, 1, "insert into users (email, first_name, last_name, role) values ('pia@acme.test', 'Pia', 'Page', 'learner')");
  execTenant(server, 1, "insert into users (email, first_name, last_name, role) values ('otto@acme.test', 'Otto', 'Outside', 'learner')");
  execTenant(server, 1, "insert into users (email, first_name, last_name, role) values ('gus@acme.test', 'Gus', 'Groupadmin', 'learner')");
  pia = value("select id from users where email = 'pia@acme.test'");
  other = value("select id from users where email = 'otto@acme.test'");
  execTenant(server, 1, "insert into groups (name) values ('Page team')");
  team = value("select id from groups where name = 'Page team'");
  execTenant(server, 1, "insert into group_members (group_id, user_id, source) values (?, ?, 'manual')", team, pia);
  // A group Gus, the group admin, does not manage: the organization's admins see it on her page, he does not.
  execTenant(server, 1, "insert into groups (name) values ('Other team')");
  execTenant(
    server,
    1,
    "insert into group_members (group_id, user_id, source) select id, ?, 'manual' from groups where name = 'Other team'",
    pia,
  );
  execTenant(
    server,
    1,
    "insert into group_members (group_id, user_id, source, is_admin) select ?, id, 'manual', 1 from users where email = 'gus@acme.test'",
    team,
  );
  execTenant(server, 1, "insert into courses (title, description, type, published, position) values ('Page course', '', 'series', 1, 99)");
  course = { id: value("select id from courses where title = 'Page course'"), title: "Page course" };
  for (let n = 1; n <= 3; n++)
    execTenant(
      server,
      1,
      "insert into lessons (course_id, title, kind, position) values (?, ?, 'text', ?)",
      course.id,
      `Page lesson ${n}`,
      n,
    );
  const first = value("select id from lessons where course_id = ? order by position limit 1", course.id);
  execTenant(
    server,
    1,
    "insert into lesson_progress (user_id, lesson_id, course_id, completed_at, created_at, updated_at) values (?, ?, ?, 1790000000, 1790000000, 1790000000)",
    pia,
    first,
    course.id,
  );
  const assignment = execTenant(
    server,
    1,
    "insert into assignments (course_id, target, user_id, due_kind, due_date, created_at, updated_at) values (?, 'person', ?, 'date', '2020-01-31', 1, 1)",
    course.id,
    pia,
  ).lastInsertRowid;
  execTenant(
    server,
    1,
    "insert into assignment_people (assignment_id, user_id, assigned_at, due_on) values (?, ?, 1, '2020-01-31')",
    assignment,
    pia,
  );
  insertSession(server, { organizationId: 1 }, { email: "pia@acme.test", kind: "web" });
  execTenant(
    server,
    1,
    `insert into admin_audit (at, action, actor_id, actor_email, actor_role, via, subject_id, subject_email, group_id, group_name)
     values (1790000000, 'member_added', 1, 'admin@acme.test', 'admin', 'page', ?, 'pia@acme.test', ?, 'Page team')`,
    pia,
    team,
  );
});
afterAll(async () => {
  await server?.stop();
});

describe("a person's page", () => {
  it("shows the person whole, and the people list leads to it", async () => {
    const list = await request(server.port, ORG, "/dashboard/users?q=pia%40acme", { headers: { Cookie: admin } });
    expect(list.body).toContain(`href="/dashboard/users/${pia}/overview"`);
    const res = await request(server.port, ORG, `/dashboard/users/${pia}/overview`, { headers: { Cookie: admin } });
    expect(res.status).toBe(200);
    const section = (testid: string) => res.body.split(`data-testid="${testid}"`)[1]?.split("</section>")[0] ?? "";
    expect(res.body).toContain("<h1>Pia Page</h1>");
    expect(section("person-groups")).toContain("Page team");
    expect(section("person-courses")).toMatch(/Page course<\/td><td>1 \/ 3<\/td>/);
    expect(section("person-assignments")).toContain('data-state="overdue"');
    expect(section("person-devices")).toContain("Sign out");
    expect(section("person-audit")).toContain("Added to Page team");
    expect(section("person-quizzes")).toContain("Nothing yet.");
  });

  it("signs one device out, and refuses a bad form with a 400 that changes nothing", async () => {
    const device = value("select id from sessions where user_id = ?", pia);
    const post = (body: string) =>
      request(server.port, ORG, `/dashboard/users/${pia}/overview`, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${ORG}`, Cookie: admin },
      });
    expect((await post("intent=revoke-device&device=abc")).status).toBe(400);
    expect(value("select count(*) from sessions where user_id = ?", pia)).toBe(1);
    const done = await post(`intent=revoke-device&device=${device}`);
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe(`/dashboard/users/${pia}/overview`);
    expect(value("select count(*) from sessions where user_id = ?", pia)).toBe(0);
  });

  it("is not found for nobody, and a learner may not open it", async () => {
    expect((await request(server.port, ORG, "/dashboard/users/999999/overview", { headers: { Cookie: admin } })).status).toBe(404);
    expect((await request(server.port, ORG, "/dashboard/users/x1/overview", { headers: { Cookie: admin } })).status).toBe(404);
    const learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    expect((await request(server.port, ORG, `/dashboard/users/${pia}/overview`, { headers: { Cookie: learner } })).status).toBe(403);
  });
});

describe("GET /api/users/{id}/overview", () => {
  it("gives an organization admin the same person, and a group admin only their groups' people", async () => {
    const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const res = await api(server, ORG, "GET", `users/${pia}/overview`, { token });
    expect(res.status).toBe(200);
    const person = res.json().payload;
    expect(person.profile).toMatchObject({ email: "pia@acme.test", first_name: "Pia", role: "learner", disabled: false });
    expect(person.groups.map((g: { name: string }) => g.name)).toEqual(["Other team", "Page team"]);
    expect(person.courses).toEqual([
      { id: course.id, title: "Page course", done: 1, lessons: 3, last: "2026-09-21T14:13:20.000Z", completed_at: null },
    ]);
    expect(person.assignments).toEqual([{ kind: "course", title: "Page course", due_on: "2020-01-31", group: null, state: "overdue" }]);
    expect(person.audit).toHaveLength(1);
    const groupAdmin = insertSession(server, { organizationId: 1 }, { email: "gus@acme.test", kind: "api" });
    const seen = await api(server, ORG, "GET", `users/${pia}/overview`, { token: groupAdmin });
    expect(seen.status).toBe(200);
    // Of her groups, his; and not the audit, which is the organization admins'.
    expect(seen.json().payload.groups).toEqual([{ id: team, name: "Page team", admin: false, source: "manual" }]);
    expect(seen.json().payload.audit).toEqual([]);
    expect((await api(server, ORG, "GET", `users/${other}/overview`, { token: groupAdmin })).status).toBe(404);
    const learner = insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "api" });
    expect((await api(server, ORG, "GET", `users/${pia}/overview`, { token: learner })).status).toBe(403);
  });
});
