import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { watchSeconds } from "~/models/leaderboard.server";
import { leaderboardApi, visibleLearner } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";

/** `GET /api/leaderboard/watch-time/{user id}`: seconds watched in the last 7 days and in all. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const person = await visibleLearner(request, context, scope, params.id);
  return apiOk({ user_id: person.id, last_7_days_seconds: watchSeconds(scope.db, person.id, 7), total_seconds: watchSeconds(scope.db, person.id, null) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
