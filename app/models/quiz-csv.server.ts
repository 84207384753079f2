import type { Quiz } from "../../db/tenant";
import { csvResponse, toCsv } from "../utils/csv.server";
import type { quizResults } from "./quiz-results.server";

/** A quiz's ended attempts as CSV, one row per attempt (cells neutralised as the users export does). */
export function quizResultsCsv(quiz: Quiz, results: ReturnType<typeof quizResults>) {
  const best = new Map(results.learners.map((l) => [l.userId, l.best]));
  const rows = results.attempts.map((a) => [
    a.email,
    a.name,
    a.attemptNumber,
    a.score,
    a.correct,
    a.questions,
    a.passed ? "passed" : "failed",
    best.get(a.userId) ?? 0,
    a.startedAt.toISOString(),
    a.endedAt.toISOString(),
  ]);
  return csvResponse(
    `quiz-${quiz.id}-results.csv`,
    toCsv(["email", "name", "attempt", "score", "correct", "questions", "result", "best_score", "started_at", "ended_at"], rows),
  );
}
