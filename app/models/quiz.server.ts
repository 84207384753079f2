import { asc, count, desc, eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { quizQuestions, quizzes, type Quiz } from "../../db/tenant";
import { contains } from "../utils/pagination";

/**
 * Quizzes (docs/product.md §3 Quiz, §4 quiz states, §7 Quizzes; docs/decisions/013-quizzes.md): reading a quiz,
 * its questions and what anyone who may take it may know. The rest of the feature, by job:
 * `quiz-authoring.server.ts` (settings and questions), `quiz-lessons.server.ts` (the lessons that show a quiz,
 * and through which one a learner takes it), `quiz-attempts.server.ts` (starting and answering),
 * `quiz-grading.server.ts` (the one grading function, `endAttempt`), `quiz-player.server.ts` (what the learner
 * sees), `quiz-results.server.ts` (results and course scores). Nothing that reveals a correct answer reaches a
 * learner before their attempt has ended: the learner views are built field by field from what may be shown.
 */

export function getQuiz(db: TenantConn, id: number) {
  return db.select().from(quizzes).where(eq(quizzes.id, id)).get();
}

export function listQuestions(db: TenantConn, quizId: number) {
  return db
    .select()
    .from(quizQuestions)
    .where(eq(quizQuestions.quizId, quizId))
    .orderBy(asc(quizQuestions.position), asc(quizQuestions.id))
    .all();
}

export function questionCount(db: TenantConn, quizId: number) {
  return db.select({ n: count() }).from(quizQuestions).where(eq(quizQuestions.quizId, quizId)).get()?.n ?? 0;
}

/** Quizzes, newest first, optionally filtered by title (/api's list and the lesson form's choices). */
export function listQuizzes(db: TenantConn, { q = "", limit = 100, offset = 0 }: { q?: string; limit?: number; offset?: number } = {}) {
  const where = q.trim() ? contains(quizzes.title, q.trim()) : undefined;
  const rows = db
    .select({ quiz: quizzes })
    .from(quizzes)
    .where(where)
    .orderBy(desc(quizzes.createdAt), desc(quizzes.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(quizzes).where(where).get()?.n ?? 0;
  return { items: rows, total };
}

/** What anyone who may take a quiz may know about it before starting. */
export function quizSummary(db: TenantConn, quiz: Quiz) {
  return {
    id: quiz.id,
    title: quiz.title,
    description: quiz.description,
    deadline: quiz.deadline?.toISOString() ?? null,
    pass_min: quiz.passMin,
    max_attempts: quiz.maxAttempts,
    question_count: questionCount(db, quiz.id),
    created_at: quiz.createdAt.toISOString(),
    updated_at: quiz.updatedAt.toISOString(),
  };
}

/** Has the quiz's deadline passed at `now`? (No deadline: never.) */
export function deadlinePassed(quiz: Quiz, now: Date) {
  return quiz.deadline !== null && now.getTime() > quiz.deadline.getTime();
}
