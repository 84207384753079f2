import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { personForIdentity } from "~/models/sso/accounts.server";
import { getDriverBySlug } from "~/models/sso/drivers.server";
import { SsoFailure } from "~/models/sso/flow.server";
import { authenticateSso } from "~/models/sso/strategy.server";
import { personView, type User } from "~/models/user.server";
import { apiError, apiInvalid, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { realmFor, startSession } from "~/kernel/auth.server";
import { logSsoFailure, ssoTenant } from "~/kernel/sso.server";

export const answerSchema = z.object({
  state: z.string().min(1).max(500),
  binding: z.string().min(1).max(200),
  code: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

const STATUS: Partial<Record<SsoFailure["code"], number>> = {
  unknown_driver: 404,
  unreachable: 502,
  config: 502,
  busy: 503,
  disabled: 403,
  organization: 403,
  not_allowed: 403,
  email_taken: 403,
};

/**
 * `GET|POST /api/auth/sso/{driver}/callback` (spec §7): an app hands in the provider's answer (from
 * callback-raw) with its binding value, and gets the same reply as `POST /api/auth/login`: a token,
 * pending where the organization asks for the e-mailed code.
 */
async function callback({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (!context.organization) return apiNotFound(request, context);
  const tenant = ssoTenant(context);
  const driver = getDriverBySlug(tenant.db, params.driver ?? "");
  if (!driver) return apiNotFound(request, context);
  let body: unknown = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method === "POST") {
    const type = request.headers.get("Content-Type") ?? "";
    try {
      if (type.includes("application/json")) body = JSON.parse((await request.text()) || "{}");
      else if (type.includes("form")) body = Object.fromEntries(await request.formData());
    } catch {
      body = null;
    }
  }
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success) return apiInvalid(request, context, parsed.error);
  const { binding, ...answer } = parsed.data;
  const url = new URL(request.url);
  url.search = new URLSearchParams(Object.entries(answer).filter((e): e is [string, string] => typeof e[1] === "string")).toString();
  try {
    const person = await authenticateSso<User>(
      new Request(url, { method: "GET" }),
      { tenant, kind: "api", driver, binding },
      async ({ identity }) => personForIdentity(tenant.db, identity),
    );
    const realm = realmFor(context);
    const { token, twoFactorPending } = await startSession(request, context, realm, person, { kind: "api" });
    return apiOk(
      {
        token,
        token_type: "Bearer",
        expires_in: SESSION_LIFETIME_SECONDS,
        two_factor_pending: twoFactorPending,
        user: personView(realm, person, { twoFactorPending }),
      },
      200,
      { "Cache-Control": "no-store" },
    );
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    logSsoFailure(context, error);
    const t = await apiT(request, context);
    return apiError(STATUS[error.code] ?? 401, { message: t(`sso.errors.${error.code}`), code: error.code });
  }
}

export const loader = callback;
export const action = callback;
