import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { courseAccess } from "../../app/access/courses";
import { viewerOfMember, type Viewer } from "../../app/access/viewer";
import { assignmentPeopleOf, listAssignments } from "../../app/models/assignment-reports.server";
import { createAssignment, deleteAssignment, type AssignmentWrite } from "../../app/models/assignment.server";
import { dueSoon } from "../../app/models/assignment-learner.server";
import { whoCannotOpen } from "../../app/models/assignment-access.server";
import { createCourse } from "../../app/models/course.server";
import { addMembers, membershipsOf, removeMember, setMemberAdmin } from "../../app/models/group-members.server";
import { addRule } from "../../app/models/group-rules.server";
import { attachCourses } from "../../app/models/group-courses.server";
import { createGroup } from "../../app/models/group.server";
import { completeLesson } from "../../app/models/learning.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { createUser, getUser } from "../../app/models/user.server";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { lessons, type Lesson } from "../../db/tenant";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

/**
 * Compliance assignments (issue 34) against a real tenant file: to a person, a group and a rule group (and
 * someone joining later), leaving, the due states on a simulated clock in the organization's zone
 * (Europe/Copenhagen, the default), completion, a group admin's reach, and a course some targets cannot open.
 */
let dir: string;
let db: TenantDb;
const ids: Record<string, number> = {};
let fire: number;
let secret: number;
let fireLessons: Lesson[];
let safety: number;
let other: number;
let warehouse: number;

