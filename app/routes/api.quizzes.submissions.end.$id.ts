import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { findAttempt, quizErrorReply, requireQuizTaker } from "~/screens/quiz-api.server";
import { attemptView, endAttempt, expireIfDue, QuizError } from "~/models/quiz.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";

/**
 * Spec §7 `POST /api/quizzes/submissions/end/{id}` (no body): submits the caller's attempt and grades it
 * on the server. Ending it again returns the same result. After the quiz's deadline the submission is
 * refused (403 `deadline_passed`); the attempt is then closed on the answers saved in time.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const { db, viewer } = await requireQuizTaker(request, context);
  const attempt = await findAttempt(request, context, viewer, params.id, { own: true });
  // Past the deadline the submission is refused (the attempt is closed on the answers saved in time).
  if (expireIfDue(db, attempt).expired) return quizErrorReply(request, context, new QuizError("deadline_passed"));
  const { attempt: ended } = endAttempt(db, { attempt });
  return apiOk(attemptView(db, ended));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
