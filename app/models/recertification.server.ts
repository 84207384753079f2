import { and, asc, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { toSeconds } from "../../db/prepared";
import { courseCompletionHistory, courseCompletions, recertifications, type Certificate, type Course } from "../../db/tenant";
import { courseAccess } from "../access/courses";
import type { Viewer } from "../access/viewer";
import { addDays, dayIn } from "../utils/calendar";
import { localToday } from "./assignment.server";
import type { JobContext } from "./clone.server";
import { completionOf, isExpired, openRenewal } from "./completion-cycle.server";
import { pathRecertificationDue, reassignExpiringPaths } from "./paths/recertification.server";
import { tenantTimeZone } from "./time-zone.server";

/**
 * Recertification (issue 34; docs/decisions/035-recertification.md): a course whose completion is valid N
 * months (courses.validity_months) gives each completion an expiry day (app/models/completion-cycle.server.ts).
 * `reassignDays` (courses.reassign_days_before) before it, the background job (`RECERTIFICATION_JOB`,
 * scheduled by server/recertification.ts) assigns the course again to its holders who are assigned it: their
 * assignment rows start a new cycle (due on the expiry day, not started), and a renewal opens so the course is
 * taken again. Once per person, course and expiry day: the `recertifications` row is the key. People who left
 * the assignment's group, whose assignment was taken back, or whose account is disabled are not re-assigned.
 * Someone who completed a course without being assigned it is not chased: their completion shows as expired
 * after its day, and the course page lets them take it again.
 */

export const RECERTIFICATION_JOB = "recertification.reassign";

export { isExpired } from "./completion-cycle.server";

// ------------------------------------------------------------------------------------------------
// Re-assignment (the job)
// ------------------------------------------------------------------------------------------------

interface Candidate {
  userId: number;
  courseId: number;
  expiresOn: string;
  cycle: number;
}

/**
 * Completions whose re-assignment day has come on `today` and that were not re-assigned for this expiry yet:
 * of a course that still has a validity, held by an enabled person who has an assignment of the course they
 * have not left.
 */
function dueForReassignment(db: TenantConn, today: string, limit: number): Candidate[] {
  // From the courses with a validity (a cross join keeps them the outer loop), each one's completions read
  // by the (course, expiry) index up to its day.
  return db.all<Candidate>(sql`select cc.user_id as userId, cc.course_id as courseId, cc.expires_on as expiresOn, cc.cycle as cycle
    from courses c
    cross join ${courseCompletions} cc on cc.course_id = c.id
      and cc.expires_on is not null and cc.expires_on <= date(${today}, '+' || c.reassign_days_before || ' days')
    join users u on u.id = cc.user_id
    where c.validity_months is not null
      and u.disabled_at is null
      and not exists (select 1 from ${recertifications} r where r.user_id = cc.user_id and r.course_id = cc.course_id and r.expires_on = cc.expires_on)
      and exists (select 1 from assignment_people ap join assignments a on a.id = ap.assignment_id
        where a.course_id = cc.course_id and ap.user_id = cc.user_id and ap.left_at is null)
    order by cc.expires_on, cc.user_id, cc.course_id
    limit ${limit}`);
}

/**
 * Whether anyone is due for re-assignment of a course or a learning path on the clock `now` (the scheduler's
 * cheap look before queueing the job).
 */
export function recertificationDue(db: TenantConn, now = new Date()) {
  const today = localToday(db, now);
  return dueForReassignment(db, today, 1).length > 0 || pathRecertificationDue(db, today);
}

/**
 * Re-assigns one person for one expiry, in one transaction: the key row first (a second run, or a concurrent
 * one, stops there), then their done assignment rows of the course start a new cycle due on the expiry day,
 * and a renewal opens. Returns whether this call did it.
 */
function reassign(db: TenantConn, c: Candidate, now: Date) {
  return db.transaction((tx) => {
    const key = tx
      .insert(recertifications)
      .values({ userId: c.userId, courseId: c.courseId, expiresOn: c.expiresOn, cycle: c.cycle, reassignedAt: now, dueOn: c.expiresOn })
      .onConflictDoNothing()
      .run();
    if (key.changes === 0) return false;
    tx.run(sql`update assignment_people set assigned_at = ${toSeconds(now)}, due_on = ${c.expiresOn}, completed_at = null, cycle = cycle + 1
      where user_id = ${c.userId} and left_at is null and completed_at is not null
      and assignment_id in (select id from assignments where course_id = ${c.courseId})`);
    openRenewal(tx, { userId: c.userId, courseId: c.courseId, now });
    return true;
  });
}

/**
 * Re-assigns everyone due on the clock `now`, a person at a time (each its own transaction, `pause` between
 * them so requests are answered meanwhile): courses, then learning paths (app/models/paths/recertification.server.ts).
 * Safe to run again or after an interruption: what was done is not done twice. Returns how many were
 * re-assigned by this run.
 */
export async function reassignExpiring(db: TenantConn, { now = new Date(), pause }: { now?: Date; pause?: () => Promise<void> } = {}) {
  const today = localToday(db, now);
  const tried = new Set<string>();
  let reassigned = 0;
  for (;;) {
    const batch = dueForReassignment(db, today, 100).filter((c) => !tried.has(`${c.userId}:${c.courseId}:${c.expiresOn}`));
    if (batch.length === 0) return { reassigned, paths: await reassignExpiringPaths(db, today, now, pause) };
    for (const c of batch) {
      tried.add(`${c.userId}:${c.courseId}:${c.expiresOn}`);
      if (reassign(db, c, now)) reassigned++;
      if (pause) await pause();
    }
  }
}

/** The job (server/jobs.ts): re-assigns whoever is due now. */
export async function reassignJob({ db, pause }: JobContext) {
  return reassignExpiring(db, { now: new Date(), pause });
}

// ------------------------------------------------------------------------------------------------
// Reading: expiring completions, history
// ------------------------------------------------------------------------------------------------

export interface ExpiringCompletion {
  userId: number;
  courseId: number;
  /** When the current completion was recorded, and its local day in the organization's zone. */
  completedAt: Date;
  completedOn: string;
  /** The last local day it is valid on. */
  expiresOn: string;
  /** 1 for a first completion, more after renewals. */
  cycle: number;
  /** Whether a renewal is open (re-assigned, or taken again after expiry). */
  renewing: boolean;
}

/**
 * The current completions that expire before the local day `before` (exclusive) and, with `from`, on or
 * after it (inclusive): `{ from: today, before: addDays(today, 31) }` are those still valid today that
 * expire within 30 days; without `from` the expired ones come too. Optionally of one course and of some
 * people. Ordered by expiry day, person, course. Reads `course_completions` by its expiry indexes.
 */
export function expiringCompletions(
  db: TenantConn,
  { before, from, courseId, userIds }: { before: string; from?: string; courseId?: number; userIds?: readonly number[] },
): ExpiringCompletion[] {
  const zone = tenantTimeZone(db);
  const rows = db
    .select()
    .from(courseCompletions)
    .where(
      and(
        sql`${courseCompletions.expiresOn} is not null`,
        sql`${courseCompletions.expiresOn} < ${before}`,
        from === undefined ? undefined : sql`${courseCompletions.expiresOn} >= ${from}`,
        courseId === undefined ? undefined : eq(courseCompletions.courseId, courseId),
        userIds === undefined ? undefined : sql`${courseCompletions.userId} in (select value from json_each(${JSON.stringify(userIds)}))`,
      ),
    )
    .orderBy(asc(courseCompletions.expiresOn), asc(courseCompletions.userId), asc(courseCompletions.courseId))
    .all();
  return rows.map((r) => ({
    userId: r.userId,
    courseId: r.courseId,
    completedAt: r.completedAt,
    completedOn: dayIn(zone, r.completedAt),
    expiresOn: r.expiresOn!,
    cycle: r.cycle,
    renewing: r.renewalStartedAt !== null,
  }));
}

/** Those still valid on `today` that expire within `days` days (today included): the report's "expiring within 30 days". */
export function expiringWithin(
  db: TenantConn,
  { today, days = 30, courseId, userIds }: { today: string; days?: number; courseId?: number; userIds?: readonly number[] },
) {
  return expiringCompletions(db, { from: today, before: addDays(today, days + 1), courseId, userIds });
}

export interface CompletionRecord {
  courseId: number;
  cycle: number;
  completedAt: Date;
  expiresOn: string | null;
  /** The current completion (the others were renewed since). */
  current: boolean;
}

/** Every completion a person made (of one course or all), earlier cycles included, newest first. */
export function completionHistory(db: TenantConn, userId: number, { courseId }: { courseId?: number } = {}): CompletionRecord[] {
  const current = db
    .select()
    .from(courseCompletions)
    .where(and(eq(courseCompletions.userId, userId), courseId === undefined ? undefined : eq(courseCompletions.courseId, courseId)))
    .all()
    .map((r) => ({ courseId: r.courseId, cycle: r.cycle, completedAt: r.completedAt, expiresOn: r.expiresOn, current: true }));
  const earlier = db
    .select()
    .from(courseCompletionHistory)
    .where(
      and(eq(courseCompletionHistory.userId, userId), courseId === undefined ? undefined : eq(courseCompletionHistory.courseId, courseId)),
    )
    .all()
    .map((r) => ({ courseId: r.courseId, cycle: r.cycle, completedAt: r.completedAt, expiresOn: r.expiresOn, current: false }));
  return [...current, ...earlier].sort((a, b) => b.completedAt.getTime() - a.completedAt.getTime() || b.cycle - a.cycle);
}

// ------------------------------------------------------------------------------------------------
// The learner's side
// ------------------------------------------------------------------------------------------------

export interface CompletionStatus {
  completedOn: string;
  cycle: number;
  expiresOn: string | null;
  expired: boolean;
  renewing: boolean;
  /** Expired and not being renewed: the course page offers to take it again. */
  canRetake: boolean;
}

/** A person's completion of a course on the clock `now`, for the course page; null when never completed. */
export function completionStatus(db: TenantConn, userId: number, courseId: number, now = new Date()): CompletionStatus | null {
  const c = completionOf(db, userId, courseId);
  if (!c) return null;
  const expired = isExpired(c.expiresOn, localToday(db, now));
  const renewing = c.renewalStartedAt !== null;
  return {
    completedOn: dayIn(tenantTimeZone(db), c.completedAt),
    cycle: c.cycle,
    expiresOn: c.expiresOn,
    expired,
    renewing,
    canRetake: expired && !renewing,
  };
}

/** A certificate's validity on the clock `now`: its expiry day (null: for good) and whether it has passed. */
export function certificateValidity(db: TenantConn, certificate: Pick<Certificate, "expiresOn">, now = new Date()) {
  return { expiresOn: certificate.expiresOn, expired: isExpired(certificate.expiresOn, localToday(db, now)) };
}

export type RetakeResult = { ok: true } | { ok: false; status: 403 | 409; message: string };

/**
 * The learner takes an expired course again (the course page's button): a renewal opens, so its lessons
 * count again and completing it gives a new completion and certificate. Only a completion that has expired,
 * and only when the access policy lets them open the course.
 */
export function retakeCourse(db: TenantConn, viewer: Viewer, course: Course, now = new Date()): RetakeResult {
  const person = viewer.person;
  if (!person || !courseAccess(db, viewer, course).allowed) return { ok: false, status: 403, message: "errors.forbidden" };
  const status = completionStatus(db, person.id, course.id, now);
  if (!status?.expired) return { ok: false, status: 409, message: "recertification.errors.notExpired" };
  db.transaction((tx) => openRenewal(tx, { userId: person.id, courseId: course.id, now }));
  return { ok: true };
}
