import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { assignPath } from "~/models/paths/assignments.server";
import { reassignExpiring, recertificationDue } from "~/models/recertification.server";
import {
  courseCompletions,
  courses,
  learningPaths,
  pathAssignmentPeople,
  pathEnrolments,
  pathStepCourses,
  pathSteps,
  users,
} from "../../db/tenant";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { ruleViewers } from "../helpers/viewers";

/**
 * Learning paths re-assigned before their completion expires (issue 49; app/models/paths/recertification.server.ts),
 * by the recertification job that re-assigns courses: `reassign_days_before` days before the expiry day (the
 * organization's local day), the assigned holder's enrolment starts its next cycle, their assignment is due again on
 * the expiry day, and each course of the path opens a renewal; once per expiry. Someone who left the assignment, or
 * completed the path without being assigned it, is not chased.
 */
const tenant = tenantDatabasePerTest("lectern-path-recertification-");
const EXPIRES = "2027-03-31";
const at = (iso: string) => new Date(iso);

function setUp() {
  const { db } = tenant;
  const person = (email: string) => db.insert(users).values({ email, firstName: "P", lastName: "P", role: "learner" }).returning().get().id;
  const [held, left, unassigned] = ["held@acme.test", "left@acme.test", "free@acme.test"].map(person);
  const course = db.insert(courses).values({ title: "Safety", published: true }).returning().get().id;
  const path = db
    .insert(learningPaths)
    .values({ title: "Yearly", published: true, validityMonths: 12, reassignDaysBefore: 30 })
    .returning()
    .get().id;
  const step = db.insert(pathSteps).values({ pathId: path, position: 0, kind: "course", required: 1 }).returning().get().id;
  db.insert(pathStepCourses).values({ stepId: step, courseId: course, position: 0 }).run();
  const { admin } = ruleViewers(db, { loner: held, member: held, groupIds: [] });
  for (const userId of [held, left])
    expect(assignPath(db, admin, { pathId: path, target: { kind: "person", userId }, due: { kind: "days", days: 30 } }).ok).toBe(true);
  // All three hold a completion of the path expiring on 31 March 2027; Left's assignment is history.
  const done = at("2026-03-31T10:00:00Z");
  for (const userId of [held, left, unassigned]) {
    db.insert(courseCompletions).values({ userId, courseId: course, completedAt: done }).run();
    db.insert(pathEnrolments)
      .values({ pathId: path, userId, enrolledAt: done, completedAt: done, expiresOn: EXPIRES })
      .onConflictDoUpdate({ target: [pathEnrolments.pathId, pathEnrolments.userId], set: { completedAt: done, expiresOn: EXPIRES } })
      .run();
  }
  db.update(pathAssignmentPeople).set({ completedAt: done }).run();
  db.update(pathAssignmentPeople).set({ leftAt: done }).where(eq(pathAssignmentPeople.userId, left)).run();
  return { held, left, unassigned, course, path };
}

describe("a learning path's recertification", () => {
  it("re-assigns its assigned holders 30 days before their completion expires, once", async () => {
    const { db } = tenant;
    const { held, left, unassigned, course, path } = setUp();
    // 28 February in Copenhagen is 31 days before: nobody yet.
    const early = at("2027-02-28T12:00:00Z");
    expect(recertificationDue(db, early)).toBe(false);
    expect(await reassignExpiring(db, { now: early })).toEqual({ reassigned: 0, paths: 0 });
    const now = at("2027-03-01T12:00:00Z");
    expect(recertificationDue(db, now)).toBe(true);
    expect(await reassignExpiring(db, { now })).toEqual({ reassigned: 0, paths: 1 });
    expect(await reassignExpiring(db, { now })).toEqual({ reassigned: 0, paths: 0 });
    expect(recertificationDue(db, now)).toBe(false);

    const enrolment = (userId: number) =>
      db
        .select()
        .from(pathEnrolments)
        .where(and(eq(pathEnrolments.pathId, path), eq(pathEnrolments.userId, userId)))
        .get();
    expect(enrolment(held)).toMatchObject({ cycle: 2, completedAt: null, expiresOn: null, enrolledAt: now });
    const row = db.select().from(pathAssignmentPeople).where(eq(pathAssignmentPeople.userId, held)).get();
    expect(row).toMatchObject({ dueOn: EXPIRES, completedAt: null, assignedAt: now });
    const completion = db
      .select()
      .from(courseCompletions)
      .where(and(eq(courseCompletions.userId, held), eq(courseCompletions.courseId, course)))
      .get();
    expect(completion?.renewalStartedAt).toEqual(now);
    // The others keep their completion as it was.
    for (const userId of [left, unassigned]) expect(enrolment(userId)).toMatchObject({ cycle: 1, expiresOn: EXPIRES });
  });

  it("does not re-assign a one-month path the day it is done, whatever days before it was given", async () => {
    const { db } = tenant;
    const { held, path } = setUp();
    db.update(learningPaths).set({ validityMonths: 1, reassignDaysBefore: 30 }).where(eq(learningPaths.id, path)).run();
    // Valid to 31 March: 30 days before is 1 March; capped at 27 (a month counted as 28 days, less one), 4 March.
    db.update(pathEnrolments).set({ expiresOn: "2027-03-31" }).where(eq(pathEnrolments.userId, held)).run();
    expect(recertificationDue(db, at("2027-03-01T12:00:00Z"))).toBe(false);
    expect(recertificationDue(db, at("2027-03-04T12:00:00Z"))).toBe(true);
  });
});
