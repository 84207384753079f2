import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { viewerOfMember, type Viewer } from "../../app/access/viewer";
import { createAssignment, deleteAssignment, type AssignmentWrite } from "../../app/models/assignment.server";
import {
  allCompliancePeople,
  complianceOptions,
  compliancePeople,
  complianceReport,
  complianceScope,
  rebuildCompliance,
  type ComplianceCounts,
  type ComplianceScope,
} from "../../app/models/compliance.server";
import { createCourse } from "../../app/models/course.server";
import { addMembers, membershipsOf, removeMember, setMemberAdmin } from "../../app/models/group-members.server";
import { createGroup, deleteGroup } from "../../app/models/group.server";
import { completeLesson } from "../../app/models/learning.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { createUser, getUser } from "../../app/models/user.server";
import { COMPLIANCE_COLUMNS, type ComplianceQuery } from "../../app/utils/compliance-query";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { lessons, type Lesson } from "../../db/tenant";

subscribeLearningEvents();

/**
 * The compliance report's numbers (issue 34) against a hand-counted fixture on a real tenant file, on a
 * simulated clock in the organization's zone (Europe/Copenhagen, the default): who counts (leaving a group,
 * two assignments of one course, joining later), each state as days pass, per course and per group, the
 * people behind a number with every filter, a group admin's reach, and the counters kept by the triggers
 * against a recount from scratch after every kind of write.
 */
let dir: string;
let db: TenantDb;
const ids: Record<string, number> = {};
let fire: number;
let data: number;
let fireLessons: Lesson[];
let dataLesson: Lesson;
let safety: number;
let office: number;