const at = (iso: string) => new Date(iso);
function viewer(email: string): Viewer {
  const person = getUser(db, ids[email])!;
  return viewerOfMember({ organization: null, db, language: "en" }, person, membershipsOf(db, person.id));
}
function ok(result: AssignmentWrite) {
  if (!result.ok) throw new Error(`assignment refused: ${result.message}`);
  return result;
}
/** The models' hooks (joining a group, completing a course) read the clock: it is set like the models' `now`. */
function clock(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at(iso));
}
const stateOf = (email: string, courseId: number, now: Date) => dueSoon(db, viewer(email), { now }).find((i) => i.courseId === courseId);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-assignments-"));
  const file = path.join(dir, "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  for (const [email, role] of [
    ["admin@x.test", "admin"],
    ["ann@x.test", "learner"],
    ["bo@x.test", "learner"],
    ["cy@x.test", "learner"],
    ["dan@x.test", "learner"],
    ["gail@x.test", "learner"],
    ["w1@warehouse.test", "learner"],
  ] as const) {
    ids[email] = (await createUser(db, { email, role })).id;
  }
  fire = createCourse(db, { title: "Fire safety", description: "", type: "series", published: true, position: 0 }).id;
  secret = createCourse(db, {
    title: "Vault procedures",
    description: "",
    type: "series",
    published: true,
    position: 1,
    forceGroups: true,
  }).id;
  fireLessons = ["Exits", "Extinguishers"].map((title, i) =>
    db.insert(lessons).values({ courseId: fire, title, kind: "text", position: i }).returning().get(),
  );
  db.insert(lessons).values({ courseId: secret, title: "Codes", kind: "text", position: 0 }).run();
  safety = createGroup(db, { name: "Safety team" }).id;
  other = createGroup(db, { name: "Vault team" }).id;
  addMembers(db, safety, [ids["ann@x.test"], ids["bo@x.test"], ids["gail@x.test"]]);
  setMemberAdmin(db, safety, ids["gail@x.test"], true);
  addMembers(db, other, [ids["ann@x.test"]]);
  attachCourses(db, other, [secret]);
  warehouse = createGroup(db, { name: "Warehouse" }).id;
  const rule = addRule(db, warehouse, { field: "email", operator: "ends_with", value: "@warehouse.test" });
  expect(rule.ok).toBe(true);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("assigning", () => {
  it("assigns a person, due on a fixed local day", () => {
    const r = ok(
      createAssignment(
        db,
        viewer("admin@x.test"),
        { courseId: fire, target: { kind: "person", userId: ids["dan@x.test"] }, due: { kind: "date", date: "2026-06-30" } },
        at("2026-06-01T08:00:00Z"),
      ),
    );
    expect(r.assigned).toBe(1);
    expect(r.cannotOpen).toEqual([]);
    expect(r.assignment.createdBy).toBe(ids["admin@x.test"]);
    expect(stateOf("dan@x.test", fire, at("2026-06-01T09:00:00Z"))).toMatchObject({ dueOn: "2026-06-30", state: "not_started" });
  });

  it("moves through not started, in progress, overdue and done on the organization's clock", () => {
    const dan = ids["dan@x.test"];
    clock("2026-06-10T12:00:00Z");
    completeLesson(db, { userId: dan, lesson: fireLessons[0], now: at("2026-06-10T12:00:00Z") });
    expect(stateOf("dan@x.test", fire, at("2026-06-10T12:00:00Z"))?.state).toBe("in_progress");
    // 23:59 in Copenhagen (CEST) on the due day: still due today, not overdue.
    expect(stateOf("dan@x.test", fire, at("2026-06-30T21:59:00Z"))?.state).toBe("in_progress");
    // 00:01 on 1 July in Copenhagen, though still 30 June in UTC: overdue.
    expect(stateOf("dan@x.test", fire, at("2026-06-30T22:01:00Z"))?.state).toBe("overdue");
    clock("2026-07-03T09:00:00Z");
    completeLesson(db, { userId: dan, lesson: fireLessons[1], now: at("2026-07-03T09:00:00Z") });
    const done = stateOf("dan@x.test", fire, at("2026-07-03T10:00:00Z"));
    expect(done).toMatchObject({ state: "done", completedAt: at("2026-07-03T09:00:00Z") });
    // Done ones stay on the list for the last 14 days, then leave it.
    expect(stateOf("dan@x.test", fire, at("2026-07-16T10:00:00Z"))?.state).toBe("done");
    expect(stateOf("dan@x.test", fire, at("2026-07-20T10:00:00Z"))).toBeUndefined();
  });

  it("assigns a group's members N days from now, and someone joining later N days from their joining", () => {
    const r = ok(
      createAssignment(
        db,
        viewer("admin@x.test"),
        { courseId: fire, target: { kind: "group", groupId: safety }, due: { kind: "days", days: 30 } },
        at("2026-05-01T10:00:00Z"),
      ),
    );
    expect(r.assigned).toBe(3);
    const people = assignmentPeopleOf(db, viewer("admin@x.test"), r.assignment.id, at("2026-05-02T10:00:00Z"))!;
    expect(people.map((p) => [p.email, p.dueOn, p.state])).toEqual([
      ["ann@x.test", "2026-05-31", "not_started"],
      ["bo@x.test", "2026-05-31", "not_started"],
      ["gail@x.test", "2026-05-31", "not_started"],
    ]);
    clock("2026-05-20T10:00:00Z");
    addMembers(db, safety, [ids["cy@x.test"]]);
    const cy = assignmentPeopleOf(db, viewer("admin@x.test"), r.assignment.id, at("2026-05-20T10:00:00Z"))!.find(
      (p) => p.email === "cy@x.test",
    );
    expect(cy).toMatchObject({ dueOn: "2026-06-19", state: "not_started", assignedAt: at("2026-05-20T10:00:00Z") });
    // Dan, not a member, is unaffected: his own assignment stays the only one of this course for him.
    expect(people.some((p) => p.email === "dan@x.test")).toBe(false);
  });

  it("keeps the history of someone who leaves, and takes them off their list", () => {
    const [row] = listAssignments(db, viewer("admin@x.test"), { courseId: fire }).filter((a) => a.assignment.groupId === safety);
    clock("2026-05-25T10:00:00Z");
    expect(removeMember(db, safety, ids["bo@x.test"])).toBe(true);
    const bo = assignmentPeopleOf(db, viewer("admin@x.test"), row.assignment.id, at("2026-06-02T10:00:00Z"))!.find(
      (p) => p.email === "bo@x.test",
    );
    expect(bo).toMatchObject({ dueOn: "2026-05-31", leftAt: at("2026-05-25T10:00:00Z"), state: "overdue" });
    expect(stateOf("bo@x.test", fire, at("2026-06-02T10:00:00Z"))).toBeUndefined();
  });

  it("assigns a rule group, and a person who matches its rules later from the day they join", async () => {
    const r = ok(
      createAssignment(
        db,
        viewer("admin@x.test"),
        { courseId: fire, target: { kind: "group", groupId: warehouse }, due: { kind: "days", days: 14 } },
        at("2026-08-01T10:00:00Z"),
      ),
    );
    expect(r.assigned).toBe(1);
    clock("2026-08-10T10:00:00Z");
    ids["w2@warehouse.test"] = (await createUser(db, { email: "w2@warehouse.test", role: "learner" })).id;
    const people = assignmentPeopleOf(db, viewer("admin@x.test"), r.assignment.id, at("2026-08-10T10:00:00Z"))!;
    expect(people.map((p) => [p.email, p.dueOn])).toEqual([
      ["w1@warehouse.test", "2026-08-15"],
      ["w2@warehouse.test", "2026-08-24"],
    ]);
    expect(stateOf("w2@warehouse.test", fire, at("2026-08-10T10:00:00Z"))).toMatchObject({ dueOn: "2026-08-24", state: "not_started" });
  });

  it("counts a completion made before the assignment as done", () => {
    // Dan completed the course in July; assigning it to him again through a group finds it done.
    const team = createGroup(db, { name: "Night shift" }).id;
    addMembers(db, team, [ids["dan@x.test"]]);
    const r = ok(
      createAssignment(
        db,
        viewer("admin@x.test"),
        { courseId: fire, target: { kind: "group", groupId: team }, due: { kind: "date", date: "2026-09-30" } },
        at("2026-09-01T10:00:00Z"),
      ),
    );
    const [dan] = assignmentPeopleOf(db, viewer("admin@x.test"), r.assignment.id, at("2026-09-01T10:00:00Z"))!;
    expect(dan).toMatchObject({ email: "dan@x.test", state: "done", completedAt: at("2026-07-03T09:00:00Z") });
  });

  it("marks the assignment done when the person completes the course", () => {
    const ann = ids["ann@x.test"];
    clock("2026-05-28T10:00:00Z");
    for (const lesson of fireLessons) completeLesson(db, { userId: ann, lesson, now: at("2026-05-28T10:00:00Z") });
    expect(stateOf("ann@x.test", fire, at("2026-06-05T10:00:00Z"))).toMatchObject({ state: "done", dueOn: "2026-05-31" });
  });

  it("refuses bad input with the translated messages", () => {
    const admin = viewer("admin@x.test");
    const person = { kind: "person" as const, userId: ids["cy@x.test"] };
    expect(createAssignment(db, admin, { courseId: fire, target: person, due: { kind: "date", date: "2026-02-30" } })).toMatchObject({
      ok: false,
      field: "dueDate",
      message: "assignments.errors.dueDate",
    });
    expect(createAssignment(db, admin, { courseId: fire, target: person, due: { kind: "days", days: -1 } })).toMatchObject({
      message: "assignments.errors.dueDays",
    });
    expect(createAssignment(db, admin, { courseId: 9999, target: person, due: { kind: "days", days: 1 } })).toMatchObject({
      message: "assignments.errors.course",
    });
    expect(
      createAssignment(db, admin, { courseId: fire, target: { kind: "group", groupId: 9999 }, due: { kind: "days", days: 1 } }),
    ).toMatchObject({ message: "assignments.errors.group" });
    expect(
      createAssignment(db, admin, { courseId: fire, target: { kind: "group", groupId: safety }, due: { kind: "days", days: 1 } }),
    ).toMatchObject({ message: "assignments.errors.duplicate" });
  });
});

