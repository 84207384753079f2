import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { findAttempt, quizErrorReply, requireQuizTaker } from "~/screens/quiz-api.server";
import { answerSchema, attemptView, getAttempt, saveAnswers } from "~/models/quiz.server";
import { apiMethodNotAllowed, apiOk, parseApiBody } from "~/utils/api.server";

/**
 * Spec §7 `POST /api/quizzes/submissions/answers`: keeps answers of the caller's open attempt. Answering a
 * question again replaces its answer; an empty answer clears it.
 */
export const bodySchema = z.object({
  /** The attempt (submission) id. */
  submission_id: z.number().int().positive(),
  /** `{question_id, choices: [option ids]}` for choice and true/false questions, `{question_id, text}` for short text. */
  answers: z.array(answerSchema).max(200).default([]),
  /** The question the learner is on (0-based), so another device resumes there. */
  current: z.number().int().min(0).max(1000).optional(),
});

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const { db, viewer } = await requireQuizTaker(request, context);
  const body = await parseApiBody(request, context, bodySchema);
  const attempt = await findAttempt(request, context, viewer, String(body.submission_id), { own: true });
  try {
    saveAnswers(db, { attempt, answers: body.answers, current: body.current });
  } catch (error) {
    return quizErrorReply(request, context, error);
  }
  return apiOk(attemptView(db, getAttempt(db, attempt.id)!));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
