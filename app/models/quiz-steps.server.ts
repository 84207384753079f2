import { redirect, safeRedirectPath } from "../utils/redirect";
import { count, eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { quizAnswers, type Lesson, type Quiz } from "../../db/tenant";
import { endAttempt, expireIfDue } from "./quiz-grading.server";
import { getAttempt, openAttempt, saveAnswers, startAttempt } from "./quiz-attempts.server";
import { QuizError } from "./quiz-refusal.server";

/**
 * The page side of taking a quiz: one form post per step (start, answer and move, submit, retake), each
 * answered with a redirect back to the page that shows the player (post/redirect/get), carrying at most a
 * refusal code or the "confirm submitting with unanswered questions" flag in its query.
 */
/** Back to the page the step came from: `to` is already a path on this site (`safeRedirectPath`). */
function back(to: string, extra: Record<string, string> = {}) {
  const url = new URL(to, "http://local");
  url.searchParams.delete("quiz_confirm");
  url.searchParams.delete("quiz_error");
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return redirect(url.pathname + url.search);
}

export function runQuizStep(
  db: TenantConn,
  { quiz, userId, lesson, form }: { quiz: Quiz; userId: number; lesson: Lesson | null; form: FormData },
) {
  const to = safeRedirectPath(form.get("returnTo"), `/quizzes/${quiz.id}`);
  const intent = form.get("intent");
  try {
    if (intent === "start") {
      startAttempt(db, { quiz, userId, lesson });
      return back(to);
    }
    const open = openAttempt(db, quiz.id, userId);
    // A step of an attempt that has since ended (another tab, another device): show where things stand.
    if (!open || String(open.id) !== form.get("attempt_id")) return back(to);
    const questionId = Number(form.get("question_id"));
    const go = form.get("go");
    const current = go !== null && /^-?\d{1,4}$/.test(String(go)) ? Number(go) : undefined;
    const answers = open.questions.some((q) => q.id === questionId)
      ? [
          {
            question_id: questionId,
            choices: form.getAll("choice").map(String),
            text: typeof form.get("text") === "string" ? String(form.get("text")) : undefined,
          },
        ]
      : [];
    saveAnswers(db, { attempt: open, answers, current });
    if (intent !== "submit") return back(to);
    const saved = getAttempt(db, open.id)!;
    const unanswered = countUnanswered(db, saved.id, saved.questions.length);
    if (unanswered > 0 && form.get("confirm") !== "1") return back(to, { quiz_confirm: "1" });
    if (expireIfDue(db, saved).endedAt) throw new QuizError("deadline_passed");
    endAttempt(db, { attempt: saved });
    return back(to);
  } catch (error) {
    if (error instanceof QuizError) return back(to, { quiz_error: error.code });
    throw error;
  }
}

function countUnanswered(db: TenantConn, attemptId: number, questions: number) {
  return questions - (db.select({ n: count() }).from(quizAnswers).where(eq(quizAnswers.attemptId, attemptId)).get()?.n ?? 0);
}
