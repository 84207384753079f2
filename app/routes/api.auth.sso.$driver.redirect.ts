import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getDriverBySlug } from "~/models/sso/drivers.server";
import { beginSignIn, redirectUriFor, SsoFailure } from "~/models/sso/flow.server";
import { apiError, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { logSsoFailure, ssoTenant } from "~/kernel/sso.server";

/**
 * `GET|POST /api/auth/sso/{driver}/redirect` (spec §7): an app starts a sign-in. The reply gives the
 * provider's address to open in a browser, the state, and a `binding` value the app keeps to itself and
 * sends back with the answer: a code caught by anyone else is worthless without it. The provider returns
 * to `/api/auth/sso/{driver}/callback-raw`.
 */
async function start({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (!context.organization) return apiNotFound(request, context);
  const tenant = ssoTenant(context);
  const driver = getDriverBySlug(tenant.db, params.driver ?? "");
  if (!driver || !driver.enabled) return apiNotFound(request, context);
  try {
    const started = await beginSignIn(tenant, driver, { kind: "api" });
    return apiOk(
      {
        authorization_url: started.url,
        state: started.state,
        binding: started.binding,
        redirect_uri: redirectUriFor(tenant, driver, "api"),
        expires_in: started.expiresIn,
      },
      200,
      { "Cache-Control": "no-store" },
    );
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    logSsoFailure(context, error);
    const t = await apiT(request, context);
    return apiError(error.code === "busy" ? 503 : 502, { message: t(`sso.errors.${error.code}`), code: error.code });
  }
}

export const loader = start;
export const action = start;
