import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { currentBoard, PERIODS, standing } from "~/models/leaderboard.server";
import { leaderboardApi, parseQuery, visibleLearner } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";

export const rankQuery = z.object({ period: z.enum(PERIODS).default("all") });

/** `GET /api/leaderboard/rank/{user id}?period=`: a learner's rank and points on a board. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const person = await visibleLearner(request, context, scope, params.id);
  const q = await parseQuery(request, context, rankQuery);
  const board = currentBoard(scope.settings, q.period);
  const { rank, points } = standing(scope.db, board, person.id);
  return apiOk({ user_id: person.id, period: q.period, key: board.key, rank, points });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
