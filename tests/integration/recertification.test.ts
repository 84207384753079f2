import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { viewerOfMember, type Viewer } from "../../app/access/viewer";
import { createAssignment, type AssignmentWrite } from "../../app/models/assignment.server";
import { dueSoon } from "../../app/models/assignment-learner.server";
import { certificateScore } from "../../app/models/certificate-issuing.server";
import { listOwnCertificates } from "../../app/models/certificate.server";
import { createCourse } from "../../app/models/course.server";
import { addMembers, membershipsOf, removeMember } from "../../app/models/group-members.server";
import { createGroup } from "../../app/models/group.server";
import { completeLesson, courseProgress } from "../../app/models/learning.server";
import { ensureLeaderboard } from "../../app/models/points.server";
import { attachQuiz } from "../../app/models/quiz-lessons.server";
import { createQuiz } from "../../app/models/quiz-authoring.server";
import { endAttempt } from "../../app/models/quiz-grading.server";
import { openOrStartAttempt, saveAnswers } from "../../app/models/quiz-attempts.server";
import { questionSchema } from "../../app/models/forms/quizzes";
import {
  certificateValidity,
  completionHistory,
  completionStatus,
  expiringCompletions,
  expiringWithin,
  reassignExpiring,
  recertificationDue,
  retakeCourse,
} from "../../app/models/recertification.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { commitAttempt, launchState } from "../../app/models/scorm.server";
import { createUser, getUser } from "../../app/models/user.server";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { leaderboardSettings, lessons, scormPackages, users, type Course, type Lesson, type Quiz } from "../../db/tenant";

subscribeLearningEvents();

/**
 * Recertification (issue 34) against a real tenant file, on a simulated clock (every model takes `now`): the
 * expiry day counted in the organization's zone (New York here, so that a UTC day would be wrong), the
 * re-assignment N days before it — once, only for people still assigned — with the expiry day as the new due
 * day and a new cycle that is not started; completing again (a passed quiz taken again) issues a new
 * certificate with a new expiry while the old one stays, expired after its day; the earlier completion stays
 * in the history and the analytics; someone never assigned takes an expired course again.
 */
let dir: string;
let db: TenantDb;
let course: Course;
let textLesson: Lesson;
let quizLesson: Lesson;
let quiz: Quiz;
let team: number;
const ids: Record<string, number> = {};
const at = (iso: string) => new Date(iso);

