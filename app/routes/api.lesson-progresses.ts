import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { completeLesson, lessonAccess, listOwnProgress, progressView, findCourse, recordHeartbeatInBatch } from "~/models/learning.server";
import { getLesson } from "~/models/lesson.server";
import { lessonTracking } from "~/models/scorm.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { pageSchema, paginated } from "~/utils/pagination";

/** `GET /api/lesson-progresses`: the caller's own lesson progress (never anyone else's), newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const page = pageSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!page.success) return apiInvalid(request, context, page.error);
  const p = { page: page.data.page, perPage: page.data.per_page };
  const { items, total } = listOwnProgress(context.db, auth.person.id, p);
  const db = context.db;
  // SCORM lessons carry their tracking (status, score, time; docs/decisions/020-scorm.md).
  return apiOk(paginated(items.map((row) => ({ ...progressView(row), scorm: lessonTracking(db, row.userId, row.lessonId) })), total, p));
}

export const bodySchema = z.object({
  lesson_id: z.number().int().positive(),
  position_seconds: z.number().min(0).max(1_000_000).default(0),
  watched_seconds: z.number().min(0).max(1_000_000).default(0),
  completed: z.boolean().optional(),
});

/**
 * `POST /api/lesson-progresses {lesson_id, position_seconds, watched_seconds, completed?}`: a heartbeat
 * from the player for the caller. The watch time credited never exceeds the wall-clock time since the
 * previous heartbeat.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const body = await parseApiBody(request, context, bodySchema);
  const lesson = getLesson(context.db, body.lesson_id);
  const course = lesson ? findCourse(context.db, auth, lesson.courseId) : undefined;
  if (!lesson || !course) return apiNotFound(request, context);
  const access = lessonAccess(context.db, auth, course, lesson);
  if (!access.allowed) {
    const t = await apiT(request, context);
    return apiError(403, { message: t(`access.${access.reason}`), code: access.reason });
  }
  if (body.completed && lesson.kind === "quiz") {
    // A quiz lesson is completed only by passing its quiz (POST /api/quizzes/submissions/end/{id}).
    const t = await apiT(request, context);
    return apiError(422, { message: t("quiz.refusal.complete_by_passing"), code: "quiz_lesson", fields: { completed: [t("quiz.refusal.complete_by_passing")] } });
  }
  // Committed together with the other heartbeats of this moment; answered once durable.
  const { progress, credited } = await recordHeartbeatInBatch(context.db, { userId: auth.person.id, lesson, positionSeconds: body.position_seconds, watchedSeconds: body.watched_seconds });
  const completion = body.completed ? completeLesson(context.db, { userId: auth.person.id, lesson }) : { courseCompleted: false };
  return apiOk({ ...progressView(progress), completed: body.completed ? true : progressView(progress).completed, credited_seconds: credited, course_completed: completion.courseCompleted });
}