const at = (iso: string) => new Date(iso);
function viewer(name: string): Viewer {
  const person = getUser(db, ids[name])!;
  return viewerOfMember({ organization: null, db, language: "en" }, person, membershipsOf(db, person.id));
}
const org: ComplianceScope = { kind: "organization" };
function ok(result: AssignmentWrite) {
  if (!result.ok) throw new Error(`assignment refused: ${result.message}`);
  return result.assignment;
}
/** The models' hooks (joining, leaving, completing) read the clock: it is set like the models' `now`. */
function clock(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at(iso));
}
const counts = (assigned: number, done: number, in_progress: number, not_started: number, overdue: number, expiring = 0) => ({
  assigned,
  done,
  in_progress,
  not_started,
  overdue,
  expiring,
});
const pick = (row: ComplianceCounts | undefined) => row && Object.fromEntries(COMPLIANCE_COLUMNS.map((c) => [c, row[c]]));
const query = (q: Partial<ComplianceQuery> = {}): ComplianceQuery => ({ state: "assigned", page: 1, perPage: 50, ...q });
const who = (people: { email: string; course_title: string | null; state: string }[]) =>
  people.map((p) => `${p.email.split("@")[0]} ${p.course_title} ${p.state}`);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-compliance-"));
  const file = path.join(dir, "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  for (const [name, role] of [
    ["admin", "admin"],
    ["ann", "learner"],
    ["bo", "learner"],
    ["cy", "learner"],
    ["dan", "learner"],
    ["eve", "learner"],
    ["gail", "learner"],
    ["hal", "learner"],
  ] as const) {
    ids[name] = (
      await createUser(db, { email: `${name}@x.test`, role, firstName: name[0].toUpperCase() + name.slice(1), lastName: "Test" })
    ).id;
  }
  fire = createCourse(db, { title: "Fire safety", description: "", type: "series", published: true, position: 0 }).id;
  data = createCourse(db, { title: "Data protection", description: "", type: "series", published: true, position: 1 }).id;
  fireLessons = ["Exits", "Extinguishers"].map((title, i) =>
    db.insert(lessons).values({ courseId: fire, title, kind: "text", position: i }).returning().get(),
  );
  dataLesson = db.insert(lessons).values({ courseId: data, title: "GDPR", kind: "text", position: 0 }).returning().get();
  safety = createGroup(db, { name: "Safety team" }).id;
  office = createGroup(db, { name: "Office" }).id;
  addMembers(db, safety, [ids.ann, ids.bo, ids.cy, ids.gail]);
  setMemberAdmin(db, safety, ids.gail, true);
  addMembers(db, office, [ids.dan, ids.eve, ids.ann]);

  // 1 June: Fire safety for the safety team by 30 June and for Dan by 15 June; Data protection for the
  // office within 10 days (11 June) and for Ann by 20 June as well.
  const june1 = at("2026-06-01T08:00:00Z");
  const admin = viewer("admin");
  ok(
    createAssignment(
      db,
      admin,
      { courseId: fire, target: { kind: "group", groupId: safety }, due: { kind: "date", date: "2026-06-30" } },
      june1,
    ),
  );
  ok(
    createAssignment(
      db,
      admin,
      { courseId: fire, target: { kind: "person", userId: ids.dan }, due: { kind: "date", date: "2026-06-15" } },
      june1,
    ),
  );
  ok(createAssignment(db, admin, { courseId: data, target: { kind: "group", groupId: office }, due: { kind: "days", days: 10 } }, june1));
  ok(
    createAssignment(
      db,
      admin,
      { courseId: data, target: { kind: "person", userId: ids.ann }, due: { kind: "date", date: "2026-06-20" } },
      june1,
    ),
  );

  clock("2026-06-05T10:00:00Z");
  completeLesson(db, { userId: ids.ann, lesson: fireLessons[0], now: at("2026-06-05T10:00:00Z") }); // Ann starts Fire safety
  clock("2026-06-08T10:00:00Z");
  completeLesson(db, { userId: ids.eve, lesson: dataLesson, now: at("2026-06-08T10:00:00Z") }); // Eve completes Data protection
  clock("2026-06-10T10:00:00Z");
  for (const lesson of fireLessons) completeLesson(db, { userId: ids.bo, lesson, now: at("2026-06-10T10:00:00Z") }); // Bo completes Fire safety
  clock("2026-06-12T10:00:00Z");
  removeMember(db, safety, ids.cy); // Cy leaves the safety team: history, no longer counted
  vi.useRealTimers();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the report's numbers", () => {
  it("counts people per course: once each, those who left the group out, states on the organization's day", () => {
    const r = complianceReport(db, org, {}, at("2026-06-14T10:00:00Z"));
    expect(r.today).toBe("2026-06-14");
    expect(r.expiringUntil).toBe("2026-07-14");
    // Data protection: Dan, Eve and Ann (twice assigned, once counted, due by her earliest open day, 11 June).
    // Fire safety: Ann (started), Bo (done), Gail, and Dan on his own; Cy left the team.
    expect(r.courses.map((c) => [c.title, pick(c)])).toEqual([
      ["Data protection", counts(3, 1, 0, 0, 2)],
      ["Fire safety", counts(4, 1, 1, 2, 0)],
    ]);
    expect(r.totals).toEqual(counts(7, 2, 1, 2, 2));
  });

  it("counts a group's current members and every course each is assigned, however they were assigned it", () => {
    const r = complianceReport(db, org, {}, at("2026-06-14T10:00:00Z"));
    // Office (Dan, Eve, Ann): Dan's Fire safety (his own) and Data protection, Eve's Data protection, Ann's two.
    // Safety team (Ann, Bo, Gail): Ann's Fire safety and Data protection, Bo's and Gail's Fire safety.
    expect(r.groups.map((g) => [g.name, pick(g)])).toEqual([
      ["Office", counts(5, 1, 1, 1, 2)],
      ["Safety team", counts(4, 1, 1, 1, 1)],
    ]);
  });

  it("moves people to overdue when their due day is over in Copenhagen, not in UTC", () => {
    // Dan's Fire safety is due 15 June: still due at 23:59 that day in Copenhagen (21:59 UTC)...
    expect(pick(complianceReport(db, org, { courseId: fire }, at("2026-06-15T21:59:00Z")).courses[0])).toEqual(counts(4, 1, 1, 2, 0));
    // ...overdue a few minutes later, though still 15 June in UTC.
    expect(pick(complianceReport(db, org, { courseId: fire }, at("2026-06-15T22:01:00Z")).courses[0])).toEqual(counts(4, 1, 1, 1, 1));
  });

  it("counts someone who joins later from their joining, and done when they complete", () => {
    clock("2026-06-20T09:00:00Z");
    addMembers(db, safety, [ids.hal]); // Hal joins: Fire safety due 30 June like the team
    expect(pick(complianceReport(db, org, { courseId: fire }, at("2026-06-20T10:00:00Z")).courses[0])).toEqual(counts(5, 1, 1, 2, 1));
    clock("2026-06-25T09:00:00Z");
    for (const lesson of fireLessons) completeLesson(db, { userId: ids.hal, lesson, now: at("2026-06-25T09:00:00Z") });
    vi.useRealTimers();
    // 1 July in Copenhagen: Ann (started) and Gail are overdue with Dan; Bo and Hal done.
    const r = complianceReport(db, org, {}, at("2026-06-30T22:30:00Z"));
    expect(r.today).toBe("2026-07-01");
    expect(pick(r.courses.find((c) => c.course_id === fire))).toEqual(counts(5, 2, 0, 0, 3));
    expect(r.groups.map((g) => [g.name, pick(g)])).toEqual([
      ["Office", counts(5, 1, 0, 0, 4)],
      ["Safety team", counts(5, 2, 0, 0, 3)],
    ]);
  });

  it("narrows to a course and a group together", () => {
    const r = complianceReport(db, org, { courseId: data, groupId: safety }, at("2026-06-14T10:00:00Z"));
    expect(r.courses.map((c) => [c.title, pick(c)])).toEqual([["Data protection", counts(1, 0, 0, 0, 1)]]); // Ann
    expect(r.groups.map((g) => [g.name, pick(g)])).toEqual([["Safety team", counts(1, 0, 0, 0, 1)]]);
  });
});

