import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listActivities } from "~/models/leaderboard-admin.server";
import { activityApiView, leaderboardApi } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { paginated } from "~/utils/pagination";

/** `GET /api/leaderboard/activities`: what each activity earns, whether it is on, its daily cap. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const items = listActivities(scope.db).map(activityApiView);
  return apiOk(paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
