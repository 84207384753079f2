import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Learning paths assigned (issue 49) against the real server, as the editor's forms post them without JavaScript:
 * to a group with a due day (its members enrolled as assigned, told which of them cannot open a course of the path),
 * someone joining the group later assigned too and someone leaving kept as history, each person's due state (not
 * started, in progress, overdue, done when the path is), the report of each step per person, the learner's page
 * saying when it is due; a learner refused, the assignment taken back.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
let admin: string;
let adminToken: string;
let pathId: number;
let groupId: number;
const courses: number[] = [];
const members = ["zoe.lee.5@acme.test", "tom.young.6@acme.test", "omar.clark.4@acme.test"];
const latecomer = "liam.lee.7@acme.test";
let editor: string;

function read<T>(sql: string, ...params: unknown[]): T[] {
  const db = tenantDb(server, 1);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const idOf = (email: string) => read<{ id: number }>("select id from users where email = ?", email)[0].id;
const rowsOf = (assignment: number) =>
  read<{ email: string; due_on: string; completed_at: number | null; left_at: number | null }>(
    `select u.email, p.due_on, p.completed_at, p.left_at from path_assignment_people p join users u on u.id = p.user_id
     where p.assignment_id = ? order by u.email`,
    assignment,
  );

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  adminToken = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  for (const title of ["Assigned basics", "Assigned secrets"]) {
    const id = (await api(server, ORG, "POST", "courses", { token: adminToken, body: { title, type: "series", published: true } })).json()
      .payload.id;
    await api(server, ORG, "POST", "lessons", { token: adminToken, body: { course_id: id, title: `${title} lesson`, kind: "text" } });
    courses.push(id);
  }
  // The second course is open to one group the members are not in: the path does not open it for them.
  const closed = (await api(server, ORG, "POST", "groups", { token: adminToken, body: { name: "Secret keepers" } })).json().payload.id;
  execTenant(server, 1, "update courses set block_default_access = 1 where id = ?", courses[1]);
  execTenant(server, 1, "insert into group_courses (group_id, course_id) values (?, ?)", closed, courses[1]);
  groupId = (await api(server, ORG, "POST", "groups", { token: adminToken, body: { name: "Path cohort" } })).json().payload.id;
  await api(server, ORG, "POST", `groups/${groupId}/attach`, { token: adminToken, body: { user_ids: members.map(idOf) } });
  const made = await api(server, ORG, "POST", "learning-paths", {
    token: adminToken,
    body: { title: "Assigned path", published: true, self_enrol: false },
  });
  pathId = made.json().payload.id;
  await api(server, ORG, "PUT", `learning-paths/${pathId}/steps`, {
    token: adminToken,
    body: { steps: [{ course_ids: [courses[0]] }, { course_ids: [courses[1]] }] },
  });
  editor = `/dashboard/organizations/1/paths/${pathId}`;
});
afterAll(async () => {
  await server?.stop();
});

