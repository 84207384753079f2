import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { courseView } from "~/models/course.server";
import { listBookmarks, findCourse, setBookmark } from "~/models/learning.server";
import { apiMethodNotAllowed, apiNotFound, apiOk, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { paginated } from "~/utils/pagination";

/** `GET /api/bookmarks`: the caller's own bookmarked (published) courses. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const items = listBookmarks(context.db, auth).map((b) => ({ course_id: b.course.id, course: courseView(b.course), created_at: b.createdAt.toISOString() }));
  return apiOk(paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) }));
}

export const bookmarkBody = z.object({ course_id: z.number().int().positive() });

/** `POST /api/bookmarks {course_id}`: bookmarks a published course for the caller. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const { course_id } = await parseApiBody(request, context, bookmarkBody);
  if (!findCourse(context.db, auth, course_id)) return apiNotFound(request, context);
  setBookmark(context.db, auth.person.id, course_id, true);
  return apiOk({ course_id, bookmarked: true }, 201);
}
