import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { authenticate } from "~/models/auth/login.server";
import { SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { passwordLoginEnabled } from "~/models/sso/drivers.server";
import { personView } from "~/models/user.server";
import { apiError, apiMethodNotAllowed, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { realmFor, startSession } from "~/kernel/auth.server";

export const bodySchema = z.object({
  email: z.string().trim().min(1).max(254).email("validation.email"),
  password: z.string().min(1).max(1024),
});

const STATUS = { user_not_found: 401, invalid_password: 401, organization: 403, disabled: 403, throttled: 429 } as const;

/**
 * `POST /api/auth/login {email,password}` → `{ token, … }`. Where the organization asks for two-factor
 * the token is pending (`two_factor_pending: true`) and reaches nothing but the 2FA calls and logout.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const body = await parseApiBody(request, context, bodySchema);
  if (context.db && !passwordLoginEnabled(context.db)) {
    const t = await apiT(request, context);
    return apiError(403, { message: t("sso.errors.passwordOff"), code: "password_login_off" });
  }
  const realm = realmFor(context);
  const result = await authenticate(realm, { ...body, ip: context.clientIp });
  if (!result.ok) {
    const t = await apiT(request, context);
    return apiError(STATUS[result.error], { message: t(`auth.errors.${result.error}`), code: result.error });
  }
  const { token, twoFactorPending } = await startSession(request, context, realm, result.person, { kind: "api" });
  return apiOk({
    token,
    token_type: "Bearer",
    expires_in: SESSION_LIFETIME_SECONDS,
    two_factor_pending: twoFactorPending,
    user: personView(realm, result.person, { twoFactorPending }),
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
