import { beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import {
  badges,
  certificates,
  courseCompletions,
  courses,
  learningPaths,
  pathStepCourses,
  pathSteps,
  pointsLedger,
  userBadges,
  users,
} from "../../db/tenant";
import { ensureLeaderboard } from "~/models/points.server";
import {
  completePathsAfterCourse,
  enrolInPath,
  progressOnPath,
  renewPath,
  settledProgressOnPath,
  stepRules,
} from "~/models/paths/enrolments.server";
import { subscribeLearningEvents } from "~/models/subscribers.server";
import { tenantDatabasePerTest } from "../helpers/tenant-database";

/**
 * Learning paths on a real organization database (issue 49): steps read in order, enrolment, progress from the
 * person's course completions, and the path done once by the completion that finishes it, in every path the
 * course is in.
 */
subscribeLearningEvents();
const tenant = tenantDatabasePerTest("lectern-path-enrolments-");
const DAY = 86_400_000;
const T0 = new Date("2026-11-01T09:00:00Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY);
let userId: number;
let courseIds: number[];

function path(title: string, steps: Array<{ courseIds: number[]; required?: number; delayDays?: number }>) {
  const { db } = tenant;
  const made = db.insert(learningPaths).values({ title, published: true }).returning().get();
  for (const [position, step] of steps.entries()) {
    const row = db
      .insert(pathSteps)
      .values({
        pathId: made.id,
        position,
        kind: step.courseIds.length > 1 ? "choice" : "course",
        required: step.required ?? 1,
        delayDays: step.delayDays ?? 0,
      })
      .returning()
      .get();
    db.insert(pathStepCourses)
      .values(step.courseIds.map((courseId, i) => ({ stepId: row.id, courseId, position: i })))
      .run();
  }
  return made.id;
}

function complete(courseId: number, day: number) {
  tenant.db
    .insert(courseCompletions)
    .values({ userId, courseId, completedAt: at(day) })
    .run();
  return completePathsAfterCourse(tenant.db, { userId, courseId, at: at(day) });
}

beforeEach(() => {
  const { db } = tenant;
  userId = db.insert(users).values({ email: "anna@acme.test", firstName: "Anna", lastName: "A", role: "learner" }).returning().get().id;
  courseIds = [1, 2, 3, 4].map(
    (n) =>
      db
        .insert(courses)
        .values({ title: `C${n}`, published: true })
        .returning()
        .get().id,
  );
});

describe("a learning path's enrolments", () => {
  it("reads its steps in order, each with its courses", () => {
    const id = path("Onboarding", [{ courseIds: [courseIds[0]] }, { courseIds: [courseIds[1], courseIds[2]], required: 1, delayDays: 3 }]);
    expect(stepRules(tenant.db, id).map((s) => ({ courses: s.courseIds, required: s.required, delay: s.delayDays }))).toEqual([
      { courses: [courseIds[0]], required: 1, delay: 0 },
      { courses: [courseIds[1], courseIds[2]], required: 1, delay: 3 },
    ]);
  });

  it("enrols once, and works out progress from the person's completions", () => {
    const id = path("Onboarding", [{ courseIds: [courseIds[0]] }, { courseIds: [courseIds[1]] }]);
    expect(progressOnPath(tenant.db, { pathId: id, userId })).toBeNull();
    enrolInPath(tenant.db, { pathId: id, userId, source: "self", now: T0 });
    const again = enrolInPath(tenant.db, { pathId: id, userId, source: "assigned", now: at(5) });
    expect(again).toMatchObject({ source: "self", enrolledAt: T0 });
    complete(courseIds[0], 1);
    const found = progressOnPath(tenant.db, { pathId: id, userId, now: at(2) })!;
    expect(found.progress.steps.map((s) => s.state)).toEqual(["done", "open"]);
    expect(found.progress.next).toMatchObject({ courseId: courseIds[1] });
  });

  it("is done by the completion that finishes its last step, once, in every path of the course", () => {
    const a = path("A", [{ courseIds: [courseIds[0]] }, { courseIds: [courseIds[1]] }]);
    const b = path("B", [{ courseIds: [courseIds[1]] }]);
    const other = path("Not enrolled", [{ courseIds: [courseIds[1]] }]);
    for (const id of [a, b]) enrolInPath(tenant.db, { pathId: id, userId, source: "assigned", now: T0 });
    expect(complete(courseIds[1], 1)).toEqual([b]);
    expect(complete(courseIds[0], 2)).toEqual([a]);
    // The same completion seen again (a second event at the same moment) finds both marked.
    expect(completePathsAfterCourse(tenant.db, { userId, courseId: courseIds[1], at: at(2) })).toEqual([]);
    expect(progressOnPath(tenant.db, { pathId: a, userId })!.enrolment.completedAt).toEqual(at(2));
    expect(progressOnPath(tenant.db, { pathId: b, userId })!.enrolment.completedAt).toEqual(at(1));
    expect(progressOnPath(tenant.db, { pathId: other, userId })).toBeNull();
  });

  it("is not done while its last step waits out its delay", () => {
    const id = path("Spaced", [{ courseIds: [courseIds[0]] }, { courseIds: [courseIds[1]], delayDays: 7 }]);
    enrolInPath(tenant.db, { pathId: id, userId, source: "self", now: T0 });
    expect(complete(courseIds[1], 1)).toEqual([]);
    expect(complete(courseIds[0], 2)).toEqual([]);
    // Both courses are done; the path is, as of the day its second step opens, and marked when next looked at.
    expect(progressOnPath(tenant.db, { pathId: id, userId, now: at(9) })!.progress.doneAt).toEqual(at(9));
    expect(settledProgressOnPath(tenant.db, { pathId: id, userId, now: at(5) })!.enrolment.completedAt).toBeNull();
    expect(settledProgressOnPath(tenant.db, { pathId: id, userId, now: at(10) })!.enrolment.completedAt).toEqual(at(9));
  });

  it("gives its certificate, points and badge once, when done, and an expiry when valid for some months", () => {
    const { db } = tenant;
    ensureLeaderboard(db);
    const badge = db.insert(badges).values({ name: "Graduate", rule: "points", threshold: 1_000_000 }).returning().get().id;
    const id = path("Certified", [{ courseIds: [courseIds[0]] }]);
    db.update(learningPaths)
      .set({ allowCertificates: true, points: 250, badgeId: badge, validityMonths: 12 })
      .where(eq(learningPaths.id, id))
      .run();
    const plain = path("Plain", [{ courseIds: [courseIds[0]] }]);
    for (const p of [id, plain]) enrolInPath(db, { pathId: p, userId, source: "self", now: T0 });
    expect(complete(courseIds[0], 1).sort()).toEqual([id, plain].sort());
    completePathsAfterCourse(db, { userId, courseId: courseIds[0], at: at(1) });
    const issued = db.select().from(certificates).where(eq(certificates.userId, userId)).all();
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ issuedForPathId: id, courseId: null, courseTitle: "Certified", cycle: 1, expiresOn: "2027-11-02" });
    expect(progressOnPath(db, { pathId: id, userId })!.enrolment.expiresOn).toBe("2027-11-02");
    const points = db
      .select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.activity, "path_completed")))
      .all();
    // The path's own 250, and the "path completed" activity's 100 for the path that sets none.
    expect(points.map((p) => [p.ref, p.points]).sort()).toEqual(
      [
        [`path:${id}`, 250],
        [`path:${plain}`, 100],
      ].sort(),
    );
    expect(
      db
        .select()
        .from(userBadges)
        .where(eq(userBadges.userId, userId))
        .all()
        .map((b) => b.badgeId),
    ).toEqual([badge]);
  });

  it("is taken again once its completion expires: a new cycle where only new completions count, and its own certificate", () => {
    const { db } = tenant;
    ensureLeaderboard(db);
    const id = path("Yearly", [{ courseIds: [courseIds[0]] }]);
    db.update(learningPaths).set({ allowCertificates: true, validityMonths: 12 }).where(eq(learningPaths.id, id)).run();
    enrolInPath(db, { pathId: id, userId, source: "self", now: T0 });
    expect(complete(courseIds[0], 1)).toEqual([id]);
    // Not expired yet: nothing to renew.
    expect(renewPath(db, { pathId: id, userId, now: at(30) })).toBe(false);
    const renewedAt = at(400);
    expect(renewPath(db, { pathId: id, userId, now: renewedAt })).toBe(true);
    const renewed = progressOnPath(db, { pathId: id, userId, now: renewedAt })!;
    expect(renewed.enrolment).toMatchObject({ cycle: 2, completedAt: null, expiresOn: null, enrolledAt: renewedAt });
    // The course completed a year ago no longer counts; its renewal is open, so its lessons count again.
    expect(renewed.progress.percent).toBe(0);
    expect(db.select().from(courseCompletions).where(eq(courseCompletions.userId, userId)).get()?.renewalStartedAt).toEqual(renewedAt);
    // Completed again: the path is done in its second cycle, with a second certificate.
    db.update(courseCompletions)
      .set({ completedAt: at(401), cycle: 2, renewalStartedAt: null })
      .where(eq(courseCompletions.userId, userId))
      .run();
    expect(completePathsAfterCourse(db, { userId, courseId: courseIds[0], at: at(401) })).toEqual([id]);
    expect(
      db
        .select({ cycle: certificates.cycle })
        .from(certificates)
        .where(eq(certificates.issuedForPathId, id))
        .all()
        .map((c) => c.cycle),
    ).toEqual([1, 2]);
  });
});