describe("who may assign", () => {
  it("lets a group admin assign only to the groups they administer", () => {
    const gail = viewer("gail@x.test");
    expect(gail.role).toBe("group_admin");
    const due = { kind: "days" as const, days: 7 };
    expect(createAssignment(db, gail, { courseId: secret, target: { kind: "group", groupId: other }, due })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(createAssignment(db, gail, { courseId: secret, target: { kind: "person", userId: ids["bo@x.test"] }, due })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(createAssignment(db, viewer("bo@x.test"), { courseId: secret, target: { kind: "group", groupId: safety }, due })).toMatchObject({
      ok: false,
      status: 403,
    });
    // Their own group, with a course they see: allowed, and they see only its assignments.
    expect(createAssignment(db, gail, { courseId: secret, target: { kind: "group", groupId: safety }, due })).toMatchObject({
      ok: false,
      message: "assignments.errors.course",
    });
    const aid = createCourse(db, { title: "First aid", description: "", type: "series", published: true, position: 2 }).id;
    const mine = ok(createAssignment(db, gail, { courseId: aid, target: { kind: "group", groupId: safety }, due }));
    expect(listAssignments(db, gail).every((a) => a.assignment.groupId === safety)).toBe(true);
    const dan = listAssignments(db, viewer("admin@x.test")).find((a) => a.assignment.userId === ids["dan@x.test"])!;
    expect(deleteAssignment(db, gail, dan.assignment.id)).toMatchObject({ ok: false, status: 403 });
    expect(assignmentPeopleOf(db, gail, dan.assignment.id)).toBeNull();
    expect(deleteAssignment(db, gail, mine.assignment.id)).toEqual({ ok: true });
  });

  it("tells the admin who cannot open the assigned course, and keeps it off those people's lists", () => {
    // "Vault procedures" is kept to the vault team: of the safety team only Ann (also in the vault team) may open it.
    const r = ok(
      createAssignment(
        db,
        viewer("admin@x.test"),
        { courseId: secret, target: { kind: "group", groupId: safety }, due: { kind: "days", days: 10 } },
        at("2026-09-01T10:00:00Z"),
      ),
    );
    expect(r.assigned).toBe(3); // Ann, Gail and Cy (Bo left)
    expect(r.cannotOpen.map((p) => [p.email, p.reason])).toEqual([
      ["cy@x.test", "limited"],
      ["gail@x.test", "limited"],
    ]);
    expect(stateOf("ann@x.test", secret, at("2026-09-02T10:00:00Z"))).toMatchObject({ state: "not_started", access: { allowed: true } });
    expect(stateOf("cy@x.test", secret, at("2026-09-02T10:00:00Z"))).toBeUndefined();
  });
});

describe("who cannot open a course, asked of thousands at once", () => {
  it("names the same people, for the same reasons, as asking courseAccess of each (mayBeRefused leaves out only those it lets in)", async () => {
    const people: number[] = [];
    for (const [email, role] of [
      ["mx-admin@x.test", "admin"],
      ["mx-in@x.test", "learner"],
      ["mx-out@x.test", "learner"],
      ["mx-done@x.test", "learner"],
      ["mx-off@x.test", "learner"],
      ["mx-none@x.test", "learner"],
    ] as const)
      people.push((await createUser(db, { email, firstName: email.slice(3, -7), lastName: "Mx", role })).id);
    const [, inGroup, , done, off, none] = people;
    db.$client.prepare("update users set disabled_at = unixepoch() where id = ?").run(off);
    db.$client.prepare("update users set role = null where id = ?").run(none);
    const group = createGroup(db, { name: "Matrix" }).id;
    addMembers(db, group, [inGroup, done]);
    const course = (title: string, extra: Record<string, unknown> = {}) =>
      createCourse(db, { title, description: "", type: "series", published: true, position: 0, ...extra });
    const before = course("Matrix basics");
    db.$client.prepare("insert into course_completions (user_id, course_id, completed_at) values (?, ?, unixepoch())").run(done, before.id);
    const courses = [
      course("Matrix draft", { published: false }),
      course("Matrix open"),
      course("Matrix forced", { forceGroups: true }),
      course("Matrix blocked", { blockDefaultAccess: true }),
      course("Matrix after", { prerequisiteCourseId: before.id }),
      course("Matrix forced after", { forceGroups: true, prerequisiteCourseId: before.id }),
    ];
    for (const c of courses) if (c.forceGroups || c.blockDefaultAccess) attachCourses(db, group, [c.id]);
    const base = { organization: null, db, language: "en" as const };
    for (const c of courses) {
      const oneByOne = people
        .map((id) => ({ id, access: courseAccess(db, viewerOfMember(base, getUser(db, id)!, membershipsOf(db, id)), c) }))
        .filter((p) => !p.access.allowed)
        .map((p) => [p.id, (p.access as { reason: string }).reason]);
      const atOnce = whoCannotOpen(db, base, c, people).map((p) => [p.userId, p.reason]);
      expect(new Set(atOnce), c.title).toEqual(new Set(oneByOne));
    }
    // The matrix is not empty: each kind of refusal is among them.
    const reasons = new Set(courses.flatMap((c) => whoCannotOpen(db, base, c, people).map((p) => p.reason)));
    expect(reasons).toEqual(new Set(["limited", "login", "prerequisite"]));
  });
});
