import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { courseAccess, courseRating, findCourse, rateCourse } from "~/models/learning.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

export const ratingQuery = z.object({ course_id: z.coerce.number().int().positive() });
export const ratingBody = z.object({ course_id: z.number().int().positive(), stars: z.number().int().min(1).max(5) });

/** `GET /api/courses/ratings?course_id=`: the average, the count and the caller's own rating. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "read:course" });
  const query = ratingQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  if (!findCourse(context.db, auth, query.data.course_id)) return apiNotFound(request, context);
  return apiOk({ course_id: query.data.course_id, ...courseRating(context.db, query.data.course_id, auth.person?.id) });
}

/** `POST /api/courses/ratings {course_id, stars}`: 1–5, one rating per learner (a new one replaces it). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const body = await parseApiBody(request, context, ratingBody);
  const course = findCourse(context.db, auth, body.course_id);
  if (!course) return apiNotFound(request, context);
  const access = courseAccess(context.db, auth, course);
  if (!access.allowed) {
    const t = await apiT(request, context);
    return apiError(403, { message: t(`access.${access.reason}`), code: access.reason });
  }
  rateCourse(context.db, auth.person.id, course.id, body.stars);
  return apiOk({ course_id: course.id, ...courseRating(context.db, course.id, auth.person.id) });
}