describe("expiring completions", () => {
  it("counts and lists those whose completion expires from today to 30 days ahead, whatever their state", () => {
    // No completion expires yet (completionExpiresOnSql); recertification will set the day as this does.
    const expire = (name: string, courseId: number, day: string | null) =>
      db.$client.prepare("update compliance_people set expires_on = ? where user_id = ? and course_id = ?").run(day, ids[name], courseId);
    expire("bo", fire, "2026-07-10"); // done, expiring within 30 days of 14 June
    expire("dan", fire, "2026-06-14"); // not started, expiring today
    expire("eve", data, "2026-07-20"); // beyond the 30 days
    try {
      const now = at("2026-06-14T10:00:00Z");
      const r = complianceReport(db, org, {}, now);
      expect(r.courses.map((c) => [c.title, c.expiring])).toEqual([
        ["Data protection", 0],
        ["Fire safety", 2],
      ]);
      expect(r.groups.map((g) => [g.name, g.expiring])).toEqual([
        ["Office", 1],
        ["Safety team", 1],
      ]);
      expect(who(compliancePeople(db, org, query({ state: "expiring" }), now).people)).toEqual([
        "dan Fire safety not_started",
        "bo Fire safety done",
      ]);
      expect(compliancePeople(db, org, query({ state: "expiring" }), now).people[1].expires_on).toBe("2026-07-10");
      expect(complianceReport(db, org, {}, at("2026-07-15T10:00:00Z")).totals.expiring).toBe(1); // Eve's, now within 30 days
    } finally {
      for (const [name, course] of [
        ["bo", fire],
        ["dan", fire],
        ["eve", data],
      ] as const)
        expire(name, course, null);
    }
  });
});

describe("the people behind a number", () => {
  const now = at("2026-06-14T10:00:00Z");

  it("lists each person and course, overdue first, with the state of the day", () => {
    const { total, people, today } = compliancePeople(db, org, query(), now);
    expect(today).toBe("2026-06-14");
    expect(total).toBe(8); // Hal joined on the 20th, but his row is there now: the list is of rows current today
    expect(who(people)).toEqual([
      "ann Data protection overdue",
      "dan Data protection overdue",
      "dan Fire safety not_started",
      "ann Fire safety in_progress",
      "gail Fire safety not_started",
      "eve Data protection done",
      "bo Fire safety done",
      "hal Fire safety done",
    ]);
  });

  it("filters by state, course, group, due days and name or e-mail", () => {
    const list = (q: Partial<ComplianceQuery>) => who(compliancePeople(db, org, query(q), now).people);
    expect(list({ state: "overdue" })).toEqual(["ann Data protection overdue", "dan Data protection overdue"]);
    expect(list({ state: "not_started" })).toEqual(["dan Fire safety not_started", "gail Fire safety not_started"]);
    expect(list({ state: "in_progress", courseId: fire })).toEqual(["ann Fire safety in_progress"]);
    expect(list({ state: "done", groupId: office })).toEqual(["eve Data protection done"]);
    expect(list({ groupId: office, courseId: fire })).toEqual(["dan Fire safety not_started", "ann Fire safety in_progress"]);
    expect(list({ dueFrom: "2026-06-12", dueTo: "2026-06-15" })).toEqual(["dan Fire safety not_started"]);
    expect(list({ dueTo: "2026-06-11", state: "assigned" })).toHaveLength(3);
    expect(list({ q: "GAIL" })).toEqual(["gail Fire safety not_started"]);
    expect(list({ q: "Ann Test" })).toEqual(["ann Data protection overdue", "ann Fire safety in_progress"]);
    expect(list({ q: "%" })).toEqual([]);
    expect(list({ state: "expiring" })).toEqual([]);
  });

  it("pages the list, with the total of every page", () => {
    const first = compliancePeople(db, org, query({ perPage: 3 }), now);
    const third = compliancePeople(db, org, query({ perPage: 3, page: 3 }), now);
    expect(first.total).toBe(8);
    expect(first.people).toHaveLength(3);
    expect(who(third.people)).toEqual(["bo Fire safety done", "hal Fire safety done"]);
    expect(allCompliancePeople(db, org, query({ state: "overdue" }), now).people.map((p) => p.user_id)).toEqual([ids.ann, ids.dan]);
  });
});

