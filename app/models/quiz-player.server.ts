import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { quizAnswers, type Lesson, type Quiz, type QuizAttempt } from "../../db/tenant";
import { deadlinePassed, getQuiz, quizSummary } from "./quiz.server";
import { endedAttempts, openAttempt } from "./quiz-attempts.server";
import { expireIfDue, isCorrect } from "./quiz-grading.server";
import { quizIdOfLesson } from "./quiz-lessons.server";
import type { QuizRefusal } from "./quiz-refusal.server";

/**
 * What a learner sees of a quiz (docs/decisions/013-quizzes.md): their attempts, and the player's state.
 * Nothing that tells right from wrong is in an attempt's view before it has ended.
 */

function answersOf(db: TenantConn, attemptId: number) {
  return new Map(
    db
      .select()
      .from(quizAnswers)
      .where(eq(quizAnswers.attemptId, attemptId))
      .all()
      .map((a) => [a.questionId, a]),
  );
}

/**
 * An attempt as its learner (or an admin) sees it. While it is open: the questions and options without
 * anything that tells right from wrong, and the learner's own answers. Once it has ended: also which
 * options were right, the accepted texts, whether each answer was right, and the explanations.
 */
export function attemptView(db: TenantConn, attempt: QuizAttempt) {
  const answers = answersOf(db, attempt.id);
  const reveal = attempt.endedAt !== null;
  return {
    id: attempt.id,
    quiz_id: attempt.quizId,
    user_id: attempt.userId,
    lesson_id: attempt.lessonId,
    course_id: attempt.courseId,
    attempt_number: attempt.attemptNumber,
    status: reveal ? (attempt.passed ? "passed" : "failed") : "in_progress",
    current: attempt.current,
    started_at: attempt.startedAt.toISOString(),
    ended_at: attempt.endedAt?.toISOString() ?? null,
    ended_by_deadline: attempt.expired,
    question_count: attempt.questions.length,
    answered_count: attempt.questions.filter((q) => answers.has(q.id)).length,
    pass_min: attempt.passMin,
    score: reveal ? attempt.score : null,
    correct_count: reveal ? attempt.correctCount : null,
    passed: reveal ? attempt.passed : null,
    questions: attempt.questions.map((q) => {
      const a = answers.get(q.id);
      const base = {
        id: q.id,
        type: q.type,
        prompt: q.prompt,
        options: q.options.map((o) => ({ id: o.id, text: o.text })),
        answer: a ? { choices: a.choices, text: a.text } : null,
      };
      if (!reveal) return base;
      return {
        ...base,
        correct: isCorrect(q, a),
        correct_choices: q.options.filter((o) => o.correct).map((o) => o.id),
        accepted: q.accepted,
        explanation: q.explanation,
      };
    }),
  };
}
export type AttemptView = ReturnType<typeof attemptView>;

/**
 * Everything the quiz player needs for one learner: the quiz's intro facts, the open attempt (without
 * answers), the latest ended one (revealed), and whether a retake is possible.
 */
export function quizPlayerState(db: TenantConn, { quiz, userId, now = new Date() }: { quiz: Quiz; userId: number; now?: Date }) {
  let open = openAttempt(db, quiz.id, userId);
  if (open) open = expireIfDue(db, open, now);
  if (open?.endedAt) open = undefined;
  const ended = endedAttempts(db, quiz.id, userId);
  const last = ended.at(-1);
  const passedBefore = ended.some((a) => a.passed);
  const attemptsLeft = quiz.maxAttempts === null ? null : Math.max(0, quiz.maxAttempts - ended.length);
  const closed = deadlinePassed(quiz, now);
  return {
    quiz: {
      ...quizSummary(db, quiz),
      attempts_used: ended.length,
      attempts_left: attemptsLeft,
      deadline_passed: closed,
      best_score: ended.length ? Math.max(...ended.map((a) => a.score ?? 0)) : null,
    },
    open: open ? attemptView(db, open) : null,
    last: last ? attemptView(db, last) : null,
    can_start: !open && !closed && !passedBefore && attemptsLeft !== 0 && quizSummary(db, quiz).question_count > 0,
    refusal: (open
      ? null
      : closed
        ? "deadline_passed"
        : passedBefore
          ? null
          : attemptsLeft === 0
            ? "no_attempts_left"
            : null) as QuizRefusal | null,
  };
}
export type QuizPlayerState = ReturnType<typeof quizPlayerState>;

/**
 * The quiz part of the lesson player's data: the player state, or `failed` when the lesson shows no quiz
 * (never linked, or its quiz was deleted) — the player then says the quiz could not be loaded.
 */
export function quizForLesson(db: TenantConn, { lesson, userId, now = new Date() }: { lesson: Lesson; userId: number; now?: Date }) {
  const quizId = quizIdOfLesson(db, lesson.id);
  const quiz = quizId ? getQuiz(db, quizId) : undefined;
  if (!quiz) return { failed: true as const, quizId: null, state: null };
  return { failed: false as const, quizId: quiz.id, state: quizPlayerState(db, { quiz, userId, now }) };
}
