import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { findAttempt, requireQuizTaker } from "~/screens/quiz-api.server";
import { attemptView, expireIfDue } from "~/models/quiz.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";

/**
 * Spec §7 `GET /api/quizzes/submissions/{id}`: one attempt. The caller's own (another learner's id is a
 * 404); with read:quiz any of the organization. While open it carries no correct answers.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer } = await requireQuizTaker(request, context);
  const attempt = await findAttempt(request, context, viewer, params.id);
  return apiOk(attemptView(db, expireIfDue(db, attempt)));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
