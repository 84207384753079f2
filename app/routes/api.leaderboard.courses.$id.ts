import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { boardPage, boardSize, courseBoard, standing } from "~/models/leaderboard.server";
import { leaderboardApi, parseQuery, visibleCourseId } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";

/** `GET /api/leaderboard/courses/{id}`: points earned in one published course, best first. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const course = await visibleCourseId(request, context, scope, params.id);
  const q = await parseQuery(request, context, pageSchema);
  const board = courseBoard(course.id);
  const items = boardPage(scope.db, board, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
  const me = scope.auth.person ? standing(scope.db, board, scope.auth.person.id) : null;
  return apiOk({ course_id: course.id, title: course.title, ...paginated(items, boardSize(scope.db, board), { page: q.page, perPage: q.per_page }), me });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
