import { createCookie, type AppLoadContext } from "@remix-run/node";
import type { User } from "../../db/tenant";
import { issueKnownDevice, KNOWN_DEVICE_LIFETIME_SECONDS } from "../models/auth/known-device.server";
import { authenticate, type LoginResult } from "../models/auth/login.server";
import { sendGuessingAlert } from "../models/auth/mail.server";
import type { AuthRealm } from "../models/auth/realm.server";

/**
 * The password step's guards against guessing, as pages and /api meet them (docs/decisions/007-authentication.md
 * "Guessing passwords"): the known-device cookie, the owner's alert mail, and what a refused attempt answers.
 *
 * The known-device cookie is host-only and HttpOnly, and its path is the sign-in page's: a browser sends it
 * there and nowhere else, so it costs other requests nothing and never keeps a signed-out browser from the
 * visitors' kept pages (server/page-cache.ts serves only requests without other cookies). Signing out leaves
 * it; a new password voids it (app/models/auth/known-device.server.ts).
 */
export const knownDeviceCookie = createCookie("lectern_device", {
  path: "/auth/login",
  httpOnly: true,
  sameSite: "strict",
  secure: process.env.COOKIE_SECURE === "true",
  maxAge: KNOWN_DEVICE_LIFETIME_SECONDS,
});

/**
 * Checks a password with the guards: the request's known-device token (if its browser holds one of this
 * person) or else its address is the client the guesses are counted under. When the account's ceiling is
 * reached, its owner is told by mail, once per window, after the answer is on its way.
 */
export async function checkPassword(
  request: Request,
  context: AppLoadContext,
  realm: AuthRealm,
  { email, password }: { email: string; password: string },
): Promise<LoginResult> {
  const token: unknown = await knownDeviceCookie.parse(request.headers.get("Cookie"));
  const device = { token: typeof token === "string" ? token : null, signer: context.platform };
  const result = await authenticate(realm, { email, password, ip: context.clientIp, device });
  if (!result.ok && result.alert) {
    sendGuessingAlert(context.platform, realm, result.alert).catch((error) =>
      context.platform.log.error({ error: String(error) }, "sign-in alert mail failed"),
    );
  }
  return result;
}

/** The Set-Cookie that makes this browser a known device of the person (pass them as stored now, after any new password). */
export function rememberDevice(context: AppLoadContext, realm: AuthRealm, person: Pick<User, "id" | "passwordHash">) {
  return knownDeviceCookie.serialize(issueKnownDevice(context.platform, realm, person));
}

const API_STATUS = { user_not_found: 401, invalid_password: 401, organization: 403, disabled: 403, throttled: 429, wait: 429 } as const;

/**
 * How a refused sign-in is answered, on /api and on the page: its status, a `Retry-After` (seconds) when the
 * guards hold it back, and its message: the key and, for a wait, the minutes to wait, rounded up (`formError`
 * is the two as one form error, app/utils/form.ts).
 */
export function loginRefusal(result: Extract<LoginResult, { ok: false }>): {
  apiStatus: number;
  pageStatus: 400 | 429;
  key: string;
  count?: number;
  formError: string;
  headers: Record<string, string>;
} {
  const guarded = result.error === "wait" || result.error === "throttled";
  const key = guarded ? `signInGuard.${result.error}` : `auth.errors.${result.error}`;
  if (!guarded) return { apiStatus: API_STATUS[result.error], pageStatus: 400, key, formError: key, headers: {} };
  const seconds = Math.max(1, result.retryAfter ?? 1);
  const count = Math.ceil(seconds / 60);
  return { apiStatus: 429, pageStatus: 429, key, count, formError: `${key}|${count}`, headers: { "Retry-After": String(seconds) } };
}
