import { z } from "zod";
import { sendPasswordReset } from "~/models/auth/mail.server";
import { SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { exchangeMagicLink, requestPasswordReset, resetPassword } from "~/models/auth/tokens.server";
import { passwordLoginEnabled } from "~/models/sso/drivers.server";
import { getUser, personView as personReply } from "~/models/user.server";
import { realmFor, startSession } from "~/kernel/auth.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/utils/auth-schemas";
import { call, E, type ApiCall } from "../contract.server";
import { personExample, personView, tokenExample } from "./sign-in.server";

/** What a mailed link leads to: a sign-in link's code exchanged for a token, and a password reset (docs/product.md §7 "Auth"). */

export const magicLinkBody = z.object({
  code: z.string().min(1).max(200),
  organization_id: z.coerce.number().int().positive(),
});
export const resetRequestBody = z.object({ email: z.string().trim().min(1).max(254).email("validation.email") });
export const resetBody = z
  .object({
    email: z.string().trim().min(1).max(254).email("validation.email"),
    token: z.string().min(1).max(200),
    password: z.string().min(PASSWORD_MIN_LENGTH, "validation.passwordTooShort").max(PASSWORD_MAX_LENGTH, "validation.passwordTooLong"),
    password_confirmation: z.string(),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: "validation.passwordsDontMatch",
    path: ["password_confirmation"],
  });

export const mailLinkCalls: ApiCall[] = [
  call({
    method: "POST",
    path: "/api/auth/magic-link",
    tag: "Sign-in",
    summary: "Exchange a sign-in link's code for a token",
    description: "`organization_id` must be the organization of the host asked.",
    access: "public",
    body: magicLinkBody,
    reply: z.object({
      access_token: z.string(),
      token: z.string(),
      token_type: z.literal("Bearer"),
      expires_in: z.number().int(),
      user: personView,
    }),
    errors: [
      E.notFound,
      E.invalid,
      { status: 422, code: "invalid_code", when: "the code is unknown, used or expired" },
      { status: 403, code: "password_login_off", when: "SSO only" },
    ],
    example: {
      body: { code: "mZ3k9QpL", organization_id: 1 },
      reply: { access_token: tokenExample, token: tokenExample, token_type: "Bearer", expires_in: 2592000, user: personExample },
    },
    // A code of one organization never signs in to another.
    handler: async ({ request, context, body }) => {
      if (!context.organization || !context.db) return apiNotFound(request, context);
      const t = await apiT(request, context);
      if (!passwordLoginEnabled(context.db)) return apiError(403, { message: t("sso.errors.passwordOff"), code: "password_login_off" });
      const invalid = () => apiError(422, { message: t("auth.magic.invalid"), code: "invalid_code" });
      if (body.organization_id !== context.organization.id) return invalid();
      const realm = realmFor(context);
      const personId = exchangeMagicLink(realm, body.code);
      const person = personId ? getUser(context.db, personId) : undefined;
      if (!person || person.disabledAt || !person.role) return invalid();
      const { token } = await startSession(request, context, realm, person, { kind: "api", skipTwoFactor: true });
      return {
        access_token: token,
        token,
        token_type: "Bearer",
        expires_in: SESSION_LIFETIME_SECONDS,
        user: personReply(realm, person, { twoFactorPending: false }),
      };
    },
  }),
  call({
    method: "POST",
    path: "/api/auth/reset/request",
    tag: "Sign-in",
    summary: "Ask for a password reset mail",
    description: "The same answer for known and unknown addresses.",
    access: "public",
    host: "both",
    body: resetRequestBody,
    reply: z.object({ message: z.string() }),
    errors: [E.invalid, E.rateLimited],
    example: { body: { email: "ada@example.com" }, reply: { message: "If the address is known, a link is on its way." } },
    handler: async ({ request, context, body }) => {
      const realm = realmFor(context);
      const issued = requestPasswordReset(realm, body.email);
      if (issued) {
        sendPasswordReset(context.platform, realm, issued.person, issued.token).catch((error) =>
          context.platform.log.error({ error: String(error) }, "reset mail failed"),
        );
      }
      const t = await apiT(request, context);
      return { message: t("api.resetRequested") };
    },
  }),
  call({
    method: "POST",
    path: "/api/auth/reset",
    tag: "Sign-in",
    summary: "Choose a new password with the mailed token",
    access: "public",
    host: "both",
    body: resetBody,
    reply: z.object({ message: z.string() }),
    errors: [E.invalid, { status: 422, code: "invalid_token", when: "the link is wrong, used or expired" }, E.rateLimited],
    example: {
      body: { email: "ada@example.com", token: "9f1c0a7e", password: "a new long password", password_confirmation: "a new long password" },
      reply: { message: "Your password has been changed." },
    },
    handler: async ({ request, context, body }) => {
      const t = await apiT(request, context);
      const ok = await resetPassword(realmFor(context), body);
      if (!ok) return apiError(422, { message: t("auth.reset.invalidLink"), code: "invalid_token" });
      return { message: t("api.passwordChanged") };
    },
  }),
];
