import type { AppLoadContext } from "@remix-run/node";
import { apiError, apiT } from "../utils/api.server";
import { requireApiAuth } from "./auth.server";

/** Platform-wide /api calls (organizations): super-admins only, with a token from the platform host. */
export async function requireApiSuperAdmin(request: Request, context: AppLoadContext) {
  const auth = await requireApiAuth(request, context);
  if (auth.role !== "super_admin") {
    const t = await apiT(request, context);
    throw apiError(403, { message: t("api.forbidden"), code: "forbidden" });
  }
  return auth;
}
