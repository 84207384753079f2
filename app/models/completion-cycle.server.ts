import { and, eq, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce, toSeconds } from "../../db/prepared";
import { courseCompletionHistory, courseCompletions, courses, type CourseCompletion } from "../../db/tenant";
import { addMonths, dayIn } from "../utils/calendar";
import { tenantTimeZone } from "./time-zone.server";

/**
 * Completion cycles (issue 34, recertification; docs/decisions/035-recertification.md). The low part, kept
 * free of the learning, quiz and certificate models so that they can call it: how a completion is recorded
 * (first, or again after a renewal), its expiry day, and opening a renewal. What decides when a renewal
 * opens (the re-assignment job, taking an expired course again) is app/models/recertification.server.ts.
 *
 * A person's completion of a course is one row of `course_completions` (their latest). A course with a
 * validity gives it an expiry day: the completion's local day in the organization's zone plus the course's
 * months (the last day it is valid on). A renewal sets `renewal_started_at` and clears the completed mark
 * of the person's lessons of the course, so the course is taken again from the start; completing it then
 * moves the earlier completion to `course_completion_history`, counts the cycle up and gives a new expiry.
 */

/** The local day a completion at `at` is valid through, for a course valid `months` months; null: for good. */
export function expiryDay(timeZone: string, at: Date, months: number | null) {
  return months ? addMonths(dayIn(timeZone, at), months) : null;
}

/** Whether a completion valid through `expiresOn` has expired on the local day `today`. */
export function isExpired(expiresOn: string | null, today: string) {
  return expiresOn !== null && expiresOn < today;
}

function courseValidity(tx: TenantConn, courseId: number) {
  return (
    preparedOnce(tx, "cycle.validity", () =>
      tx
        .select({ months: courses.validityMonths })
        .from(courses)
        .where(eq(courses.id, sql.placeholder("courseId")))
        .prepare(),
    ).get({ courseId })?.months ?? null
  );
}

export function completionOf(db: TenantConn, userId: number, courseId: number): CourseCompletion | undefined {
  return preparedOnce(db, "cycle.completion", () =>
    db
      .select()
      .from(courseCompletions)
      .where(and(eq(courseCompletions.userId, sql.placeholder("userId")), eq(courseCompletions.courseId, sql.placeholder("courseId"))))
      .prepare(),
  ).get({ userId, courseId });
}

/**
 * Records that the person has just completed every lesson of the course (inside the transaction that saw
 * it): their first completion, or a new cycle when a renewal is open. Returns the cycle completed, or null
 * when nothing changed (the course was already completed and no renewal is open): the caller publishes
 * `courseCompleted` only for a cycle.
 */
export function recordCourseCompletion(tx: TenantConn, { userId, courseId, now }: { userId: number; courseId: number; now: Date }) {
  const expiresOn = expiryDay(tenantTimeZone(tx), now, courseValidity(tx, courseId));
  const inserted = preparedOnce(tx, "cycle.firstCompletion", () =>
    tx
      .insert(courseCompletions)
      .values({
        userId: sql.placeholder("userId"),
        courseId: sql.placeholder("courseId"),
        completedAt: sql.placeholder("at"),
        expiresOn: sql.placeholder("expiresOn"),
      })
      .onConflictDoNothing()
      .prepare(),
  ).run({ userId, courseId, at: now, expiresOn });
  if (inserted.changes > 0) return 1;
  const current = completionOf(tx, userId, courseId);
  if (!current?.renewalStartedAt) return null;
  const cycle = current.cycle + 1;
  tx.insert(courseCompletionHistory)
    .values({ userId, courseId, cycle: current.cycle, completedAt: current.completedAt, expiresOn: current.expiresOn })
    .onConflictDoNothing()
    .run();
  tx.update(courseCompletions)
    .set({ completedAt: now, cycle, expiresOn, renewalStartedAt: null })
    .where(and(eq(courseCompletions.userId, userId), eq(courseCompletions.courseId, courseId)))
    .run();
  return cycle;
}

/**
 * When the person's current cycle of a course began: their previous completion (the latest in the history),
 * or null in the first cycle. What a cycle's certificate counts from (its quiz score).
 */
