import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import {
  analyticsHourly,
  certificates,
  courseCompletions,
  courses,
  lessonProgress,
  lessons,
  pointsLedger,
  users,
  xapiStatements,
  type Course,
  type Lesson,
  type User,
  type XapiCredential,
} from "../../db/tenant";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { completeLesson } from "~/models/learning.server";
import { lessonStates } from "~/models/lesson-state.server";
import { subscribeLearningEvents } from "~/models/subscribers.server";
import { createXapiCredential } from "~/models/xapi/credentials.server";
import { lessonActivityId, lessonOfActivity } from "~/models/xapi/lesson-activity.server";
import { learnerAgent, type LessonFeed } from "~/models/xapi/lesson-results.server";
import { storeStatements, VOIDED, type StoreOptions } from "~/models/xapi/statements.server";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

/**
 * What a statement about a lesson gives a learner (issue 47; docs/decisions/043-learning-record-store.md, "What
 * it feeds"), on a real tenant database: `completed` and `passed` complete the lesson (and the course, with
 * its certificate, points and analytics, as SCORM's completion through completeLesson does), `failed` only
 * starts it; statements about other activities, by other agents, or by people who may not take the lesson
 * change nothing; a refused batch leaves nothing behind.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-lesson-results-");
const ORIGIN = "http://acme.localhost";
const T0 = new Date("2026-11-02T09:00:00Z");
const FEED: LessonFeed = { origin: ORIGIN, organization: { id: 1, language: "en" } as Organization };
const AUTHORITY = { objectType: "Agent", account: { homePage: `${ORIGIN}/xapi`, name: "reports" } };
const options: StoreOptions = { version: "2.0.0", authority: AUTHORITY, learning: FEED, now: T0 };
const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { "en-US": name } });
const ID = "6e4f3c2a-1b0d-4e9f-8a7b-5c4d3e2f1a0b";

let db: TenantDb;
let all: XapiCredential;
let course: Course;
let first: Lesson;
let second: Lesson;
let anna: User;
let bo: User;

function person(email: string, extra: Partial<typeof users.$inferInsert> = {}) {
  return db
    .insert(users)
    .values({ email, firstName: email.split("@")[0]!, lastName: "Test", role: "learner", ...extra })
    .returning()
    .get();
}

function lesson(of: Course, position: number, kind: Lesson["kind"] = "text") {
  return db
    .insert(lessons)
    .values({ courseId: of.id, title: `Lesson ${position + 1}`, kind, position })
    .returning()
    .get();
}

function newCourse(extra: Partial<typeof courses.$inferInsert> = {}) {
  return db
    .insert(courses)
    .values({ title: "Winter seas", published: true, allowCertificates: true, ...extra })
    .returning()
    .get();
}

/** A statement of `who` about `what` (a lesson, or an activity id), by verb name. */
function statement(who: unknown, name: string, what: Lesson | string, extra: Record<string, unknown> = {}) {
  const id = typeof what === "string" ? what : lessonActivityId(ORIGIN, what);
  return { actor: who, verb: verb(name), object: { objectType: "Activity", id }, ...extra };
}

function send(input: unknown, by = all, more: Partial<StoreOptions> = {}) {
  return storeStatements(db, by, input, { ...options, ...more });
}

const mbox = (p: User) => ({ objectType: "Agent", mbox: `mailto:${p.email}` });
const progressOf = (p: User) => db.select().from(lessonProgress).where(eq(lessonProgress.userId, p.id)).all();
const completedLessons = (p: User) =>
  progressOf(p)
    .filter((r) => r.completedAt)
    .map((r) => r.lessonId)
    .sort();
const completion = (p: User) =>
  db
    .select()
    .from(courseCompletions)
    .where(and(eq(courseCompletions.userId, p.id), eq(courseCompletions.courseId, course.id)))
    .get();
const certificatesOf = (p: User) => db.select().from(certificates).where(eq(certificates.userId, p.id)).all();
const pointsOf = (p: User) =>
  db
    .select({ activity: pointsLedger.activity, ref: pointsLedger.ref, points: pointsLedger.points })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, p.id))
    .all()
    .sort((a, b) => (a.ref < b.ref ? -1 : 1));
const completionsCounted = () =>
  db
    .select({ value: analyticsHourly.value })
    .from(analyticsHourly)
    .where(and(eq(analyticsHourly.metric, "completions"), eq(analyticsHourly.courseId, course.id)))
    .all()
    .reduce((sum, r) => sum + r.value, 0);
/** Nothing at all recorded for the person's learning. */
const nothingFor = (p: User) => {
  expect(progressOf(p)).toEqual([]);
  expect(completion(p)).toBeUndefined();
  expect(certificatesOf(p)).toEqual([]);
  expect(pointsOf(p)).toEqual([]);
};

