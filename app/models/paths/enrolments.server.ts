import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { preparedOnce } from "../../../db/prepared";
import {
  courseCompletions,
  learningPaths,
  pathEnrolments,
  pathStepCourses,
  pathSteps,
  type PathEnrolment,
  type PathStep,
} from "../../../db/tenant";
import { expiryDay, openRenewal } from "../completion-cycle.server";
import { dayIn } from "../../utils/calendar";
import { publish, type CourseCompleted } from "../events.server";
import { tenantTimeZone } from "../time-zone.server";
import { pathProgress, type PathProgress, type StepRule } from "./progress";

/*
 * A person on a learning path (issue 49, docs/decisions/045-learning-paths.md): enrolled by themselves or by an
 * assignment; their progress worked out from the path's steps and their course completions (progress.ts); the
 * path done, once, by the course completion that finishes its last step, in that completion's transaction.
 * Who may enrol, and in what, is app/access's to say before these are called.
 */

/** A step as its path's pages show it: its rule, and its kind and title (a choice's own). */
export type PathStepRule = StepRule & { kind: PathStep["kind"]; title: string };

/**
 * A path's steps in order, each with its courses in order: two prepared reads (db/prepared.ts), as the learner's
 * home and course pages make them for each path the person is on.
 */
export function stepRules(db: TenantConn, pathId: number): PathStepRule[] {
  const steps = preparedOnce(db, "paths.steps", () =>
    db
      .select({
        id: pathSteps.id,
        required: pathSteps.required,
        delayDays: pathSteps.delayDays,
        kind: pathSteps.kind,
        title: pathSteps.title,
      })
      .from(pathSteps)
      .where(eq(pathSteps.pathId, sql.placeholder("pathId")))
      .orderBy(asc(pathSteps.position))
      .prepare(),
  ).all({ pathId });
  if (steps.length === 0) return [];
  const courses = preparedOnce(db, "paths.stepCourses", () =>
    db
      .select({ stepId: pathStepCourses.stepId, courseId: pathStepCourses.courseId })
      .from(pathStepCourses)
      .innerJoin(pathSteps, eq(pathSteps.id, pathStepCourses.stepId))
      .where(eq(pathSteps.pathId, sql.placeholder("pathId")))
      .orderBy(asc(pathStepCourses.position), asc(pathStepCourses.courseId))
      .prepare(),
  ).all({ pathId });
  return steps.map((s) => ({
    id: s.id,
    required: s.required,
    delayDays: s.delayDays,
    kind: s.kind,
    title: s.title,
    courseIds: courses.filter((c) => c.stepId === s.id).map((c) => c.courseId),
  }));
}

/** Enrols a person (again: nothing changes); answers the enrolment. */
export function enrolInPath(
  db: TenantConn,
  { pathId, userId, source, now = new Date() }: { pathId: number; userId: number; source: "self" | "assigned"; now?: Date },
): PathEnrolment {
  db.insert(pathEnrolments).values({ pathId, userId, source, enrolledAt: now }).onConflictDoNothing().run();
  return db
    .select()
    .from(pathEnrolments)
    .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId)))
    .get()!;
}

/** When a person completed each course they have completed (the current completion of each): one prepared read. */
export function completionTimes(db: TenantConn, userId: number): Map<number, Date> {
  const rows = preparedOnce(db, "paths.completionTimes", () =>
    db
      .select({ courseId: courseCompletions.courseId, at: courseCompletions.completedAt })
      .from(courseCompletions)
      .where(eq(courseCompletions.userId, sql.placeholder("userId")))
      .prepare(),
  ).all({ userId });
  return new Map(rows.map((c) => [c.courseId, c.at]));
}

/**
 * The course completions that count on an enrolment: all of them in its first cycle (a course done before enrolling
 * counts), only those made since a renewal began in a later one (the path is taken again: renewPath).
 */
export function countedCompletions(completed: ReadonlyMap<number, Date>, enrolment: { cycle?: number; enrolledAt: Date }) {
  if ((enrolment.cycle ?? 1) <= 1) return completed;
  const since = enrolment.enrolledAt.getTime();
  // After the renewal began: a completion of that same second is the earlier cycle's (times are kept to the second).
  return new Map([...completed].filter(([, at]) => at.getTime() > since));
}

/** A person's progress on a path from their enrolment (read already), its steps and their completions. */
export function progressOf(
  db: TenantConn,
  enrolment: Pick<PathEnrolment, "pathId" | "userId" | "enrolledAt"> & { cycle?: number },
  { now = new Date(), completed = completionTimes(db, enrolment.userId) }: { now?: Date; completed?: ReadonlyMap<number, Date> } = {},
): PathProgress {
  return pathProgress(stepRules(db, enrolment.pathId), {
    enrolledAt: enrolment.enrolledAt,
    completedAt: countedCompletions(completed, enrolment),
    now,
  });
}

