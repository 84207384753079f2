import type { AppLoadContext } from "@remix-run/node";
import { apiError, apiT } from "../utils/api.server";
import { requireApiAuth } from "./auth.server";
import { isSuperAdmin } from "../access/rules";

/** Platform-wide /api calls (organizations): super-admins only, with a token from the platform host. */
export async function requireApiSuperAdmin(request: Request, context: AppLoadContext) {
  const auth = await requireApiAuth(request, context);
  if (!isSuperAdmin(auth)) {
    const t = await apiT(request, context);
    throw apiError(403, { message: t("api.forbidden"), code: "forbidden" });
  }
  return auth;
}