export function cycleStart(db: TenantConn, userId: number, courseId: number): Date | null {
  const row = db.get<{ at: number | null }>(
    sql`select max(completed_at) as at from ${courseCompletionHistory} where user_id = ${userId} and course_id = ${courseId}`,
  );
  return row?.at ? new Date(row.at * 1000) : null;
}

/**
 * Opens a renewal of the person's completion (the course is taken again): from `now` on, the course's
 * lessons count again, so their completed marks are cleared (positions and watch time stay; SCORM attempts
 * start afresh: `restartCourseWork`). Does nothing
 * when there is no completion or a renewal is already open. Returns whether one was opened.
 */
export function openRenewal(tx: TenantConn, { userId, courseId, now }: { userId: number; courseId: number; now: Date }) {
  const opened = tx.run(sql`update ${courseCompletions} set renewal_started_at = ${toSeconds(now)}
    where user_id = ${userId} and course_id = ${courseId} and renewal_started_at is null`);
  if (opened.changes === 0) return false;
  restartCourseWork(tx, userId, courseId);
  return true;
}

/**
 * A renewal's fresh start of the person's work in the course: the lessons' completed marks are cleared
 * (positions and watch time stay), and the course's SCORM attempts end, so the next launch of a package is a
 * new attempt (`ab-initio`, nothing stored) that must be completed again; the old attempt would report its
 * completion at the first commit. The earlier cycle stays in course_completions and its certificate.
 */
function restartCourseWork(tx: TenantConn, userId: number, courseId: number) {
  tx.run(sql`update lesson_progress set completed_at = null
    where user_id = ${userId} and course_id = ${courseId} and completed_at is not null`);
  tx.run(sql`delete from scorm_attempts where user_id = ${userId} and lesson_id in (select id from lessons where course_id = ${courseId})`);
}

/**
 * People assigned a course afresh (a new assignment, joining a group) whose completion of it has expired on
 * `today`: a renewal opens for each, so they take the course again as the assignment asks. `assigned` is
 * SQL over `assignment_people ap` choosing the rows just written; only their open rows count.
 */
export function renewExpiredAssignees(db: TenantConn, assigned: SQL, { today, now }: { today: string; now: Date }) {
  // One transaction (a savepoint inside the caller's): some callers (joining a group) write without one.
  return db.transaction((tx) => {
    const renewed = tx.all<{ userId: number; courseId: number }>(sql`update ${courseCompletions} set renewal_started_at = ${toSeconds(now)}
    where renewal_started_at is null and expires_on is not null and expires_on < ${today}
    and exists (select 1 from assignment_people ap join assignments a on a.id = ap.assignment_id
      where a.course_id = course_completions.course_id and ap.user_id = course_completions.user_id
      and ap.completed_at is null and ap.left_at is null and ${assigned})
    returning user_id as userId, course_id as courseId`);
    for (const r of renewed) restartCourseWork(tx, r.userId, r.courseId);
    return renewed.length;
  });
}

/**
 * Whether a person's lesson progress row counts as started in their current cycle: while a renewal of the
 * course is open, only progress since it began does. SQL over `lesson_progress lp`.
 */
export const progressInCycle = sql`lp.updated_at >= coalesce((select cc.renewal_started_at from course_completions cc
  where cc.user_id = lp.user_id and cc.course_id = lp.course_id), 0)`;

/**
 * When the person's open renewal of a course that shows this quiz began (the latest, if several): their
 * attempts before it belong to the earlier completion, so a passed quiz can be taken again in the renewal
 * and its retake limit counts afresh. Null when no such renewal is open.
 */
export function quizRenewalSince(db: TenantConn, quizId: number, userId: number): Date | null {
  const row = preparedOnce(db, "cycle.quizRenewal", () =>
    db
      .select({ since: sql<number | null>`max(${courseCompletions.renewalStartedAt})` })
      .from(courseCompletions)
      .where(
        and(
          eq(courseCompletions.userId, sql.placeholder("userId")),
          sql`${courseCompletions.renewalStartedAt} is not null`,
          sql`${courseCompletions.courseId} in (select l.course_id from lessons l join quiz_lessons ql on ql.lesson_id = l.id where ql.quiz_id = ${sql.placeholder("quizId")})`,
        ),
      )
      .prepare(),
  ).get({ userId, quizId });
  return row?.since ? new Date(row.since * 1000) : null;
}
