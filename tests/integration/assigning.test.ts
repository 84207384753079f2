import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { form, request, type HttpResponse } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Assigning courses (issue 34) through the real built server, as people without JavaScript do: the forms of
 * the assignments screens posted and redirected, their messages rendered by the server (in Danish: Nordlys's
 * language), and the same through /api (each reply held to its declaration by `api()`). To a person, a group
 * and a rule group, someone joining later, removing, bad input refused with nothing changed, a group admin
 * kept to their own groups, a learner refused, and what the learner then sees on the home and course pages.
 */
const ORG = "nordlys.localhost";
const ORG_ID = 2;
const BASE = `/dashboard/organizations/${ORG_ID}`;

let server: InProcessServer;
let admin: string;
let groupAdmin: string;
let learner: string;
let adminToken: string;
let groupAdminToken: string;
let learnerToken: string;
const course = { welcome: 0, firstAid: 0, green: 0, draft: 0 };
const group = { team: 0, other: 0 };

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = tenantDb(server, ORG_ID);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const one = <T>(sql: string, ...params: unknown[]) => query<T>(sql, ...params)[0];
const assignmentCount = () => one<{ n: number }>("select count(*) as n from assignments").n;

function page(path: string, cookie: string) {
  return request(server.port, ORG, path, { headers: { Cookie: cookie } });
}
/** A form posted the way a browser without JavaScript does (same origin). */
function post(path: string, cookie: string, fields: Record<string, string>) {
  const f = form(fields);
  return request(server.port, ORG, path, { ...f, headers: { ...f.headers, Origin: `http://${ORG}`, Cookie: cookie } });
}
/** The page a redirect leads to, with the flash cookie it set. */
async function follow(res: HttpResponse, cookie: string) {
  expect(res.status, res.body.slice(0, 400)).toBe(302);
  const flash = (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith("lectern_flash="));
  return page(String(res.headers.location), flash ? `${cookie}; ${flash}` : cookie);
}
/** The text of an element with this data-testid (tags dropped, spaces folded). */
function section(html: string, testId: string) {
  const start = html.indexOf(`data-testid="${testId}"`);
  if (start < 0) return "";
  const open = html.lastIndexOf("<", start);
  const tag = /^<(\w+)/.exec(html.slice(open))![1];
  let depth = 0;
  const re = new RegExp(`<(/?)${tag}\\b[^>]*>`, "g");
  re.lastIndex = open;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return text(html.slice(open, m.index + m[0].length));
  }
  return text(html.slice(open));
}
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();
const idFrom = (location: string) => Number(/[?&]assignment=(\d+)/.exec(location)?.[1]);
const userId = (email: string) => one<{ id: number }>("select id from users where email = ?", email).id;

beforeAll(async () => {
  server = await startInProcess();
  // This file makes Nordlys's assignments itself: the demo's (scripts/demo/compliance.ts, and its learning paths'
  // from scripts/demo/paths.ts) are removed first.
  execTenant(server, ORG_ID, "delete from assignments");
  execTenant(server, ORG_ID, "delete from path_assignments");
  // A group admin of "Lager" (with the demo learner), and another group with someone else.
  for (const [email, first] of [
    ["gry@nordlys.test", "Gry"],
    ["bo@nordlys.test", "Bo"],
    ["nina@nordlys.test", "Nina"],
    ["nils@nordlys.test", "Nils"],
  ])
    execTenant(server, ORG_ID, "insert into users (email, first_name, last_name, role) values (?, ?, 'Holm', 'learner')", email, first);
  group.team = Number(execTenant(server, ORG_ID, "insert into groups (name) values ('Lager')").lastInsertRowid);
  group.other = Number(execTenant(server, ORG_ID, "insert into groups (name) values ('Kontor')").lastInsertRowid);
  const member = (groupId: number, email: string, isAdmin = 0) =>
    execTenant(
      server,
      ORG_ID,
      "insert into group_members (group_id, user_id, is_admin) select ?, id, ? from users where email = ?",
      groupId,
      isAdmin,
      email,
    );
  member(group.team, "gry@nordlys.test", 1);
  member(group.team, "learner@nordlys.test");
  member(group.other, "bo@nordlys.test");
  const courseId = (title: string) => one<{ id: number }>("select id from courses where title = ?", title).id;
  course.welcome = courseId("Velkommen til Nordlys");
  course.firstAid = courseId("Førstehjælp på arbejdspladsen");
  course.green = courseId("Bæredygtighed i hverdagen");
  course.draft = courseId("Ledelse for nye ledere (kladde)");
  const session = (email: string, kind: "web" | "api") => insertSession(server, { organizationId: ORG_ID }, { email, kind });
  admin = await cookieFor(session("admin@nordlys.test", "web"));
  groupAdmin = await cookieFor(session("gry@nordlys.test", "web"));
  learner = await cookieFor(session("learner@nordlys.test", "web"));
  adminToken = session("admin@nordlys.test", "api");
  groupAdminToken = session("gry@nordlys.test", "api");
  learnerToken = session("learner@nordlys.test", "api");
});
afterAll(() => server?.stop());

