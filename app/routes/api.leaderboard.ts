import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { boardPage, boardSize, currentBoard, standing } from "~/models/leaderboard.server";
import { boardQuery, leaderboardApi, parseQuery } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { paginated } from "~/utils/pagination";

/**
 * `GET /api/leaderboard?period=all|month|week&page&per_page`: the organization's board, best first, with
 * the caller's own standing in `me` (also when outside the page or opted out). Opted-out learners are
 * never listed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const q = await parseQuery(request, context, boardQuery);
  const board = currentBoard(scope.settings, q.period);
  const items = boardPage(scope.db, board, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
  const me = scope.auth.person ? standing(scope.db, board, scope.auth.person.id) : null;
  return apiOk({ period: q.period, key: board.key, ...paginated(items, boardSize(scope.db, board), { page: q.page, perPage: q.per_page }), me });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
