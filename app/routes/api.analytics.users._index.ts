import type { ActionFunctionArgs } from "@remix-run/node";
import { analyticsApiLoader } from "~/screens/analytics.server";
import { apiMethodNotAllowed } from "~/utils/api.server";

/**
 * `GET /api/analytics/users` (read:analytics; spec §7 "Analytics"): query `from`, `to` (local days) or
 * `period`, `group` (day|week|month), `compare`, and `courses=true` for the per-course breakdown. Group admins get their groups' members' figures.
 */
export const loader = analyticsApiLoader("overview");

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
