import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { courseProgress, findCourse } from "~/models/learning.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/** `GET /api/lesson-progresses/course/{id}`: the caller's progress in one course. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const course = findCourse(context.db, auth, Number(params.id) || -1);
  if (!course) return apiNotFound(request, context);
  return apiOk(courseProgress(context.db, auth.person.id, course.id));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