beforeEach(() => {
  db = tenant.db;
  const made = createXapiCredential(db, { name: "all", scope: "all", userId: null, now: T0 });
  if ("error" in made) throw new Error(made.error);
  all = made.credential;
  course = newCourse();
  first = lesson(course, 0);
  second = lesson(course, 1);
  anna = person("anna@example.test");
  bo = person("bo@example.test");
});

describe("a lesson's activity id", () => {
  it("is the lesson's page on the organization's host, and names that lesson only", () => {
    expect(lessonActivityId(ORIGIN, first)).toBe(`${ORIGIN}/courses/${course.id}/lessons/${first.id}`);
    expect(lessonOfActivity(db, ORIGIN, lessonActivityId(ORIGIN, first))?.id).toBe(first.id);
    expect(lessonOfActivity(db, `${ORIGIN}/xapi`, lessonActivityId(ORIGIN, second))?.id).toBe(second.id);
    for (const other of [
      `http://other.localhost/courses/${course.id}/lessons/${first.id}`,
      `${ORIGIN}/courses/${course.id + 1}/lessons/${first.id}`,
      `${ORIGIN}/courses/${course.id}/lessons/${first.id}?x=1`,
      `${ORIGIN}/courses/${course.id}/lessons/${first.id}/`,
      `${ORIGIN}/courses/${course.id}/lessons/999`,
      `${ORIGIN}/courses/${course.id}`,
    ])
      expect(lessonOfActivity(db, ORIGIN, other)).toBeNull();
  });
});

describe("statements about a lesson", () => {
  it("complete it and the course with `completed`, with the certificate, points and analytics SCORM's completion gives", () => {
    // Anna by the LRS (the e-mail address in another case); Bo through completeLesson, as a SCORM package's result does.
    const shouting = { objectType: "Agent", mbox: "MAILTO:Anna@Example.TEST" };
    expect(send([statement(shouting, "completed", first), statement(mbox(anna), "completed", second)])).toMatchObject({ ok: true });
    for (const l of [first, second]) completeLesson(db, { userId: bo.id, lesson: l, now: T0 });

    expect(completedLessons(anna)).toEqual([first.id, second.id].sort());
    expect(progressOf(anna).every((r) => r.completedAt?.getTime() === T0.getTime())).toBe(true);
    expect(completion(anna)).toMatchObject({ cycle: 1, completedAt: T0 });
    expect(certificatesOf(anna)).toHaveLength(1);
    expect(certificatesOf(anna)[0]).toMatchObject({ courseId: course.id, cycle: 1, issuedAt: T0, courseTitle: "Winter seas" });
    expect(pointsOf(anna)).toEqual(pointsOf(bo));
    expect(pointsOf(anna).map((p) => p.activity)).toEqual(expect.arrayContaining(["lesson_completed", "course_completed"]));
    expect(completionsCounted()).toBe(2);
    const states = lessonStates(db, anna.id, course.id, [first, second]);
    expect([...states.values()].map((s) => s.state)).toEqual(["completed", "completed"]);
  });

  it("complete it with `passed` from an account of the organization, and only start it with `failed`", () => {
    const account = learnerAgent(ORIGIN, anna);
    const score = { scaled: 0.4, raw: 40, min: 0, max: 100 };
    expect(send(statement(account, "failed", first, { result: { score, success: false } }))).toMatchObject({ ok: true });
    expect(progressOf(anna)).toHaveLength(1);
    expect(completedLessons(anna)).toEqual([]);
    expect(lessonStates(db, anna.id, course.id, [first]).get(first.id)?.state).toBe("in_progress");
    expect(pointsOf(anna).filter((p) => p.activity === "lesson_completed")).toEqual([]);
    // The attempt and its score are the statement, kept in the LRS.
    const stored = JSON.parse(db.select().from(xapiStatements).get()!.json);
    expect(stored.result).toEqual({ score, success: false });

    const trailing = { objectType: "Agent", account: { homePage: `${ORIGIN}/`, name: String(anna.id) } };
    const passed = { score: { scaled: 0.9 }, success: true, completion: true };
    expect(send(statement(trailing, "passed", first, { result: passed }), all, { now: new Date(T0.getTime() + 60_000) })).toMatchObject({
      ok: true,
    });
    expect(completedLessons(anna)).toEqual([first.id]);
    expect(completion(anna)).toBeUndefined(); // the second lesson is still to do
    expect(pointsOf(anna).filter((p) => p.activity === "lesson_completed")).toHaveLength(1);
  });

  it("from an actor credential complete its own agent's lessons, and no one else's", () => {
    const made = createXapiCredential(db, { name: "launch", scope: "actor", actor: mbox(anna), userId: null, now: T0 });
    if ("error" in made) throw new Error(made.error);
    expect(send(statement(mbox(anna), "completed", first), made.credential)).toMatchObject({ ok: true });
    expect(send(statement(mbox(bo), "completed", first), made.credential)).toMatchObject({ ok: false, status: 403 });
    expect(completedLessons(anna)).toEqual([first.id]);
    nothingFor(bo);
  });

  it("stay completed when the statement is voided, and count once when sent again", () => {
    expect(send(statement(mbox(anna), "completed", first, { id: ID }))).toMatchObject({ ok: true });
    const before = pointsOf(anna);
    expect(send(statement(mbox(anna), "completed", first, { id: ID }))).toEqual({ ok: true, ids: [ID] });
    const voiding = { actor: mbox(anna), verb: { id: VOIDED }, object: { objectType: "StatementRef", id: ID } };
    expect(send(voiding)).toMatchObject({ ok: true });
    expect(completedLessons(anna)).toEqual([first.id]);
    expect(pointsOf(anna)).toEqual(before);
  });
});