describe("a learning path assigned", () => {
  let assignment: number;

  it("to a group with a due day enrols its members as assigned, and names who cannot open a course of it", async () => {
    const refused = await postForm(server, ORG, editor, { intent: "assign", target: "group", due: "date", dueDate: "not-a-day" }, admin);
    expect(refused.status).toBe(400);
    expect(read("select id from path_assignments where path_id = ?", pathId)).toEqual([]);
    const res = await postForm(
      server,
      ORG,
      editor,
      { intent: "assign", target: "group", groupId: String(groupId), due: "date", dueDate: "2020-01-31" },
      admin,
    );
    expect(res.status).toBe(302);
    assignment = Number(/assignment=(\d+)/.exec(res.headers.location ?? "")?.[1]);
    expect(rowsOf(assignment).map((r) => [r.email, r.due_on])).toEqual(members.toSorted().map((m) => [m, "2020-01-31"]));
    expect(read("select count(*) as n from path_enrolments where path_id = ? and source = 'assigned'", pathId)).toEqual([{ n: 3 }]);
    // The same target again is refused; the page lists the people and who cannot open the second course, and why.
    expect(
      (
        await postForm(
          server,
          ORG,
          editor,
          { intent: "assign", target: "group", groupId: String(groupId), due: "days", dueDays: "5" },
          admin,
        )
      ).status,
    ).toBe(400);
    const page = await request(server.port, ORG, `${editor}?assignment=${assignment}`, { headers: { Cookie: admin } });
    expect(page.body).toContain('data-testid="path-cannot-open"');
    expect(page.body).toContain("3 people assigned cannot open Assigned secrets, a course of this path:");
    expect(page.body).toContain("Limited access to the course");
    const report = await request(server.port, ORG, `${editor}/report?assignment=${assignment}`, { headers: { Cookie: admin } });
    for (const m of members) expect(report.body).toContain(`data-person="${m}"`);
    // The same people as CSV, each step's state in words.
    const csv = await request(server.port, ORG, `${editor}/export?assignment=${assignment}`, { headers: { Cookie: admin } });
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body.split("\n")[0]).toContain("Step 2");
    expect(csv.body).toContain(`${members[0]},2020-01-31,Overdue,open,locked`);
  });

  it("follows the group: someone joining is assigned, someone leaving is kept as history", async () => {
    await api(server, ORG, "POST", `groups/${groupId}/attach`, { token: adminToken, body: { user_ids: [idOf(latecomer)] } });
    expect(rowsOf(assignment).find((r) => r.email === latecomer)).toMatchObject({ due_on: "2020-01-31", left_at: null });
    // Removed on the group's screen, as an admin does.
    const removed = await postForm(
      server,
      ORG,
      `/dashboard/organizations/1/groups/${groupId}`,
      { intent: "remove-member", userId: String(idOf(members[2])) },
      admin,
    );
    expect(removed.status).toBeLessThan(400);
    expect(rowsOf(assignment).find((r) => r.email === members[2])?.left_at).not.toBeNull();
  });

  it("gives each person a due state and each step's, done when the path is, and tells the learner when it is due", async () => {
    const learner = members[0];
    // Overdue (the day has passed) with nothing done; then the first course done: still overdue, the step done.
    const before = await request(server.port, ORG, `${editor}/report?assignment=${assignment}`, { headers: { Cookie: admin } });
    expect(before.body).toMatch(new RegExp(`data-person="${learner.replace(".", "\\.")}".*?data-state="overdue"`, "s"));
    const cookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: learner, kind: "web" }));
    const mine = await request(server.port, ORG, `/paths/${pathId}`, { headers: { Cookie: cookie } });
    expect(mine.body).toContain('data-testid="path-due"');
    expect(mine.body).toContain("Assigned to you, due ");
    // And first in "Due soon" on their home, overdue, linking to the path.
    const home = await request(server.port, ORG, "/", { headers: { Cookie: cookie } });
    expect(home.body).toMatch(/data-path="Assigned path" data-state="overdue"/);
    expect(home.body).toContain(`href="/paths/${pathId}"`);
    // Completing both courses finishes the path, and the assignment's row with it.
    const token = insertSession(server, { organizationId: 1 }, { email: learner, kind: "api" });
    // Let into the group the second course is open to, so they can finish.
    const keepers = read<{ id: number }>("select id from groups where name = 'Secret keepers'")[0].id;
    await api(server, ORG, "POST", `groups/${keepers}/attach`, { token: adminToken, body: { user_ids: [idOf(learner)] } });
    for (const course of courses) {
      const lesson = read<{ id: number }>("select id from lessons where course_id = ?", course)[0].id;
      const done = await api(server, ORG, "POST", "lesson-progresses", {
        token,
        body: { lesson_id: lesson, position_seconds: 0, watched_seconds: 0, completed: true },
      });
      expect(done.status).toBe(200);
    }
    expect(rowsOf(assignment).find((r) => r.email === learner)?.completed_at).not.toBeNull();
    const after = await request(server.port, ORG, `${editor}/report?assignment=${assignment}`, { headers: { Cookie: admin } });
    expect(after.body).toMatch(new RegExp(`data-person="${learner.replace(".", "\\.")}".*?data-state="done"`, "s"));
  });

  it("counts in the compliance report: per path, the people behind each number, the CSV", async () => {
    // Zoe is done; Tom and Liam (who joined) are overdue with nothing begun; Omar left the group and no longer counts.
    const report = await api(server, ORG, "GET", "compliance", { token: adminToken });
    expect(report.status).toBe(200);
    const row = report.json().payload.paths.find((p: { path_id: number }) => p.path_id === pathId);
    expect(row).toEqual({
      path_id: pathId,
      title: "Assigned path",
      assigned: 3,
      done: 1,
      in_progress: 0,
      not_started: 0,
      overdue: 2,
      expiring: 0,
    });
    const overdue = await api(server, ORG, "GET", `compliance/people?path_id=${pathId}&state=overdue`, { token: adminToken });
    const people = overdue.json().payload.data as { email: string; path_title: string; course_id: number | null; state: string }[];
    expect(people.map((p) => p.email).toSorted()).toEqual([latecomer, members[1]].toSorted());
    expect(people[0]).toMatchObject({ path_title: "Assigned path", course_id: null, state: "overdue" });
    const both = await api(server, ORG, "GET", `compliance/people?path_id=${pathId}&course_id=${courses[0]}`, { token: adminToken });
    expect(both.status).toBe(422);
    expect(both.json().payload.fields.path_id).toEqual(["Choose a course or a learning path, not both."]);
    // The report's page has the table, each count a link to its people; the people list and its CSV.
    const page = await request(server.port, ORG, "/dashboard/compliance", { headers: { Cookie: admin } });
    expect(page.body).toContain('data-testid="compliance-paths"');
    expect(page.body).toContain(`href="/dashboard/compliance/people?path_id=${pathId}&amp;state=overdue"`);
    const list = await request(server.port, ORG, `/dashboard/compliance/people?path_id=${pathId}&state=done`, {
      headers: { Cookie: admin },
    });
    expect(list.body).toContain("1 person assigned the learning path matches the filters.");
    expect(list.body).toMatch(/<th scope="col">Learning path<\/th>.*<td>Assigned path<\/td>/s);
    const csv = await request(server.port, ORG, `/dashboard/compliance/export?path_id=${pathId}&state=overdue`, {
      headers: { Cookie: admin },
    });
    expect(csv.body.split("\r\n")[0]).toMatch(/,path_id,path$/);
    expect(csv.body).toContain(`,overdue,2020-01-31,false,,,${pathId},Assigned path`);
    // Every path's numbers (the demo's too, with people in progress and not started) add up, and each is the
    // total of its people list.
    for (const p of report.json().payload.paths as Record<string, number>[]) {
      expect(p.done + p.in_progress + p.not_started + p.overdue).toBe(p.assigned);
      for (const state of ["assigned", "done", "in_progress", "not_started", "overdue", "expiring"]) {
        const listed = await api(server, ORG, "GET", `compliance/people?path_id=${p.path_id}&state=${state}&per_page=1`, {
          token: adminToken,
        });
        expect(listed.json().payload.meta.total, `${p.path_id} ${state}`).toBe(p[state]);
      }
    }
    expect(report.json().payload.paths.some((p: Record<string, number>) => p.in_progress > 0 && p.not_started > 0)).toBe(true);
    // Narrowed to a course, the report has no paths.
    expect((await api(server, ORG, "GET", `compliance?course_id=${courses[0]}`, { token: adminToken })).json().payload.paths).toEqual([]);
  });

  it("is refused to a learner (the path editor is the organization admins'), and taken back by an admin", async () => {
    const groupAdmin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    expect(
      (
        await postForm(
          server,
          ORG,
          editor,
          { intent: "assign", target: "person", person: members[0], due: "days", dueDays: "3" },
          groupAdmin,
        )
      ).status,
    ).toBe(403);
    const removed = await postForm(server, ORG, editor, { intent: "unassign", assignmentId: String(assignment) }, admin);
    expect(removed.status).toBe(302);
    expect(read("select id from path_assignments where id = ?", assignment)).toEqual([]);
    // Their enrolments stay, with what they did.
    expect(read("select count(*) as n from path_enrolments where path_id = ?", pathId)).toEqual([{ n: 4 }]);
  });

  it("through /api: made, listed, its people with each step's state, and taken back; a learner is refused", async () => {
    const person = idOf(members[1]);
    const learner = insertSession(server, { organizationId: 1 }, { email: members[1], kind: "api" });
    expect(
      (await api(server, ORG, "POST", `learning-paths/${pathId}/assignments`, { token: learner, body: { user_id: person, due_days: 3 } }))
        .status,
    ).toBe(403);
    expect(
      (
        await api(server, ORG, "POST", `learning-paths/${pathId}/assignments`, {
          token: adminToken,
          body: { user_id: person, group_id: groupId, due_days: 3 },
        })
      ).status,
    ).toBe(422);
    const made = await api(server, ORG, "POST", `learning-paths/${pathId}/assignments`, {
      token: adminToken,
      body: { user_id: person, due_days: 3 },
    });
    expect(made.status).toBe(201);
    expect(made.json().payload).toMatchObject({ assigned: 1, cannot_open: [{ course_id: courses[1], user_ids: [person] }] });
    const id = made.json().payload.assignment_id;
    const listed = (await api(server, ORG, "GET", `learning-paths/${pathId}/assignments`, { token: adminToken })).json().payload.data;
    expect(listed).toEqual([
      expect.objectContaining({ id, target: "person", email: members[1], due: { kind: "days", date: null, days: 3 } }),
    ]);
    const people = (await api(server, ORG, "GET", `learning-path-assignments/${id}/people`, { token: adminToken })).json().payload;
    expect(people.data).toEqual([expect.objectContaining({ email: members[1], state: "not_started", steps: ["open", "locked"] })]);
    expect((await api(server, ORG, "DELETE", `learning-path-assignments/${id}`, { token: adminToken })).status).toBe(200);
    expect((await api(server, ORG, "GET", `learning-path-assignments/${id}/people`, { token: adminToken })).status).toBe(404);
  });
});