describe("who sees what", () => {
  const now = at("2026-06-14T10:00:00Z");

  it("lets a group admin see only the current members of the groups they administer", () => {
    const scope = complianceScope(viewer("gail"))!;
    expect(scope).toEqual({ kind: "groups", groupIds: [safety] });
    const r = complianceReport(db, scope, {}, now);
    // Ann, Bo, Gail and Hal: Fire safety; Ann: Data protection (through the office, which Gail cannot see).
    expect(r.courses.map((c) => [c.title, pick(c)])).toEqual([
      ["Data protection", counts(1, 0, 0, 0, 1)],
      ["Fire safety", counts(4, 2, 1, 1, 0)],
    ]);
    expect(r.groups.map((g) => g.name)).toEqual(["Safety team"]);
    const people = compliancePeople(db, scope, query(), now).people;
    expect(new Set(people.map((p) => p.email))).toEqual(new Set(["ann@x.test", "bo@x.test", "gail@x.test", "hal@x.test"]));
    expect(complianceOptions(db, scope).groups.map((g) => g.name)).toEqual(["Safety team"]);
  });

  it("counts each person once for a group admin of several groups that share members", () => {
    addMembers(db, office, [ids.gail], { admin: true }); // Gail now administers the office too (and is a member of it)
    try {
      const r = complianceReport(db, complianceScope(viewer("gail"))!, {}, now);
      // Data protection: Ann, Dan, Eve and now Gail (joined the office on the real clock: due in 10 days).
      expect(r.courses.map((c) => [c.title, c.assigned])).toEqual([
        ["Data protection", 4],
        ["Fire safety", 5],
      ]);
      expect(r.totals.assigned).toBe(9);
    } finally {
      removeMember(db, office, ids.gail);
    }
  });

  it("counts several groups' people once each, whether the groups share members, hold each other or neither", () => {
    const pair = createGroup(db, { name: "Pair" }).id; // Ann and Bo: inside the safety team
    const solo = createGroup(db, { name: "Solo" }).id; // Bo alone: shares no one with the office
    addMembers(db, pair, [ids.ann, ids.bo]);
    addMembers(db, solo, [ids.bo]);
    /** Per course and state, from the people list: a count that reads no counter. */
    const fromPeople = (scope: ComplianceScope) => {
      const out = new Map<number, Record<string, number>>();
      for (const p of allCompliancePeople(db, scope, query(), now).people) {
        const c = out.get(p.course_id!) ?? { assigned: 0, done: 0, in_progress: 0, not_started: 0, overdue: 0, expiring: 0 };
        c.assigned++;
        c[p.state]++;
        out.set(p.course_id!, c);
      }
      return out;
    };
    for (const [groupIds, maxShared] of [
      [[safety, office], 2000], // share Ann: the counters added up, less Ann once
      [[safety, office], 0], // the same, counted from their people's rows
      [[office, solo], 0], // no one in common: the counters added up
      [[safety, pair], 0], // the safety team holds the pair: its counters
    ] as const) {
      const scope: ComplianceScope = { kind: "groups", groupIds };
      const report = complianceReport(db, scope, {}, now, { maxShared });
      expect(new Map(report.courses.map((c) => [c.course_id, pick(c)])), JSON.stringify(groupIds)).toEqual(fromPeople(scope));
    }
    deleteGroup(db, pair);
    deleteGroup(db, solo);
  });

  it("refuses learners", () => {
    expect(complianceScope(viewer("bo"))).toBeNull();
  });

  it("offers the courses anyone is assigned and every group", () => {
    const options = complianceOptions(db, org);
    expect(options.courses.map((c) => c.title)).toEqual(["Data protection", "Fire safety"]);
    expect(options.groups.map((g) => g.name)).toEqual(["Office", "Safety team"]);
  });
});

