import type { AppLoadContext } from "@remix-run/node";
import { may } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { apiError, apiNotFound, apiT } from "../utils/api.server";
import { requireApiAuth } from "../kernel/auth.server";
import { getAttempt } from "../models/quiz-attempts.server";
import { QuizError } from "../models/quiz-refusal.server";

/**
 * Shared steps of the /api quiz submission calls (docs/product.md §7): who is asking, finding an attempt the caller
 * may see, and turning a refusal of the quiz model into a translated envelope.
 */
export async function requireQuizTaker(request: Request, context: AppLoadContext) {
  if (!context.organization || !context.db) throw await apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) throw await apiNotFound(request, context);
  return { db: context.db, viewer: auth, person: auth.person };
}

/**
 * An attempt by id: the caller's own; with read:quiz also anyone's of this organization, but only to read
 * (`own: true` for answering and ending). Anything else is a 404, so ids reveal nothing.
 */
export async function findAttempt(request: Request, context: AppLoadContext, auth: Viewer, id: string | undefined, { own = false } = {}) {
  const n = Number(id);
  const attempt = Number.isSafeInteger(n) && n > 0 && context.db ? getAttempt(context.db, n) : undefined;
  const mine = attempt && auth.person && attempt.userId === auth.person.id;
  if (!attempt || (!mine && (own || !may(auth, "read:quiz")))) throw await apiNotFound(request, context);
  return attempt;
}

/** A refusal of the quiz model as an /api error; anything else is thrown on. */
export async function quizErrorReply(request: Request, context: AppLoadContext, error: unknown) {
  if (!(error instanceof QuizError)) throw error;
  const t = await apiT(request, context);
  return apiError(error.status, { message: t(`quiz.refusal.${error.code}`), code: error.code });
}
