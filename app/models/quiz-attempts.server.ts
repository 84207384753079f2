import { and, asc, desc, eq, gte, isNotNull, isNull, max } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import {
  quizAnswers,
  quizAttempts,
  type Lesson,
  type QuestionSnapshot,
  type Quiz,
  type QuizAttempt,
  type QuizQuestion,
} from "../../db/tenant";
import { quizRenewalSince } from "./completion-cycle.server";
import { markLessonStarted } from "./lesson-state.server";
import { deadlinePassed, getQuiz, listQuestions } from "./quiz.server";
import { endAttempt } from "./quiz-grading.server";
import { QuizError } from "./quiz-refusal.server";

/**
 * A learner's attempts at a quiz (docs/decisions/013-quizzes.md): starting one (with a snapshot of the
 * questions, so later edits leave it as it was), saving answers while it is open, and reading them back.
 * Ending and grading an attempt is `endAttempt` (app/models/quiz-grading.server.ts).
 */

function snapshot(questions: QuizQuestion[]): QuestionSnapshot[] {
  return questions.map((q) => ({
    id: q.id,
    type: q.type,
    prompt: q.prompt,
    explanation: q.explanation,
    options: q.options,
    accepted: q.accepted,
  }));
}

export function openAttempt(db: TenantConn, quizId: number, userId: number) {
  return db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quizId), eq(quizAttempts.userId, userId), isNull(quizAttempts.endedAt)))
    .get();
}

/**
 * A learner's ended attempts of a quiz, oldest first. While they renew a completion of a course that shows
 * it (recertification, app/models/completion-cycle.server.ts `quizRenewalSince`), only the attempts started
 * since the renewal opened count: a pass before it belongs to the earlier completion.
 */
export function endedAttempts(db: TenantConn, quizId: number, userId: number) {
  const since = quizRenewalSince(db, quizId, userId);
  return db
    .select()
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.quizId, quizId),
        eq(quizAttempts.userId, userId),
        isNotNull(quizAttempts.endedAt),
        since ? gte(quizAttempts.startedAt, since) : undefined,
      ),
    )
    .orderBy(asc(quizAttempts.attemptNumber))
    .all();
}

export function getAttempt(db: TenantConn, id: number) {
  return db.select().from(quizAttempts).where(eq(quizAttempts.id, id)).get();
}

/**
 * Starts an attempt, or returns the open one (one open attempt per learner and quiz: a partial unique
 * index holds it even against concurrent starts). Refused after the deadline, when the attempts are used
 * up, after a pass (retakes follow a fail, docs/product.md §4), or when the quiz has no questions.
 */
export function startAttempt(db: TenantConn, args: { quiz: Quiz; userId: number; lesson: Lesson | null; now?: Date }): QuizAttempt {
  return openOrStartAttempt(db, args).attempt;
}

/** As startAttempt, also saying whether the attempt is new. */
export function openOrStartAttempt(
  db: TenantConn,
  { quiz, userId, lesson, now = new Date() }: { quiz: Quiz; userId: number; lesson: Lesson | null; now?: Date },
) {
  // An open attempt past the deadline is closed first (and stays closed: the refusal below rolls back only its own work).
  const stale = openAttempt(db, quiz.id, userId);
  if (stale && deadlinePassed(quiz, now)) endAttempt(db, { attempt: stale, now, expired: true });
  return db.transaction((tx): { attempt: QuizAttempt; created: boolean } => {
    const open = openAttempt(tx, quiz.id, userId);
    if (open) return { attempt: open, created: false };
    if (deadlinePassed(quiz, now)) throw new QuizError("deadline_passed");
    const ended = endedAttempts(tx, quiz.id, userId);
    if (ended.some((a) => a.passed)) throw new QuizError("already_passed");
    if (quiz.maxAttempts !== null && ended.length >= quiz.maxAttempts) throw new QuizError("no_attempts_left");
    const questions = listQuestions(tx, quiz.id);
    if (questions.length === 0) throw new QuizError("no_questions", 409);
    const last =
      tx
        .select({ n: max(quizAttempts.attemptNumber) })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.quizId, quiz.id), eq(quizAttempts.userId, userId)))
        .get()?.n ?? 0;
    const attempt = tx
      .insert(quizAttempts)
      .values({
        quizId: quiz.id,
        userId,
        lessonId: lesson?.id ?? null,
        courseId: lesson?.courseId ?? null,
        attemptNumber: last + 1,
        questions: snapshot(questions),
        passMin: Math.min(quiz.passMin, questions.length),
        startedAt: now,
      })
      .returning()
      .get();
    // The quiz lesson is under way from its first attempt (the one lesson state, app/models/lesson-state.server.ts).
    if (lesson) markLessonStarted(tx, { userId, lesson, now });
    return { attempt, created: true };
  });
}

