import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getQuiz, quizResults } from "~/models/quiz.server";
import { apiMethodNotAllowed, apiNotFound } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { quizResultsCsv } from "~/models/quiz-csv.server";

/** `GET /api/quizzes/{id}/export`: every ended attempt of the quiz as CSV (formula-like cells neutralised). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "read:quiz" });
  const quiz = getQuiz(context.db, Number(params.id) || -1);
  if (!quiz) return apiNotFound(request, context);
  return quizResultsCsv(quiz, quizResults(context.db, quiz.id));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
