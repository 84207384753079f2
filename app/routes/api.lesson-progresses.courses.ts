import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { courseProgress, recentCourses } from "~/models/learning.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { paginated } from "~/utils/pagination";

/** `GET /api/lesson-progresses/courses`: the caller's progress in each course they started. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  const items = recentCourses(context.db, auth, 100).map(({ course }) => {
    const { lesson_progress: _lp, ...summary } = courseProgress(context.db!, auth.person!.id, course.id);
    return { ...summary, title: course.title };
  });
  return apiOk(paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