describe("the course's assignments screen, without JavaScript", () => {
  const screen = () => `${BASE}/courses/${course.firstAid}/assignments`;

  it("is linked from the course's screen and the group's", async () => {
    expect((await page(`${BASE}/courses/${course.firstAid}`, admin)).body).toContain(`href="${screen()}"`);
    expect((await page(`${BASE}/groups/${group.team}`, admin)).body).toContain(`href="${BASE}/groups/${group.team}/assignments"`);
    expect((await page(`/groups/${group.team}`, groupAdmin)).body).toContain(`href="/groups/${group.team}/assignments"`);
  });

  it("assigns a person found by e-mail, due on a date, and shows them with their state", async () => {
    const res = await post(screen(), admin, {
      intent: "assign",
      target: "person",
      person: "learner@nordlys.test",
      due: "date",
      dueDate: "2030-01-31",
    });
    const shown = await follow(res, admin);
    expect(shown.status).toBe(200);
    expect(section(shown.body, "flash")).toBe("Kurset er tildelt.");
    const people = section(shown.body, "assignment-people");
    expect(people).toContain("learner@nordlys.test");
    expect(people).toContain("Ikke startet");
    expect(people).toContain("31. jan. 2030");
    expect(section(shown.body, "assignment-list")).toContain("Frist 31. jan. 2030");
  });

  it("offers the people a part of a name finds, and assigns the one chosen", async () => {
    const res = await post(screen(), admin, { intent: "assign", target: "person", person: "Holm", due: "days", dueDays: "7" });
    expect(res.status).toBe(400);
    expect(section(res.body, "assign-form")).toContain("Flere personer passer");
    const choices = section(res.body, "person-choices");
    expect(choices).toContain("nina@nordlys.test");
    expect(choices).toContain("nils@nordlys.test");
    // What was typed stays in the form.
    expect(res.body).toMatch(/id="assign-person"[^>]*value="Holm"|value="Holm"[^>]*id="assign-person"/);
    const chosen = await post(screen(), admin, {
      intent: "assign",
      target: "person",
      person: "Holm",
      userId: String(userId("nina@nordlys.test")),
      due: "days",
      dueDays: "7",
    });
    expect(chosen.status).toBe(302);
    const row = one<{ due_days: number }>("select due_days from assignments where id = ?", idFrom(String(chosen.headers.location)));
    expect(row.due_days).toBe(7);
  });

  it("assigns a group N days from now, and someone who joins later from the day they join", async () => {
    const res = await post(screen(), admin, {
      intent: "assign",
      target: "group",
      groupId: String(group.other),
      due: "days",
      dueDays: "10",
    });
    const id = idFrom(String(res.headers.location));
    const shown = await follow(res, admin);
    expect(section(shown.body, "assignment-people")).toContain("bo@nordlys.test");
    expect(section(shown.body, "assignment-list")).toMatch(/Kontor Gruppe 10 dage efter tildelingen 1 0 0/);
    // Nils joins "Kontor" on its page (the organization admin's member form): he is assigned at once.
    await follow(await post(`${BASE}/groups/${group.other}`, admin, { intent: "add-member", email: "nils@nordlys.test" }), admin);
    const people = (await api(server, ORG, "GET", `assignments/${id}/people`, { token: adminToken })).json().payload;
    expect(people.data.map((p: { email: string }) => p.email).sort()).toEqual(["bo@nordlys.test", "nils@nordlys.test"]);
    expect(people.data.every((p: { state: string }) => p.state === "not_started")).toBe(true);
  });

  it("assigns a rule group, and a person who later matches its rules", async () => {
    const created = await api(server, ORG, "POST", "groups", {
      token: adminToken,
      body: { name: "Vikarer", rules: [{ field: "email", operator: "ends_with", value: "@vikar.test" }] },
    });
    expect(created.status).toBe(201);
    const ruleGroup = created.json().payload.id as number;
    const res = await post(screen(), admin, { intent: "assign", target: "group", groupId: String(ruleGroup), due: "days", dueDays: "14" });
    const id = idFrom(String(res.headers.location));
    expect(section((await follow(res, admin)).body, "assignment-list")).toContain("Vikarer Regelgruppe");
    const user = await api(server, ORG, "POST", "users", {
      token: adminToken,
      body: { email: "ida@vikar.test", first_name: "Ida", last_name: "Vikar", role: "learner" },
    });
    expect(user.status, user.body).toBe(201);
    const people = (await api(server, ORG, "GET", `assignments/${id}/people`, { token: adminToken })).json().payload;
    expect(people.data.map((p: { email: string }) => p.email)).toEqual(["ida@vikar.test"]);
  });

  it("refuses bad input with a translated message, keeps what was typed, and changes nothing", async () => {
    const before = assignmentCount();
    const cases: [Record<string, string>, string][] = [
      [{ target: "person", person: "bo@nordlys.test", due: "date", dueDate: "2026-02-30" }, "Angiv fristen som ÅÅÅÅ-MM-DD."],
      [{ target: "person", person: "bo@nordlys.test", due: "days", dueDays: "-3" }, "Angiv et helt antal dage fra 0 til 3650."],
      [{ target: "person", person: "", due: "days", dueDays: "3" }, "Skriv personens e-mailadresse eller navn."],
      [{ target: "person", person: "ingen-her@nowhere.test", due: "days", dueDays: "3" }, "Ingen i organisationen passer til det."],
      [{ target: "group", due: "days", dueDays: "3" }, "Vælg en gruppe."],
      [{ target: "group", groupId: "999999", due: "days", dueDays: "3" }, "Vælg en gruppe i denne organisation."],
      // The person assigned in the first test: the same course again.
      [{ target: "person", person: "learner@nordlys.test", due: "days", dueDays: "3" }, "Dette kursus er allerede tildelt dem."],
    ];
    for (const [fields, message] of cases) {
      const res = await post(screen(), admin, { intent: "assign", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(section(res.body, "assign-form"), JSON.stringify(fields)).toContain(message);
    }
    expect(assignmentCount()).toBe(before);
  });

  it("names the people who cannot open an assigned course, and why", async () => {
    const draft = `${BASE}/courses/${course.draft}/assignments`;
    const shown = await follow(
      await post(draft, admin, { intent: "assign", target: "group", groupId: String(group.team), due: "days", dueDays: "5" }),
      admin,
    );
    expect(section(shown.body, "draft-warning")).toContain("Kurset er en kladde");
    const warning = section(shown.body, "cannot-open");
    expect(warning).toContain("2 tildelte personer kan ikke åbne kurset");
    expect(warning).toContain("learner@nordlys.test");
    expect(warning).toContain("kurset er en kladde");
    expect(section(shown.body, "people-cannot-open")).toContain("gry@nordlys.test");
  });

  it("removes an assignment after a confirmation", async () => {
    const [row] = query<{ id: number }>(
      "select id from assignments where course_id = ? and group_id = ? order by id",
      course.firstAid,
      group.other,
    );
    const confirm = await page(`${screen()}?remove=${row.id}`, admin);
    expect(section(confirm.body, "remove-confirm")).toContain("Fjern tildelingen til Kontor?");
    const after = await follow(await post(screen(), admin, { intent: "remove", assignmentId: String(row.id) }), admin);
    expect(section(after.body, "flash")).toBe("Tildelingen er fjernet.");
    expect(section(after.body, "assignment-list")).not.toContain("Kontor");
    expect(one("select user_id from assignment_people where assignment_id = ?", row.id)).toBeUndefined();
    expect((await api(server, ORG, "GET", `assignments/${row.id}`, { token: adminToken })).status).toBe(404);
  });
});

describe("a group admin", () => {
  it("assigns courses to their own group only, from its page", async () => {
    const own = `/groups/${group.team}/assignments`;
    const screen = await page(own, groupAdmin);
    expect(screen.status).toBe(200);
    // The draft they do not see listed is neither offered nor shown, though the organization admin assigned it to "Lager".
    expect(screen.body).not.toContain("kladde");
    const shown = await follow(
      await post(own, groupAdmin, { intent: "assign", courseId: String(course.green), due: "date", dueDate: "2030-06-30" }),
      groupAdmin,
    );
    expect(section(shown.body, "assignment-list")).toContain("Bæredygtighed i hverdagen");
    expect(section(shown.body, "assignment-people")).toContain("learner@nordlys.test");
    const refused = await post(own, groupAdmin, { intent: "assign", courseId: String(course.draft), due: "days", dueDays: "1" });
    expect(refused.status).toBe(400);
    expect(section(refused.body, "assign-form")).toContain("Vælg et kursus i denne organisation.");

    expect((await page(`/groups/${group.other}/assignments`, groupAdmin)).status).toBe(404);
    expect(
      (
        await post(`/groups/${group.other}/assignments`, groupAdmin, {
          intent: "assign",
          courseId: String(course.green),
          due: "days",
          dueDays: "1",
        })
      ).status,
    ).toBe(404);
    expect((await page(`${BASE}/courses/${course.green}/assignments`, groupAdmin)).status).toBe(403);
  });

  it("sees and changes only their groups' assignments through /api, and a learner nothing", async () => {
    const mine = (await api(server, ORG, "GET", "assignments", { token: groupAdminToken })).json().payload;
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.data.every((a: { group: { id: number } | null }) => a.group?.id === group.team)).toBe(true);
    const all = (await api(server, ORG, "GET", `assignments?course_id=${course.firstAid}`, { token: adminToken })).json().payload;
    const personal = all.data.find((a: { target: string }) => a.target === "person");
    expect(personal.user.email).toBe("learner@nordlys.test");
    expect((await api(server, ORG, "GET", `assignments/${personal.id}`, { token: groupAdminToken })).status).toBe(404);
    expect((await api(server, ORG, "GET", `assignments/${personal.id}/people`, { token: groupAdminToken })).status).toBe(404);
    expect((await api(server, ORG, "DELETE", `assignments/${personal.id}`, { token: groupAdminToken })).status).toBe(404);
    const other = await api(server, ORG, "POST", "assignments", {
      token: groupAdminToken,
      body: { course_id: course.green, group_id: group.other, due_days: 5 },
    });
    expect(other.status).toBe(403);
    const person = await api(server, ORG, "POST", "assignments", {
      token: groupAdminToken,
      body: { course_id: course.green, user_id: userId("bo@nordlys.test"), due_days: 5 },
    });
    expect(person.status).toBe(403);
    const made = await api(server, ORG, "POST", "assignments", {
      token: groupAdminToken,
      body: { course_id: course.welcome, group_id: group.team, due_date: "2030-03-01" },
    });
    expect(made.status, made.body).toBe(201);
    expect(made.json().payload).toMatchObject({ assigned: 2, cannot_open: [], assignment: { due: { kind: "date", date: "2030-03-01" } } });
    expect((await api(server, ORG, "DELETE", `assignments/${made.json().payload.assignment.id}`, { token: groupAdminToken })).status).toBe(
      200,
    );

    for (const [method, path] of [
      ["GET", "assignments"],
      ["POST", "assignments"],
      ["GET", `assignments/${personal.id}/people`],
      ["DELETE", `assignments/${personal.id}`],
    ])
      expect(
        (await api(server, ORG, method, path, { token: learnerToken, body: method === "POST" ? { course_id: course.green } : undefined }))
          .status,
      ).toBe(403);
  });
});

describe("/api, for an organization admin", () => {
  it("creates, lists, reads the people of and deletes an assignment, with translated refusals", async () => {
    const bad = await api(server, ORG, "POST", "assignments", {
      token: adminToken,
      body: { course_id: course.green, group_id: group.other, due_date: "2030-02-30" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json().payload.fields).toEqual({ due_date: ["Angiv fristen som ÅÅÅÅ-MM-DD."] });
    const both = await api(server, ORG, "POST", "assignments", {
      token: adminToken,
      body: { course_id: course.green, group_id: group.other, user_id: userId("bo@nordlys.test"), due_days: 3 },
    });
    expect(both.status).toBe(422);
    expect(Object.keys(both.json().payload.fields)).toEqual(["group_id"]);

    const made = await api(server, ORG, "POST", "assignments", {
      token: adminToken,
      body: { course_id: course.draft, user_id: userId("bo@nordlys.test"), due_days: 3 },
    });
    expect(made.status).toBe(201);
    const payload = made.json().payload;
    expect(payload).toMatchObject({ assigned: 1, cannot_open: [{ email: "bo@nordlys.test", reason: "limited" }] });
    const listed = (
      await api(server, ORG, "GET", `assignments?course_id=${course.draft}&user_id=${userId("bo@nordlys.test")}`, { token: adminToken })
    ).json().payload;
    expect(listed.data.map((a: { id: number }) => a.id)).toEqual([payload.assignment.id]);
    const people = (
      await api(server, ORG, "GET", `assignments/${payload.assignment.id}/people?state=not_started`, { token: adminToken })
    ).json().payload;
    expect(people.data).toMatchObject([{ email: "bo@nordlys.test", state: "not_started", cannot_open: "limited" }]);
    const overdue = (
      await api(server, ORG, "GET", `assignments/${payload.assignment.id}/people?state=overdue`, { token: adminToken })
    ).json().payload;
    expect(overdue.meta.total).toBe(0);
    expect((await api(server, ORG, "DELETE", `assignments/${payload.assignment.id}`, { token: adminToken })).json().payload).toEqual({
      id: payload.assignment.id,
      deleted: true,
    });
  });
});

describe("the learner", () => {
  it("sees their assigned courses first on the home page with date and state, and the notice on the course page", async () => {
    // The demo learner was assigned "Førstehjælp" in person (due 31 Jan 2030) and, through "Lager", "Bæredygtighed" (30 Jun 2030).
    const home = await page("/", learner);
    const due = section(home.body, "due-soon");
    expect(due).toMatch(
      /^Snart frist Førstehjælp på arbejdspladsen Ikke startet Frist 31\. jan\. 2030 Bæredygtighed i hverdagen .+ Frist 30\. jun\. 2030$/,
    );
    // Before everything else on the page.
    expect(home.body.indexOf('data-testid="due-soon"')).toBeLessThan(home.body.indexOf('data-testid="featured"'));
    // The draft assigned to "Lager" is not theirs to see.
    expect(due).not.toContain("kladde");
    const coursePage = await page(`/courses/${course.firstAid}`, learner);
    expect(section(coursePage.body, "assignment-notice")).toBe("Tildelt dig — frist 31. jan. 2030 Ikke startet");
    expect(section((await page(`/courses/${course.welcome}`, learner)).body, "assignment-notice")).toBe("");
    // Someone with no assignments has no row at all.
    const other = await cookieFor(
      insertSession(server, { organizationId: ORG_ID }, { email: "magnus.petersen.1@nordlys.test", kind: "web" }),
    );
    expect((await page("/", other)).body).not.toContain('data-testid="due-soon"');
  });
});