function viewer(name: string): Viewer {
  const person = getUser(db, ids[name])!;
  return viewerOfMember({ organization: null, db, language: "en" }, person, membershipsOf(db, person.id));
}
function ok(result: AssignmentWrite) {
  if (!result.ok) throw new Error(`assignment refused: ${result.message}`);
  return result;
}
/** The hooks that read the clock themselves (joining a group) see the simulated one. */
function clock(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at(iso));
}
/** Every lesson of the course, the quiz passed, at `iso`. */
function completeCourse(name: string, iso: string) {
  const userId = ids[name];
  completeLesson(db, { userId, lesson: textLesson, now: at(iso) });
  const { attempt } = openOrStartAttempt(db, { quiz, userId, lesson: quizLesson, now: at(iso) });
  saveAnswers(db, { attempt, answers: [{ question_id: attempt.questions[0].id, choices: ["true"] }], now: at(iso) });
  return endAttempt(db, { attempt, now: at(iso) }).attempt;
}
const row = (sql: string, ...params: unknown[]) => db.$client.prepare(sql).get(...params) as Record<string, unknown> | undefined;
const rows = (sql: string, ...params: unknown[]) => db.$client.prepare(sql).all(...params) as Record<string, unknown>[];
const stateOf = (name: string, now: Date) => dueSoon(db, viewer(name), { now }).find((i) => i.courseId === course.id);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-recert-"));
  const file = path.join(dir, "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  // The organization's zone (the tenant's copy of it: app/models/time-zone.server.ts).
  ensureLeaderboard(db);
  db.update(leaderboardSettings).set({ timeZone: "America/New_York" }).where(eq(leaderboardSettings.id, 1)).run();
  for (const [name, role] of [
    ["admin", "admin"],
    ["ann", "learner"],
    ["bo", "learner"],
    ["dan", "learner"],
    ["eve", "learner"],
    ["fay", "learner"],
  ] as const) {
    ids[name] = (await createUser(db, { email: `${name}@x.test`, firstName: name, lastName: "X", role })).id;
  }
  course = createCourse(db, {
    title: "Forklift safety",
    description: "",
    type: "series",
    published: true,
    allowCertificates: true,
    allowQuizzes: true,
    validityMonths: 12,
    reassignDaysBefore: 30,
    position: 0,
  });
  textLesson = db.insert(lessons).values({ courseId: course.id, title: "Rules", kind: "text", position: 0 }).returning().get();
  const created = createQuiz(db, {
    title: "Check",
    description: "",
    deadline: null,
    pass_min: 1,
    max_attempts: 1,
    questions: [questionSchema.parse({ type: "true_false", prompt: "Brakes first?", correct_answer: true })],
  });
  if (!created.ok) throw new Error("quiz");
  quiz = created.value;
  const attached = attachQuiz(db, quiz.id, course.id);
  if (!attached.ok) throw new Error("quiz lesson");
  quizLesson = attached.value;
  team = createGroup(db, { name: "Warehouse" }).id;
  addMembers(db, team, [ids.ann, ids.bo, ids.eve, ids.fay]);
  ok(
    createAssignment(
      db,
      viewer("admin"),
      { courseId: course.id, target: { kind: "group", groupId: team }, due: { kind: "date", date: "2026-03-31" } },
      at("2026-02-01T12:00:00Z"),
    ),
  );
});
afterEach(() => vi.useRealTimers());
afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("recertification", () => {
  it("gives a completion and its certificate an expiry day counted in the organization's zone", () => {
    // 03:00 UTC on 1 March is still 28 February in New York: valid through 28 February 2027, not 1 March.
    for (const name of ["ann", "bo", "dan", "eve", "fay"]) completeCourse(name, "2026-03-01T03:00:00Z");
    const ann = completionStatus(db, ids.ann, course.id, at("2026-03-01T04:00:00Z"));
    expect(ann).toMatchObject({ completedOn: "2026-02-28", cycle: 1, expiresOn: "2027-02-28", expired: false, renewing: false });
    const [certificate] = listOwnCertificates(db, ids.ann);
    expect(certificate).toMatchObject({ cycle: 1, expiresOn: "2027-02-28" });
    // Valid through the end of its last day in New York (05:00 UTC on 1 March), expired after it.
    expect(certificateValidity(db, certificate, at("2027-03-01T04:59:00Z")).expired).toBe(false);
    expect(certificateValidity(db, certificate, at("2027-03-01T05:01:00Z")).expired).toBe(true);
    expect(stateOf("ann", at("2026-03-02T12:00:00Z"))?.state).toBe("done");
    // The report's "expiring within 30 days".
    expect(expiringWithin(db, { today: "2027-01-28", days: 30 })).toEqual([]);
    expect(expiringWithin(db, { today: "2027-01-29", days: 30, userIds: [ids.ann, ids.dan] })).toEqual([
      expect.objectContaining({ userId: ids.ann, courseId: course.id, completedOn: "2026-02-28", expiresOn: "2027-02-28", cycle: 1 }),
      expect.objectContaining({ userId: ids.dan, courseId: course.id, expiresOn: "2027-02-28" }),
    ]);
  });

  it("re-assigns the people still assigned N days before expiry, once, due on the expiry day and not started", async () => {
    // Eve leaves the group; Fay's account is disabled; Dan was never assigned.
    clock("2026-06-01T12:00:00Z");
    removeMember(db, team, ids.eve);
    db.update(users)
      .set({ disabledAt: at("2026-06-01T12:00:00Z") })
      .where(eq(users.id, ids.fay))
      .run();
    // 28 Jan 2027 in New York is 31 days before: nobody yet.
    expect(recertificationDue(db, at("2027-01-29T04:00:00Z"))).toBe(false);
    expect(await reassignExpiring(db, { now: at("2027-01-29T04:00:00Z") })).toEqual({ reassigned: 0, paths: 0 });
    // 29 Jan (local) is 30 days before 28 Feb.
    const now = at("2027-01-29T06:00:00Z");
    expect(recertificationDue(db, now)).toBe(true);
    expect(await reassignExpiring(db, { now })).toEqual({ reassigned: 2, paths: 0 });
    expect(await reassignExpiring(db, { now })).toEqual({ reassigned: 0, paths: 0 });
    expect(await reassignExpiring(db, { now: at("2027-02-10T12:00:00Z") })).toEqual({ reassigned: 0, paths: 0 });
    expect(rows("select user_id from recertifications order by user_id").map((r) => r.user_id)).toEqual([ids.ann, ids.bo]);
    for (const name of ["ann", "bo"]) {
      expect(row("select cycle, due_on, completed_at from assignment_people where user_id = ?", ids[name])).toEqual({
        cycle: 2,
        due_on: "2027-02-28",
        completed_at: null,
      });
      // Their earlier progress does not start the new cycle.
      expect(stateOf(name, at("2027-01-30T12:00:00Z"))).toMatchObject({ state: "not_started", dueOn: "2027-02-28" });
      expect(completionStatus(db, ids[name], course.id, now)).toMatchObject({ renewing: true, expired: false, canRetake: false });
      expect(courseProgress(db, ids[name], course.id).completed_lessons).toBe(0);
    }
    expect(row("select cycle, completed_at is not null as done from assignment_people where user_id = ?", ids.eve)).toEqual({
      cycle: 1,
      done: 1,
    });
    expect(completionStatus(db, ids.dan, course.id, now)?.renewing).toBe(false);
    expect(completionStatus(db, ids.fay, course.id, now)?.renewing).toBe(false);
  });

  it("completing again (the passed quiz taken again) issues a new certificate with a new expiry; the old one stays", () => {
    clock("2027-02-10T15:00:00Z");
    expect(stateOf("ann", at("2027-02-10T15:00:00Z"))?.state).toBe("not_started");
    const attempt = completeCourse("ann", "2027-02-10T15:00:00Z");
    expect(attempt.passed).toBe(true);
    const status = completionStatus(db, ids.ann, course.id, at("2027-02-10T16:00:00Z"));
    expect(status).toMatchObject({ completedOn: "2027-02-10", cycle: 2, expiresOn: "2028-02-10", renewing: false });
    expect(stateOf("ann", at("2027-02-10T16:00:00Z"))?.state).toBe("done");
    const certificates = listOwnCertificates(db, ids.ann);
    expect(certificates.map((c) => [c.cycle, c.expiresOn])).toEqual([
      [2, "2028-02-10"],
      [1, "2027-02-28"],
    ]);
    expect(certificates[0].publicId).not.toBe(certificates[1].publicId);
    // The new certificate's score is the renewal's own: an attempt of the first cycle does not count in it.
    expect(certificates.map((c) => c.score)).toEqual([100, 100]);
    db.$client
      .prepare("update quiz_attempts set score = 40 where user_id = ? and started_at >= ?")
      .run(ids.ann, at("2027-02-01T00:00:00Z").getTime() / 1000);
    expect(certificateScore(db, ids.ann, course.id)).toBe(40);
    db.$client.prepare("update quiz_attempts set score = 100 where user_id = ?").run(ids.ann);
    // After 28 Feb the first is expired, the second valid.
    const later = at("2027-03-05T12:00:00Z");
    expect(certificates.map((c) => certificateValidity(db, c, later).expired)).toEqual([false, true]);
    // History and analytics keep the earlier completion.
    expect(completionHistory(db, ids.ann, { courseId: course.id }).map((c) => [c.cycle, c.expiresOn, c.current])).toEqual([
      [2, "2028-02-10", true],
      [1, "2027-02-28", false],
    ]);
    expect(row("select sum(value) as n from analytics_user_hourly where user_id = ? and metric = 'completions'", ids.ann)?.n).toBe(2);
    // Its next expiry is re-assigned in its turn, and only that one.
    expect(expiringCompletions(db, { before: "2028-03-01", userIds: [ids.ann] }).map((e) => e.expiresOn)).toEqual(["2028-02-10"]);
  });

  it("Bo, re-assigned but not done, is expired and overdue after the day; an expired completion does not make a new assignment done", () => {
    const after = at("2027-03-01T12:00:00Z");
    expect(completionStatus(db, ids.bo, course.id, after)).toMatchObject({ expired: true, renewing: true, canRetake: false });
    expect(stateOf("bo", after)?.state).toBe("overdue");
    expect(expiringCompletions(db, { before: "2027-03-01", userIds: [ids.bo, ids.dan] }).map((e) => [e.userId, e.renewing])).toEqual([
      [ids.bo, true],
      [ids.dan, false],
    ]);
    // Eve (who left the group) is assigned the course herself: her expired completion does not make it done,
    // and she takes the course again (a renewal opens), not started yet.
    ok(
      createAssignment(
        db,
        viewer("admin"),
        { courseId: course.id, target: { kind: "person", userId: ids.eve }, due: { kind: "days", days: 14 } },
        after,
      ),
    );
    expect(stateOf("eve", after)).toMatchObject({ state: "not_started", dueOn: "2027-03-15" });
    expect(completionStatus(db, ids.eve, course.id, after)).toMatchObject({ expired: true, renewing: true });
    expect(courseProgress(db, ids.eve, course.id).completed_lessons).toBe(0);
  });

  it("lets someone whose completion expired take the course again, through the access policy", () => {
    const before = at("2027-02-20T12:00:00Z");
    expect(retakeCourse(db, viewer("dan"), course, before)).toEqual({
      ok: false,
      status: 409,
      message: "recertification.errors.notExpired",
    });
    const after = at("2027-03-02T12:00:00Z");
    expect(completionStatus(db, ids.dan, course.id, after)?.canRetake).toBe(true);
    // A draft is the access policy's to refuse.
    db.$client.prepare("update courses set published = 0 where id = ?").run(course.id);
    expect(retakeCourse(db, viewer("dan"), { ...course, published: false }, after)).toMatchObject({ ok: false, status: 403 });
    db.$client.prepare("update courses set published = 1 where id = ?").run(course.id);
    expect(retakeCourse(db, viewer("dan"), course, after)).toEqual({ ok: true });
    expect(courseProgress(db, ids.dan, course.id).completed_lessons).toBe(0);
    clock("2027-03-03T12:00:00Z");
    completeCourse("dan", "2027-03-03T12:00:00Z");
    expect(completionStatus(db, ids.dan, course.id, at("2027-03-03T13:00:00Z"))).toMatchObject({
      cycle: 2,
      expiresOn: "2028-03-03",
      expired: false,
    });
    expect(listOwnCertificates(db, ids.dan).map((c) => c.cycle)).toEqual([2, 1]);
  });
  it("makes a SCORM package be taken again in a renewal: a new attempt, not the earlier one's completion", async () => {
    const scormCourse = createCourse(db, {
      title: "Hazard reporting",
      description: "",
      type: "series",
      published: true,
      allowCertificates: true,
      allowQuizzes: false,
      validityMonths: 12,
      reassignDaysBefore: 30,
      position: 1,
    });
    const lesson = db.insert(lessons).values({ courseId: scormCourse.id, title: "Module", kind: "scorm", position: 0 }).returning().get();
    const item = {
      identifier: "sco1",
      title: "Module",
      launch: "index.html",
      scormType: "sco" as const,
      masteryScore: null,
      launchData: null,
      depth: 1,
    };
    const pkg = db
      .insert(scormPackages)
      .values({ lessonId: lesson.id, version: "1.2", title: "Module", folder: "pkg", items: [item], fileCount: 1, unpackedBytes: 1 })
      .returning()
      .get();
    ids.gus = (await createUser(db, { email: "gus@x.test", firstName: "gus", lastName: "X", role: "learner" })).id;
    const commit = (status: string, iso: string) =>
      commitAttempt(db, {
        userId: ids.gus,
        lesson,
        pkg,
        scoId: "sco1",
        cmi: { "cmi.core.lesson_status": status, "cmi.core.score.raw": "90" },
        terminate: true,
        now: at(iso),
      });
    const first = commit("completed", "2026-04-01T12:00:00Z");
    expect(first).toMatchObject({ ok: true, lessonCompleted: true, courseCompleted: true });

    const after = at("2027-04-05T12:00:00Z");
    expect(completionStatus(db, ids.gus, scormCourse.id, after)).toMatchObject({ expired: true, canRetake: true });
    // A tab opened before the renewal still holds the old attempt (seeded "" or "resume", sent back whole).
    const staleLaunch = launchState(db, { userId: ids.gus, pkg, item });
    expect(staleLaunch["cmi.core.lesson_status"]).toBe("completed");
    expect(retakeCourse(db, viewer("gus"), scormCourse, after)).toEqual({ ok: true });
    expect(commitAttempt(db, { userId: ids.gus, lesson, pkg, scoId: "sco1", cmi: staleLaunch, terminate: true, now: after })).toEqual({
      ok: false,
      problem: "stale",
    });
    expect(courseProgress(db, ids.gus, scormCourse.id).completed_lessons).toBe(0);
    // The renewal's launch is a new attempt: nothing of the earlier one is handed to the package.
    const seed = launchState(db, { userId: ids.gus, pkg, item });
    expect(seed["cmi.core.entry"]).toBe("ab-initio");
    expect(seed["cmi.core.lesson_status"]).toBeUndefined();
    expect(seed["cmi.core.score.raw"]).toBeUndefined();
    // Opening the package and leaving it unfinished does not renew the completion, but counts as started
    // in the renewal (its progress row is touched once)...
    const progressAt = () =>
      row("select updated_at as at from lesson_progress where user_id = ? and lesson_id = ?", ids.gus, lesson.id)?.at;
    expect(progressAt()).toBe(at("2026-04-01T12:00:00Z").getTime() / 1000);
    expect(commit("incomplete", "2027-04-05T12:05:00Z")).toMatchObject({ ok: true, lessonCompleted: false, courseCompleted: false });
    expect(progressAt()).toBe(at("2027-04-05T12:05:00Z").getTime() / 1000);
    commit("incomplete", "2027-04-05T12:10:00Z");
    expect(progressAt()).toBe(at("2027-04-05T12:05:00Z").getTime() / 1000);
    expect(courseProgress(db, ids.gus, scormCourse.id).completed_lessons).toBe(0);
    expect(completionStatus(db, ids.gus, scormCourse.id, after)).toMatchObject({ cycle: 1, expired: true });
    // ...completing it again does, as a second cycle with a new expiry.
    expect(commit("completed", "2027-04-06T12:00:00Z")).toMatchObject({ ok: true, lessonCompleted: true, courseCompleted: true });
    expect(completionStatus(db, ids.gus, scormCourse.id, at("2027-04-06T13:00:00Z"))).toMatchObject({
      cycle: 2,
      expiresOn: "2028-04-06",
      expired: false,
    });
  });
});
