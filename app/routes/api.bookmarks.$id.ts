import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { isBookmarked, setBookmark } from "~/models/learning.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/** `DELETE /api/bookmarks/{course id}`: removes the caller's own bookmark of that course. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["DELETE"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  const courseId = Number(params.id);
  if (!auth.person || !Number.isSafeInteger(courseId) || !isBookmarked(context.db, auth.person.id, courseId)) return apiNotFound(request, context);
  setBookmark(context.db, auth.person.id, courseId, false);
  return apiOk({ course_id: courseId, bookmarked: false });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["DELETE"]);
}