/** A person's progress on a path they are enrolled in, or null when they are not. */
export function progressOnPath(db: TenantConn, { pathId, userId, now = new Date() }: { pathId: number; userId: number; now?: Date }) {
  const enrolment = db
    .select()
    .from(pathEnrolments)
    .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId)))
    .get();
  if (!enrolment) return null;
  return { enrolment, progress: progressOf(db, enrolment, { now }) };
}

/**
 * Marks a person's path done at `doneAt` (with its expiry when the path is valid for some months) unless it is
 * marked already, and publishes `pathCompleted` in the same transaction: its certificate, points and badge follow
 * (app/models/paths/rewards.server.ts). Answers whether this call marked it.
 */
function markDone(tx: TenantConn, { pathId, userId, doneAt }: { pathId: number; userId: number; doneAt: Date }): boolean {
  const months = tx.select({ months: learningPaths.validityMonths }).from(learningPaths).where(eq(learningPaths.id, pathId)).get()?.months;
  const marked = tx
    .update(pathEnrolments)
    .set({ completedAt: doneAt, expiresOn: expiryDay(tenantTimeZone(tx), doneAt, months ?? null) })
    .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId), isNull(pathEnrolments.completedAt)))
    .returning({ cycle: pathEnrolments.cycle })
    .get();
  if (!marked) return false;
  publish(tx, "pathCompleted", { userId, pathId, at: doneAt, cycle: marked.cycle });
  return true;
}

/**
 * A person's progress on a path, with its completion recorded when the path is done but was not marked: its last
 * step opened after its delay with every course already completed, so no course completion marked it. Read when
 * the person looks at the path (its page, /api's progress).
 */
export function settledProgressOnPath(
  db: TenantConn,
  { pathId, userId, now = new Date() }: { pathId: number; userId: number; now?: Date },
) {
  const found = progressOnPath(db, { pathId, userId, now });
  if (!found || found.enrolment.completedAt || !found.progress.doneAt) return found;
  const doneAt = found.progress.doneAt;
  db.transaction((tx) => markDone(tx, { pathId, userId, doneAt }));
  return progressOnPath(db, { pathId, userId, now });
}

/**
 * After a course completion: every path of that course the person is enrolled in and has not finished, done now
 * if its last step is. Marks each once (a completion made at the same moment elsewhere finds it marked) and
 * answers the paths it marked.
 */
export function completePathsAfterCourse(tx: TenantConn, { userId, courseId, at }: CourseCompleted): number[] {
  const open = tx
    .selectDistinct({ pathId: pathEnrolments.pathId })
    .from(pathEnrolments)
    .innerJoin(pathSteps, eq(pathSteps.pathId, pathEnrolments.pathId))
    .innerJoin(pathStepCourses, eq(pathStepCourses.stepId, pathSteps.id))
    .where(and(eq(pathEnrolments.userId, userId), isNull(pathEnrolments.completedAt), eq(pathStepCourses.courseId, courseId)))
    .all();
  const done: number[] = [];
  for (const { pathId } of open) {
    const found = progressOnPath(tx, { pathId, userId, now: at });
    if (found?.progress.doneAt && markDone(tx, { pathId, userId, doneAt: found.progress.doneAt })) done.push(pathId);
  }
  return done;
}

/** Whether a person's completion of a path has expired on the organization's `today` (recertification). */
export function pathExpired(enrolment: Pick<PathEnrolment, "completedAt" | "expiresOn">, today: string) {
  return enrolment.completedAt !== null && enrolment.expiresOn !== null && enrolment.expiresOn < today;
}

/**
 * Takes a path again once its completion has expired (recertification, as a course's: decision 035): a new cycle
 * from `now`, in which only course completions made from then on count, and a renewal opened on each of its courses
 * the person has completed, so their lessons count again. The earlier cycle's certificate stays. Answers false when
 * there is nothing to renew (not enrolled, not done, or not expired).
 */
export function renewPath(db: TenantConn, { pathId, userId, now = new Date() }: { pathId: number; userId: number; now?: Date }): boolean {
  const enrolment = db
    .select()
    .from(pathEnrolments)
    .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId)))
    .get();
  if (!enrolment || !pathExpired(enrolment, dayIn(tenantTimeZone(db), now))) return false;
  const courseIds = [...new Set(stepRules(db, pathId).flatMap((r) => r.courseIds))];
  return db.transaction((tx) => {
    const renewed = tx
      .update(pathEnrolments)
      .set({ cycle: enrolment.cycle + 1, completedAt: null, expiresOn: null, enrolledAt: now })
      .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId), eq(pathEnrolments.cycle, enrolment.cycle)))
      .run();
    if (renewed.changes !== 1) return false;
    for (const courseId of courseIds) openRenewal(tx, { userId, courseId, now });
    return true;
  });
}
