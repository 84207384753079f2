import { z } from "zod";
import type { SignedInViewer } from "~/access/viewer";
import { sendTwoFactorCode } from "~/models/auth/mail.server";
import { SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { confirmCode, issueCode } from "~/models/auth/two-factor.server";
import { passwordLoginEnabled } from "~/models/sso/drivers.server";
import { personView as personReply } from "~/models/user.server";
import { realmFor, startSession } from "~/kernel/auth.server";
import { checkPassword, loginRefusal } from "~/kernel/sign-in.server";
import { apiError, apiT } from "~/utils/api.server";
import { call, E, id, isoDate, type ApiCall, type ErrorCase } from "../contract.server";

/**
 * Signing in with e-mail and password, and the e-mailed two-factor code (docs/product.md §7 "Auth"). The
 * person and token replies here are those of every call that signs someone in (a sign-in link, SSO).
 */

export const loginBody = z.object({
  email: z.string().trim().min(1).max(254).email("validation.email"),
  password: z.string().min(1).max(1024),
});
export const codeBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "validation.code"),
});

export const personView = z.object({
  id,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  language: z.string().nullable(),
  type: z.string().nullable(),
  organization_id: id.nullable(),
  is_2fa_confirmed: z.boolean(),
  managed_externally: z.boolean(),
  created_at: isoDate,
});

/** What a sign-in answers: a Bearer token and the person it signs in. */
export const tokenReply = z.object({
  token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  two_factor_pending: z.boolean(),
  user: personView,
});

export const personExample = {
  id: 12,
  email: "ada@example.com",
  first_name: "Ada",
  last_name: "Lovelace",
  phone: null,
  language: "en",
  type: "learner",
  organization_id: 1,
  is_2fa_confirmed: true,
  managed_externally: false,
  created_at: "2026-05-04T09:30:00.000Z",
};
export const tokenExample = "lt_5QdF0v9r3XbK1mJ8wTz2yC4hN7pL6sAe";

/** The errors of a call only a signed-in person's own token or session may make. */
export const sessionErrors: ErrorCase[] = [E.unauthenticated];

export const signInCalls: ApiCall[] = [
  call({
    method: "POST",
    path: "/api/auth/login",
    tag: "Sign-in",
    summary: "Sign in with e-mail and password",
    description:
      "Answers a Bearer token for 30 days. Where the organization asks for two-factor, the token is pending (`two_factor_pending: true`) and reaches nothing but the 2FA calls and logout until the e-mailed code is confirmed. On the platform host it signs in super-admins.",
    access: "public",
    host: "both",
    body: loginBody,
    reply: tokenReply,
    errors: [
      E.invalid,
      E.invalidBody,
      { status: 401, code: "invalid_password", when: "wrong e-mail or password (also `user_not_found`)" },
      { status: 403, code: "disabled", when: "the account is disabled (or `organization`: no role here)" },
      { status: 403, code: "password_login_off", when: "the organization signs in through SSO only" },
      { status: 429, code: "wait", when: "too many wrong passwords from this client: try again after `Retry-After` seconds" },
      { status: 429, code: "throttled", when: "too many failed attempts for this account from anywhere; see `Retry-After`" },
      E.rateLimited,
    ],
    example: {
      body: { email: "ada@example.com", password: "correct horse battery" },
      reply: { token: tokenExample, token_type: "Bearer", expires_in: 2592000, two_factor_pending: false, user: personExample },
    },
    handler: async ({ request, context, body }) => {
      // Where the organization asks for two-factor the token is pending and reaches nothing but the 2FA calls and logout.
      if (context.db && !passwordLoginEnabled(context.db)) {
        const t = await apiT(request, context);
        return apiError(403, { message: t("sso.errors.passwordOff"), code: "password_login_off" });
      }
      const realm = realmFor(context);
      const result = await checkPassword(request, context, realm, body);
      if (!result.ok) {
        const t = await apiT(request, context);
        const refusal = loginRefusal(result);
        const message = refusal.count === undefined ? t(refusal.key) : t(refusal.key, { count: refusal.count });
        return apiError(refusal.apiStatus, { message, code: result.error }, refusal.headers);
      }
      const { token, twoFactorPending } = await startSession(request, context, realm, result.person, { kind: "api" });
      return {
        token,
        token_type: "Bearer",
        expires_in: SESSION_LIFETIME_SECONDS,
        two_factor_pending: twoFactorPending,
        user: personReply(realm, result.person, { twoFactorPending }),
      };
    },
  }),
  call({
    method: "POST",
    path: "/api/auth/2fa",
    tag: "Sign-in",
    summary: "Confirm a pending token with the e-mailed code",
    access: "session",
    allowPendingTwoFactor: true,
    body: codeBody,
    reply: z.object({ user: personView }),
    errors: [
      ...sessionErrors,
      E.invalid,
      { status: 422, code: "invalid", when: "the code is wrong (`expired`: too old; `no_code`: none was sent)" },
      { status: 429, code: "too_many_attempts", when: "five wrong codes: sign in again" },
    ],
    example: { body: { code: "123456" }, reply: { user: personExample } },
    handler: async ({ request, context, viewer, body }) => {
      const auth = viewer as SignedInViewer;
      if (auth.session.twoFactorPending) {
        const check = confirmCode(realmFor(context), auth.session.id, body.code);
        if (check !== "ok") {
          const t = await apiT(request, context);
          return apiError(check === "too_many_attempts" ? 429 : 422, { message: t(`auth.twoFactor.${check}`), code: check });
        }
      }
      return { user: personReply(realmFor(context), auth.person, { twoFactorPending: false }) };
    },
  }),
  call({
    method: "POST",
    path: "/api/auth/2fa/resend",
    tag: "Sign-in",
    summary: "Send a new two-factor code",
    description: "The previous code stops working. `sent: false` when the token is not pending.",
    access: "session",
    allowPendingTwoFactor: true,
    reply: z.object({ sent: z.boolean(), message: z.string().optional() }),
    errors: [...sessionErrors, { status: 429, code: "too_many_sends", when: "five codes were sent for this sign-in: sign in again" }],
    example: { reply: { sent: true, message: "A new code is on its way." } },
    handler: async ({ request, context, viewer }) => {
      const auth = viewer as SignedInViewer;
      const t = await apiT(request, context);
      if (!auth.session.twoFactorPending) return { sent: false };
      const issued = issueCode(realmFor(context), auth.session);
      if ("error" in issued) return apiError(429, { message: t(`auth.twoFactor.${issued.error}`), code: issued.error });
      await sendTwoFactorCode(context.platform, realmFor(context), auth.person, issued.code);
      return { sent: true, message: t("api.codeSent") };
    },
  }),
];
