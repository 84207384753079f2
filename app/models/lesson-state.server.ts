import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { courseCompletions, lessonProgress, type Lesson } from "../../db/tenant";

/**
 * A learner's state in a lesson, one notion for every kind of lesson (video, text, image, quiz, SCORM, and
 * the kinds to come), shown alike on the course page, the player's episode list, and /api (issue 45,
 * docs/decisions/020-scorm.md "One lesson state"):
 *
 * - `completed`: the lesson's progress row is marked completed (watched or read and marked, a quiz passed,
 *   every SCO of a package complete);
 * - `in_progress`: the learner has a progress row for it written in the current cycle of the course (since
 *   the open renewal began, if one is: app/models/completion-cycle.server.ts), not completed. Whatever
 *   starts a lesson writes that row: a video's heartbeat, a SCORM package's first commit, a quiz attempt
 *   begun in the lesson (`markLessonStarted`);
 * - `not_started`: neither.
 *
 * Only `lesson_progress` and `course_completions` are read, both of which move the learner's version when
 * they change (migration 0031), so the kept learner pages (decision 039) stay right without a read of the
 * SCORM or quiz tables.
 */
export const LESSON_STATES = ["not_started", "in_progress", "completed"] as const;
export type LessonState = (typeof LESSON_STATES)[number];

export interface LessonStateRow {
  lessonId: number;
  positionSeconds: number;
  completedAt: Date | null;
  /** The row was written in the course's current cycle (always, unless a renewal is open). */
  inCycle: boolean;
}

/** The rule itself, for one lesson and its progress row (none: not started). */
export function stateOf(row: Pick<LessonStateRow, "completedAt" | "inCycle"> | undefined): LessonState {
  if (row?.completedAt) return "completed";
  return row?.inCycle ? "in_progress" : "not_started";
}

/**
 * The learner's progress rows of one course, with whether each was written in the current cycle: one
 * prepared statement, an index search on (user, course) joined to the learner's completion of the course
 * by its primary key.
 */
export function lessonStateRows(db: TenantConn, userId: number, courseId: number): Map<number, LessonStateRow> {
  const rows = preparedOnce(db, "lessonState.rows", () =>
    db
      .select({
        lessonId: lessonProgress.lessonId,
        positionSeconds: lessonProgress.positionSeconds,
        completedAt: lessonProgress.completedAt,
        inCycle: sql<number>`${lessonProgress.updatedAt} >= coalesce(${courseCompletions.renewalStartedAt}, 0)`,
      })
      .from(lessonProgress)
      .leftJoin(
        courseCompletions,
        and(eq(courseCompletions.userId, sql.placeholder("userId")), eq(courseCompletions.courseId, sql.placeholder("courseId"))),
      )
      .where(and(eq(lessonProgress.userId, sql.placeholder("userId")), eq(lessonProgress.courseId, sql.placeholder("courseId"))))
      .prepare(),
  ).all({ userId, courseId });
  return new Map(rows.map((r) => [r.lessonId, { ...r, inCycle: Boolean(r.inCycle) }]));
}

/** Each lesson's state for the learner (every lesson `not_started` for a visitor). */
export function lessonStates(db: TenantConn, userId: number | null, courseId: number, lessons: Pick<Lesson, "id">[]) {
  const rows = userId ? lessonStateRows(db, userId, courseId) : new Map<number, LessonStateRow>();
  return new Map(lessons.map((l) => [l.id, { state: stateOf(rows.get(l.id)), row: rows.get(l.id) }]));
}

/**
 * The states of progress rows of any courses of one learner (a page of /api's list): the courses with a
 * renewal open are read once, in one statement.
 */
export function statesOfRows(
  db: TenantConn,
  userId: number,
  rows: Array<{ courseId: number; completedAt: Date | null; updatedAt: Date }>,
): LessonState[] {
  const renewals = new Map(
    preparedOnce(db, "lessonState.renewals", () =>
      db
        .select({ courseId: courseCompletions.courseId, since: courseCompletions.renewalStartedAt })
        .from(courseCompletions)
        .where(and(eq(courseCompletions.userId, sql.placeholder("userId")), isNotNull(courseCompletions.renewalStartedAt)))
        .prepare(),
    )
      .all({ userId })
      .map((r) => [r.courseId, r.since!.getTime()]),
  );
  return rows.map((r) => stateOf({ completedAt: r.completedAt, inCycle: r.updatedAt.getTime() >= (renewals.get(r.courseId) ?? 0) }));
}

/**
 * Marks a lesson started for the learner (a quiz attempt begun in it, …): its progress row is made, or — in
 * a renewal, when the row is from before it — touched once, so it counts as started in the new cycle; a
 * row of this cycle is left alone. A SCORM package's commit makes it too (app/models/scorm/runtime.server.ts
 * `commitAttempt`).
 */
export function markLessonStarted(tx: TenantConn, { userId, lesson, now = new Date() }: { userId: number; lesson: Lesson; now?: Date }) {
  tx.insert(lessonProgress)
    .values({ userId, lessonId: lesson.id, courseId: lesson.courseId, updatedAt: now })
    .onConflictDoUpdate({
      target: [lessonProgress.userId, lessonProgress.lessonId],
      set: { updatedAt: now },
      setWhere: sql`${lessonProgress.updatedAt} < coalesce((select cc.renewal_started_at from course_completions cc
        where cc.user_id = ${userId} and cc.course_id = ${lesson.courseId}), 0)`,
    })
    .run();
}
