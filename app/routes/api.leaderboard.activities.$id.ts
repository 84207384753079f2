import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listActivities, updateActivity } from "~/models/leaderboard-admin.server";
import { ACTIVITY_KINDS, type ActivityKind } from "~/models/vocabulary";
import { activityApiView, leaderboardApi } from "~/screens/leaderboard-api.server";
import { apiMethodNotAllowed, apiNotFound, apiOk, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

const kindOf = (raw: string | undefined) => (ACTIVITY_KINDS as readonly string[]).includes(raw ?? "") ? (raw as ActivityKind) : null;

/** `GET /api/leaderboard/activities/{kind}`. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const scope = await leaderboardApi(request, context);
  const activity = listActivities(scope.db).find((a) => a.kind === kindOf(params.id));
  return activity ? apiOk(activityApiView(activity)) : apiNotFound(request, context);
}

export const updateSchema = z.object({
  points: z.number().int().min(0).max(100000).optional(),
  enabled: z.boolean().optional(),
  daily_cap: z.number().int().min(1).max(1000).nullable().optional(),
});

/** `PUT /api/leaderboard/activities/{kind} {points?, enabled?, daily_cap?}` (write:leaderboard). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return apiMethodNotAllowed(request, context, ["GET", "PUT"]);
  const scope = await leaderboardApi(request, context);
  await requireApiAuth(request, context, { capability: "write:leaderboard" });
  const existing = listActivities(scope.db).find((a) => a.kind === kindOf(params.id));
  if (!existing) return apiNotFound(request, context);
  const input = await parseApiBody(request, context, updateSchema);
  const updated = updateActivity(scope.db, existing.kind, {
    points: input.points ?? existing.points,
    enabled: input.enabled ?? existing.enabled,
    dailyCap: input.daily_cap === undefined ? existing.dailyCap : input.daily_cap,
  });
  return apiOk(activityApiView(updated!));
}