/** The report worked out from the assignments directly: what the triggers' counters must always equal. */
function recount(now: Date) {
  const today = complianceReport(db, org, {}, now).today;
  const rows = db.$client
    .prepare(
      `select a.course_id, ap.user_id, min(ap.completed_at is not null) as done,
         coalesce(min(case when ap.completed_at is null then ap.due_on end), max(ap.due_on)) as due_on,
         exists (select 1 from lesson_progress lp where lp.user_id = ap.user_id and lp.course_id = a.course_id) as started
       from assignment_people ap join assignments a on a.id = ap.assignment_id join courses c on c.id = a.course_id
       where ap.left_at is null group by a.course_id, ap.user_id`,
    )
    .all() as { course_id: number; user_id: number; done: number; due_on: string; started: number }[];
  const members = db.$client.prepare("select group_id, user_id from group_members").all() as { group_id: number; user_id: number }[];
  const state = (r: (typeof rows)[number]) => (r.done ? "done" : today > r.due_on ? "overdue" : r.started ? "in_progress" : "not_started");
  const add = (map: Map<number, Record<string, number>>, key: number, r: (typeof rows)[number]) => {
    const c = map.get(key) ?? { assigned: 0, done: 0, in_progress: 0, not_started: 0, overdue: 0, expiring: 0 };
    c.assigned++;
    c[state(r)]++;
    map.set(key, c);
  };
  const courses = new Map<number, Record<string, number>>();
  const groups = new Map<number, Record<string, number>>();
  for (const r of rows) {
    add(courses, r.course_id, r);
    for (const m of members) if (m.user_id === r.user_id) add(groups, m.group_id, r);
  }
  return { courses, groups };
}

function expectCountersToMatchRecount(now: Date) {
  const r = complianceReport(db, org, {}, now);
  const expected = recount(now);
  expect(new Map(r.courses.map((c) => [c.course_id, pick(c)]))).toEqual(expected.courses);
  expect(new Map(r.groups.map((g) => [g.group_id, pick(g)]))).toEqual(expected.groups);
}

describe("the counters the triggers keep", () => {
  const now = at("2026-06-14T10:00:00Z");

  it("match a recount after every kind of write", async () => {
    expectCountersToMatchRecount(now);
    // A progress row deleted (its lesson removed), then back.
    db.delete(lessons).where(eq(lessons.id, fireLessons[0].id)).run();
    expectCountersToMatchRecount(now);
    // Someone assigned twice loses one assignment; a group is deleted (its assignment stays, its people counted per course).
    const admin = viewer("admin");
    const annData = db.$client.prepare("select id from assignments where course_id = ? and user_id = ?").get(data, ids.ann) as {
      id: number;
    };
    expect(deleteAssignment(db, admin, annData.id)).toEqual({ ok: true });
    expectCountersToMatchRecount(now);
    deleteGroup(db, office);
    expectCountersToMatchRecount(now);
    // A person deleted, a course deleted.
    db.$client.prepare("delete from users where id = ?").run(ids.eve);
    expectCountersToMatchRecount(now);
    const temp = createCourse(db, { title: "Ladders", description: "", type: "series", published: true, position: 3 }).id;
    ok(createAssignment(db, admin, { courseId: temp, target: { kind: "group", groupId: safety }, due: { kind: "days", days: 3 } }, now));
    expectCountersToMatchRecount(now);
    db.$client.prepare("delete from courses where id = ?").run(temp);
    expectCountersToMatchRecount(now);
    expect(db.$client.prepare("select count(*) as n from compliance_counts where course_id = ?").get(temp)).toEqual({ n: 0 });
    // And a rebuild from scratch gives the same counters.
    const counters = () => [
      db.$client.prepare("select * from compliance_counts order by 1, 2, 3, 4, 5, 6").all(),
      db.$client.prepare("select * from compliance_totals order by 1, 2").all(),
    ];
    const before = counters();
    rebuildCompliance(db);
    expect(counters()).toEqual(before);
    expect(db.$client.prepare("select count(*) as n from compliance_counts where n <= 0").get()).toEqual({ n: 0 });
    expect(db.$client.prepare("select count(*) as n from compliance_totals where assigned <= 0").get()).toEqual({ n: 0 });
  });
});
