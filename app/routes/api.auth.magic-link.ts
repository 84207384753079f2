import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { exchangeMagicLink } from "~/models/auth/tokens.server";
import { passwordLoginEnabled } from "~/models/sso/drivers.server";
import { getUser, personView } from "~/models/user.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { realmFor, startSession } from "~/kernel/auth.server";

export const bodySchema = z.object({
  code: z.string().min(1).max(200),
  organization_id: z.coerce.number().int().positive(),
});

/**
 * `POST /api/auth/magic-link {code, organization_id}` → `{ access_token }`. The organization sent must
 * be the one of the host asked: a code of one organization never signs in to another.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  if (!context.organization || !context.db) return apiNotFound(request, context);
  const body = await parseApiBody(request, context, bodySchema);
  const t = await apiT(request, context);
  if (!passwordLoginEnabled(context.db)) return apiError(403, { message: t("sso.errors.passwordOff"), code: "password_login_off" });
  const invalid = () => apiError(422, { message: t("auth.magic.invalid"), code: "invalid_code" });
  if (body.organization_id !== context.organization.id) return invalid();
  const realm = realmFor(context);
  const personId = exchangeMagicLink(realm, body.code);
  const person = personId ? getUser(context.db, personId) : undefined;
  if (!person || person.disabledAt || !person.role) return invalid();
  const { token } = await startSession(request, context, realm, person, { kind: "api", skipTwoFactor: true });
  return apiOk({
    access_token: token,
    token,
    token_type: "Bearer",
    expires_in: SESSION_LIFETIME_SECONDS,
    user: personView(realm, person, { twoFactorPending: false }),
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
