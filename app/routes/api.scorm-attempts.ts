import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { lessonAccess, findCourse } from "~/models/learning.server";
import { getLesson } from "~/models/lesson.server";
import { attemptView, commitAttempt, getAttempts, getPackage } from "~/models/scorm.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/**
 * SCORM runtime data (docs/decisions/020-scorm.md), always the caller's own:
 * `GET /api/scorm-attempts?lesson_id=` lists the caller's attempts (one per SCO) of a lesson;
 * `POST /api/scorm-attempts {lesson_id, sco_id, cmi, terminate?}` commits runtime data for one SCO.
 * `cmi` is flattened (`{"cmi.suspend_data": "…"}`) and checked against the SCORM data model.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const lessonId = Number(new URL(request.url).searchParams.get("lesson_id"));
  const lesson = Number.isSafeInteger(lessonId) && lessonId > 0 ? getLesson(context.db, lessonId) : undefined;
  const course = lesson ? findCourse(context.db, auth, lesson.courseId) : undefined;
  if (!lesson || !course || !lessonAccess(context.db, auth, course, lesson).allowed) {
    return apiNotFound(request, context);
  }
  return apiOk(getAttempts(context.db, auth.person.id, lesson.id).map(attemptView));
}

export const bodySchema = z.object({
  lesson_id: z.number().int().positive(),
  sco_id: z.string().min(1).max(4000),
  cmi: z.record(z.unknown()),
  terminate: z.boolean().default(false),
  /** Optional; when given it must be the caller: a commit for another learner's attempt is refused. */
  user_id: z.number().int().positive().optional(),
});

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const body = await parseApiBody(request, context, bodySchema);
  const t = await apiT(request, context);
  if (body.user_id !== undefined && body.user_id !== auth.person.id) {
    return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
  }
  const lesson = getLesson(context.db, body.lesson_id);
  const course = lesson ? findCourse(context.db, auth, lesson.courseId) : undefined;
  const pkg = lesson && course ? getPackage(context.db, lesson.id) : undefined;
  if (!lesson || !course || !pkg) return apiNotFound(request, context);
  const access = lessonAccess(context.db, auth, course, lesson);
  if (!access.allowed) return apiError(403, { message: t(`access.${access.reason}`), code: access.reason });
  const result = commitAttempt(context.db, { userId: auth.person.id, lesson, pkg, scoId: body.sco_id, cmi: body.cmi, terminate: body.terminate });
  if (!result.ok) {
    if (result.problem === "unknown_sco") return apiError(422, { message: t("scorm.api.unknownSco"), code: "unknown_sco", fields: { sco_id: [t("scorm.api.unknownSco")] } });
    const fields: Record<string, string[]> = {};
    for (const p of result.problems) (fields[`cmi.${p.element}`] ??= []).push(t(`scorm.api.${p.problem}`));
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
  }
  return apiOk({ ...attemptView(result.attempt), lesson_completed: result.lessonCompleted, course_completed: result.courseCompleted });
}
