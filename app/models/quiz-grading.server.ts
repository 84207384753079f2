import { and, eq, isNull } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { lessons, quizAnswers, quizAttempts, type QuestionSnapshot, type QuizAttempt } from "../../db/tenant";
import { publish } from "./events.server";
import { completeLesson } from "./learning.server";
import { deadlinePassed, getQuiz } from "./quiz.server";
import { QuizError } from "./quiz-refusal.server";

/**
 * Grading (docs/decisions/013-quizzes.md): whether an answer is right, the score, and `endAttempt`, the one
 * grading function for pages and /api.
 */

/** Short text matches ignoring case and all spaces (and Unicode compatibility forms). */
export function normalizeText(value: string) {
  return value.normalize("NFKC").toLocaleLowerCase().replace(/\s+/gu, "");
}

/** Is this answer right? Multiple choice is all-or-nothing: exactly the correct options. */
export function isCorrect(q: QuestionSnapshot, answer: { choices: string[]; text: string | null } | undefined) {
  if (!answer) return false;
  if (q.type === "text") {
    const given = normalizeText(answer.text ?? "");
    return given !== "" && q.accepted.some((a) => normalizeText(a) === given);
  }
  const right = q.options
    .filter((o) => o.correct)
    .map((o) => o.id)
    .sort();
  const chosen = [...answer.choices].sort();
  return right.length === chosen.length && right.every((id, i) => id === chosen[i]);
}

export function scoreOf(correct: number, total: number) {
  return total === 0 ? 0 : Math.round((100 * correct) / total);
}

/**
 * Grades an attempt: the one grading function for pages and /api. In one transaction it marks each answer,
 * records the score (out of 100) and pass, publishes `quizAttemptEnded` exactly once, and completes the quiz
 * lesson when passed. Ending an attempt that has already ended changes nothing and returns it as it is,
 * so any number of concurrent `end` calls produce one result.
 */
export function endAttempt(
  db: TenantConn,
  { attempt, now = new Date(), expired = false }: { attempt: QuizAttempt; now?: Date; expired?: boolean },
) {
  return db.transaction((tx) => {
    const fresh = tx.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id)).get();
    if (!fresh) throw new QuizError("not_found", 404);
    if (fresh.endedAt) return { attempt: fresh, ended: false };
    const answers = tx.select().from(quizAnswers).where(eq(quizAnswers.attemptId, fresh.id)).all();
    const byQuestion = new Map(answers.map((a) => [a.questionId, a]));
    let correct = 0;
    for (const q of fresh.questions) {
      const a = byQuestion.get(q.id);
      const right = isCorrect(q, a);
      if (right) correct++;
      if (a)
        tx.update(quizAnswers)
          .set({ correct: right })
          .where(and(eq(quizAnswers.attemptId, fresh.id), eq(quizAnswers.questionId, q.id)))
          .run();
    }
    const score = scoreOf(correct, fresh.questions.length);
    const passed = correct >= fresh.passMin;
    const ended = tx
      .update(quizAttempts)
      .set({ endedAt: now, score, correctCount: correct, passed, expired })
      .where(and(eq(quizAttempts.id, fresh.id), isNull(quizAttempts.endedAt)))
      .returning()
      .get();
    if (!ended) return { attempt: tx.select().from(quizAttempts).where(eq(quizAttempts.id, fresh.id)).get()!, ended: false };
    publish(tx, "quizAttemptEnded", {
      userId: ended.userId,
      quizId: ended.quizId,
      attemptId: ended.id,
      lessonId: ended.lessonId,
      courseId: ended.courseId,
      score,
      passed,
      attemptNumber: ended.attemptNumber,
      at: now,
    });
    if (passed && ended.lessonId) {
      const lesson = tx.select().from(lessons).where(eq(lessons.id, ended.lessonId)).get();
      if (lesson) completeLesson(tx, { userId: ended.userId, lesson, now });
    }
    return { attempt: ended, ended: true };
  });
}

/** Ends an open attempt whose quiz's deadline has passed (graded on the answers saved in time). */
export function expireIfDue(db: TenantConn, attempt: QuizAttempt, now = new Date()) {
  if (attempt.endedAt) return attempt;
  const quiz = getQuiz(db, attempt.quizId);
  if (quiz && deadlinePassed(quiz, now)) return endAttempt(db, { attempt, now, expired: true }).attempt;
  return attempt;
}
