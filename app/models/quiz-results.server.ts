import { and, asc, eq, gt, inArray, isNotNull, max } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { lessons, quizAttempts, quizLessons, users } from "../../db/tenant";

/** A quiz's results for the admin, and a learner's quiz score for a course (docs/decisions/013-quizzes.md). */

/**
 * For the admin's quiz screen and its CSV: each learner's attempts, best score, whether they passed, and
 * every ended attempt.
 */
export function quizResults(db: TenantConn, quizId: number) {
  const rows = db
    .select({ attempt: quizAttempts, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(quizAttempts)
    .innerJoin(users, eq(users.id, quizAttempts.userId))
    .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.endedAt)))
    .orderBy(asc(users.email), asc(quizAttempts.attemptNumber))
    .all();
  const learners = new Map<
    number,
    { userId: number; email: string; name: string; attempts: number; best: number; passed: boolean; lastAt: Date }
  >();
  for (const r of rows) {
    const a = r.attempt;
    const entry = learners.get(a.userId) ?? {
      userId: a.userId,
      email: r.email,
      name: [r.firstName, r.lastName].filter(Boolean).join(" "),
      attempts: 0,
      best: 0,
      passed: false,
      lastAt: a.endedAt!,
    };
    entry.attempts++;
    entry.best = Math.max(entry.best, a.score ?? 0);
    entry.passed ||= Boolean(a.passed);
    if (a.endedAt! > entry.lastAt) entry.lastAt = a.endedAt!;
    learners.set(a.userId, entry);
  }
  return {
    learners: [...learners.values()],
    attempts: rows.map((r) => ({
      id: r.attempt.id,
      userId: r.attempt.userId,
      email: r.email,
      name: [r.firstName, r.lastName].filter(Boolean).join(" "),
      attemptNumber: r.attempt.attemptNumber,
      score: r.attempt.score ?? 0,
      correct: r.attempt.correctCount ?? 0,
      questions: r.attempt.questions.length,
      passed: Boolean(r.attempt.passed),
      expired: r.attempt.expired,
      startedAt: r.attempt.startedAt,
      endedAt: r.attempt.endedAt!,
    })),
  };
}

/**
 * The learner's quiz score for a course (for certificates' {score}): the best score of each quiz lesson of
 * the course, averaged; null when the course has no quiz lessons. A quiz lesson never attempted counts 0.
 * With `since`, only attempts ended after it count (a renewal's certificate: its own cycle's scores; the
 * attempt that completed the earlier cycle ended at that completion).
 */
export function courseQuizScore(db: TenantConn, userId: number, courseId: number, since: Date | null = null): number | null {
  const quizLessonsOfCourse = db
    .select({ lessonId: lessons.id, quizId: quizLessons.quizId })
    .from(lessons)
    .innerJoin(quizLessons, eq(quizLessons.lessonId, lessons.id))
    .where(and(eq(lessons.courseId, courseId), eq(lessons.kind, "quiz")))
    .all();
  if (quizLessonsOfCourse.length === 0) return null;
  const best = db
    .select({ lessonId: quizAttempts.lessonId, best: max(quizAttempts.score) })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.userId, userId),
        eq(quizAttempts.courseId, courseId),
        isNotNull(quizAttempts.endedAt),
        since ? gt(quizAttempts.endedAt, since) : undefined,
        inArray(
          quizAttempts.lessonId,
          quizLessonsOfCourse.map((l) => l.lessonId),
        ),
      ),
    )
    .groupBy(quizAttempts.lessonId)
    .all();
  const byLesson = new Map(best.map((b) => [b.lessonId, b.best ?? 0]));
  const sum = quizLessonsOfCourse.reduce((s, l) => s + (byLesson.get(l.lessonId) ?? 0), 0);
  return Math.round(sum / quizLessonsOfCourse.length);
}