/** `answers` items: `choices` (option ids) for choice and true/false questions, `text` for short text. */
export const answerSchema = z.object({
  question_id: z.number().int().positive(),
  choices: z.array(z.string().max(20)).max(20).optional(),
  text: z.string().max(500).optional(),
});
export type AnswerInput = z.infer<typeof answerSchema>;

/**
 * Keeps answers of an open attempt (answering a question again replaces its answer) and, optionally, the
 * question the learner is on. Refused once the attempt has ended or the deadline has passed (an open
 * attempt past its deadline is then ended, graded on the answers saved in time).
 */
export function saveAnswers(
  db: TenantConn,
  { attempt, answers, current, now = new Date() }: { attempt: QuizAttempt; answers: AnswerInput[]; current?: number; now?: Date },
) {
  const quiz = getQuiz(db, attempt.quizId);
  if (!quiz) throw new QuizError("not_found", 404);
  if (attempt.endedAt) throw new QuizError("ended", 409);
  if (deadlinePassed(quiz, now)) {
    endAttempt(db, { attempt, now, expired: true });
    throw new QuizError("deadline_passed");
  }
  const byId = new Map(attempt.questions.map((q) => [q.id, q]));
  const rows = answers.map((a) => {
    const q = byId.get(a.question_id);
    if (!q) throw new QuizError("invalid_answer", 422);
    if (q.type === "text") return { questionId: q.id, choices: [] as string[], text: (a.text ?? "").trim().slice(0, 500) };
    const ids = new Set(q.options.map((o) => o.id));
    const choices = [...new Set(a.choices ?? [])];
    if (choices.some((c) => !ids.has(c)) || (q.type !== "multiple" && choices.length > 1)) throw new QuizError("invalid_answer", 422);
    return { questionId: q.id, choices, text: null };
  });
  db.transaction((tx) => {
    // Re-read inside the write lock: an `end` that won the race means these answers come too late.
    const fresh = tx.select({ endedAt: quizAttempts.endedAt }).from(quizAttempts).where(eq(quizAttempts.id, attempt.id)).get();
    if (!fresh || fresh.endedAt) throw new QuizError("ended", 409);
    for (const row of rows) {
      const blank = row.choices.length === 0 && !row.text;
      if (blank) {
        tx.delete(quizAnswers)
          .where(and(eq(quizAnswers.attemptId, attempt.id), eq(quizAnswers.questionId, row.questionId)))
          .run();
        continue;
      }
      tx.insert(quizAnswers)
        .values({ attemptId: attempt.id, questionId: row.questionId, choices: row.choices, text: row.text, updatedAt: now })
        .onConflictDoUpdate({
          target: [quizAnswers.attemptId, quizAnswers.questionId],
          set: { choices: row.choices, text: row.text, updatedAt: now },
        })
        .run();
    }
    if (current !== undefined) {
      const clamped = Math.max(0, Math.min(attempt.questions.length - 1, current));
      tx.update(quizAttempts).set({ current: clamped }).where(eq(quizAttempts.id, attempt.id)).run();
    }
  });
}

/** A learner's attempts, newest first (GET /api/quizzes/submissions). */
export function listAttempts(db: TenantConn, { userId, quizId }: { userId?: number; quizId?: number }) {
  return db
    .select()
    .from(quizAttempts)
    .where(and(userId ? eq(quizAttempts.userId, userId) : undefined, quizId ? eq(quizAttempts.quizId, quizId) : undefined))
    .orderBy(desc(quizAttempts.id))
    .all();
}
