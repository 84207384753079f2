import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { currentBoard, learnerSummary, standing } from "~/models/leaderboard.server";
import { leaderboardApi, visibleLearner } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";

/**
 * `GET /api/leaderboard/points/{user id}`: lifetime points, level and progress, points this month and
 * week, streak and badges. The opt-out flag is the learner's own business: shown to them only.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const person = await visibleLearner(request, context, scope, params.id);
  const { hidden, ...summary } = learnerSummary(scope.db, person.id);
  const month = standing(scope.db, currentBoard(scope.settings, "month"), person.id).points;
  const week = standing(scope.db, currentBoard(scope.settings, "week"), person.id).points;
  const own = scope.auth.person?.id === person.id;
  return apiOk({ user_id: person.id, ...summary, month_points: month, week_points: week, ...(own ? { hidden } : {}) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
