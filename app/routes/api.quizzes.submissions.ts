import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { quizErrorReply, requireQuizTaker } from "~/screens/quiz-api.server";
import { may } from "~/access/rules";
import { attemptView, expireIfDue, getQuiz, lessonForTaking, listAttempts, openOrStartAttempt } from "~/models/quiz.server";
import { apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, parseApiBody } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";

export const listSchema = pageSchema.extend({
  quiz_id: z.coerce.number().int().positive().optional(),
  user_id: z.coerce.number().int().positive().optional(),
});

/**
 * `GET /api/quizzes/submissions[?quiz_id=&user_id=]`: the caller's own attempts, newest first; with
 * read:quiz, every attempt of the organization (filtered by quiz and learner).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, viewer, person } = await requireQuizTaker(request, context);
  const parsed = listSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, context, parsed.error);
  const { page, per_page, quiz_id, user_id } = parsed.data;
  const userId = may(viewer, "read:quiz") ? user_id : person.id;
  const all = listAttempts(db, { userId, quizId: quiz_id });
  const items = all.slice((page - 1) * per_page, page * per_page).map((a) => attemptView(db, expireIfDue(db, a)));
  return apiOk(paginated(items, all.length, { page, perPage: per_page }));
}

/**
 * Starts an attempt: `POST /api/quizzes/submissions`. When the learner already has an open attempt of
 * this quiz, that one is returned (200) instead of a new one (201).
 */
export const startSchema = z.object({
  /** The quiz to take. */
  quiz_id: z.number().int().positive(),
  /** The quiz lesson it is taken in; by default the first quiz lesson of this quiz the caller may open. */
  lesson_id: z.number().int().positive().nullable().optional(),
});

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  const { db, person, viewer } = await requireQuizTaker(request, context);
  const body = await parseApiBody(request, context, startSchema);
  const quiz = getQuiz(db, body.quiz_id);
  const place = quiz ? lessonForTaking(db, viewer, quiz.id, body.lesson_id) : "none";
  if (!quiz || place === "none") return apiNotFound(request, context);
  try {
    const { attempt, created } = openOrStartAttempt(db, { quiz, userId: person.id, lesson: place?.lesson ?? null });
    return apiOk(attemptView(db, attempt), created ? 201 : 200);
  } catch (error) {
    return quizErrorReply(request, context, error);
  }
}