describe("statements that feed nothing", () => {
  it("are those about another activity, with another verb, or by someone who is not a person here", () => {
    const list = [
      statement(mbox(anna), "completed", `http://other.localhost/courses/${course.id}/lessons/${first.id}`),
      statement(mbox(anna), "completed", `${ORIGIN}/courses/${course.id + 1}/lessons/${first.id}`),
      statement(mbox(anna), "completed", `${ORIGIN}/courses/${course.id}/lessons/999`),
      statement(mbox(anna), "experienced", first),
      statement(mbox(anna), "attempted", first),
      statement({ objectType: "Agent", mbox: "mailto:nobody@example.test" }, "completed", first),
      statement({ objectType: "Agent", account: { homePage: "http://other.localhost", name: String(anna.id) } }, "completed", first),
      statement({ objectType: "Agent", account: { homePage: ORIGIN, name: "999" } }, "completed", first),
      statement({ objectType: "Agent", account: { homePage: ORIGIN, name: anna.email } }, "completed", first),
      statement({ objectType: "Group", member: [mbox(anna)] }, "completed", first),
      { actor: mbox(anna), verb: verb("completed"), object: { objectType: "Agent", mbox: `mailto:${anna.email}` } },
    ];
    expect(send(list)).toMatchObject({ ok: true });
    expect(db.select().from(xapiStatements).all()).toHaveLength(list.length);
    nothingFor(anna);
    expect(completionsCounted()).toBe(0);
  });

  it("are those stored without the organization to feed", () => {
    expect(send(statement(mbox(anna), "completed", first), all, { learning: undefined })).toMatchObject({ ok: true });
    nothingFor(anna);
  });

  it("are those about a lesson the person may not take, or one completed elsewhere (quiz, SCORM)", () => {
    const draft = newCourse({ published: false });
    const closed = newCourse({ forceGroups: true });
    const ordered = newCourse({ sequentialLessons: true });
    lesson(ordered, 0);
    const quizzes = newCourse({ allowQuizzes: true });
    const carl = person("carl@example.test", { disabledAt: T0 });
    expect(
      send([
        statement(mbox(anna), "completed", lesson(draft, 0)),
        statement(mbox(anna), "completed", lesson(closed, 0)),
        statement(mbox(anna), "completed", lesson(ordered, 1)), // the first lesson comes first
        statement(mbox(anna), "passed", lesson(quizzes, 0, "quiz")),
        statement(mbox(anna), "completed", lesson(quizzes, 1, "scorm")),
        statement(mbox(carl), "completed", first),
      ]),
    ).toMatchObject({ ok: true });
    nothingFor(anna);
    nothingFor(carl);
  });

  it("are those of a batch refused, even when refused after they were fed", () => {
    expect(send(statement(mbox(bo), "experienced", first, { id: ID }))).toMatchObject({ ok: true });
    // Anna's completion is fed, then the statement sent again with other content refuses the whole batch.
    const batch = [
      statement(mbox(anna), "completed", first),
      statement(mbox(anna), "completed", second),
      { ...statement(mbox(bo), "completed", first), id: ID },
    ];
    expect(send(batch)).toMatchObject({ ok: false, status: 409 });
    expect(send([statement(mbox(anna), "completed", first), statement(mbox(anna), "completed", "not an iri")])).toMatchObject({
      ok: false,
      status: 400,
    });
    nothingFor(anna);
    expect(completionsCounted()).toBe(0);
    expect(db.select().from(xapiStatements).all()).toHaveLength(1);
  });
});
