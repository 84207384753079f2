import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listVisibleUsers } from "~/models/user-resource.server";
import { apiMethodNotAllowed, apiNotFound } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { csvResponse, toCsv } from "~/utils/csv.server";

/**
 * `GET /api/users/export`: the users this caller may read, as CSV (cells that look like formulas are
 * neutralised). Also reached from the dashboard's users table with the session cookie.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.organization || !context.db) return apiNotFound(request, context);
  const viewer = await requireApiAuth(request, context, { capability: "read:user" });
  const { items } = listVisibleUsers(context.db, viewer, { page: 1, perPage: 1_000_000 });
  const rows = items.map((u) => [u.id, u.first_name, u.last_name, u.phone, u.email, u.type, u.disabled ? "disabled" : "active", u.created_at]);
  return csvResponse(`users-${context.organization.urlPrefix ?? context.organization.id}.csv`, toCsv(["id", "first_name", "last_name", "phone", "email", "type", "status", "created_at"], rows));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
