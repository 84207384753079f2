import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { may } from "~/access/rules";
import { z } from "zod";
import { lessonView } from "~/models/lesson.server";
import { attachQuiz, getQuiz, linkQuizLesson } from "~/models/quiz.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/**
 * `POST /api/quizzes/{id}/attach`: adds a `quiz` lesson showing this quiz at the end of a course
 * (`course_id`), or points an existing quiz lesson at this quiz (`lesson_id`).
 */
export const bodySchema = z.union([
  z.object({
    course_id: z.number().int().positive(),
    /** The new lesson's title; the quiz's title by default. */
    title: z.string().trim().max(200).optional(),
  }),
  z.object({ lesson_id: z.number().int().positive() }),
]);

export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "write:quiz" });
  if (!may(auth, "write:course")) {
    const t = await apiT(request, context);
    return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
  }
  const quiz = getQuiz(context.db, Number(params.id) || -1);
  if (!quiz) return apiNotFound(request, context);
  const body = await parseApiBody(request, context, bodySchema);
  const result = "lesson_id" in body ? linkQuizLesson(context.db, quiz.id, body.lesson_id) : attachQuiz(context.db, quiz.id, body.course_id, body.title);
  if (!result.ok) {
    const t = await apiT(request, context);
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { [result.field]: [t(result.message)] } });
  }
  return apiOk({ ...lessonView(result.value), quiz_id: quiz.id }, 201);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
