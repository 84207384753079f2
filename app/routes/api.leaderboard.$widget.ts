import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { widget, widgetValue, WIDGETS, type Widget } from "~/models/leaderboard.server";
import { leaderboardApi } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";

/**
 * `GET /api/leaderboard/{widget}` (spec §9): `bookmarks` (last 30 days), `watch-time` (seconds, last 7
 * days), `streak` (current daily streak in days). The top ten, and the caller's own value.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const name = params.widget as Widget;
  if (!WIDGETS.includes(name)) return apiNotFound(request, context);
  const me = scope.auth.person ? { user_id: scope.auth.person.id, value: widgetValue(scope.db, name, scope.auth.person.id) } : null;
  return apiOk({ widget: name, data: widget(scope.db, name), me });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
