import { z } from "zod";
import type { SignedInViewer } from "~/access/viewer";
import { may } from "~/access/rules";
import {
  apiTokenView,
  createApiToken,
  DEFAULT_TOKEN_DAYS,
  listApiTokens,
  MAX_TOKEN_DAYS,
  revokeApiToken,
} from "~/models/auth/api-token.server";
import { sendPasswordReset, sendTwoFactorCode } from "~/models/auth/mail.server";
import {
  deviceView as deviceReply,
  listDevices,
  refreshSession,
  revokeDevice,
  revokeSession,
  SESSION_LIFETIME_SECONDS,
} from "~/models/auth/session.server";
import { exchangeMagicLink, requestPasswordReset, resetPassword } from "~/models/auth/tokens.server";
import { confirmCode, issueCode } from "~/models/auth/two-factor.server";
import { personForIdentity } from "~/models/sso/accounts.server";
import { getDriverBySlug, passwordLoginEnabled } from "~/models/sso/drivers.server";
import { beginSignIn, redirectUriFor, SsoFailure } from "~/models/sso/flow.server";
import { authenticateSso } from "~/models/sso/strategy.server";
import { getUser, personView as personReply, type User } from "~/models/user.server";
import { realmFor, startSession } from "~/kernel/auth.server";
import { checkPassword, loginRefusal } from "~/kernel/sign-in.server";
import { logSsoFailure, ssoTenant } from "~/kernel/sso.server";
import { apiError, apiInvalid, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/utils/auth-schemas";
import { CAPABILITIES, CAPABILITY_GROUPS } from "~/utils/capabilities";
import { paginated } from "~/utils/pagination";
import { call, E, guarded, id, isoDate, page, type ApiCall, type CallArgs, type ErrorCase } from "../contract.server";

/** Signing in and out, one's devices, and the organization's API tokens (docs/product.md §7 "Auth", "API"). */

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
export const ssoAnswer = z.object({
  state: z.string().min(1).max(500),
  binding: z.string().min(1).max(200),
  code: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});
export const tokenBody = z.object({
  name: z.string().trim().min(1, "validation.required").max(100),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1, "validation.required").max(CAPABILITIES.length),
  expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS).default(DEFAULT_TOKEN_DAYS),
});

const devicePath = z.object({ id: z.coerce.number().int().positive() });

const SSO_STATUS: Partial<Record<SsoFailure["code"], number>> = {
  unknown_driver: 404,
  unreachable: 502,
  config: 502,
  busy: 503,
  disabled: 403,
  organization: 403,
  not_allowed: 403,
  email_taken: 403,
};
const SSO_FIELDS = ["code", "state", "iss", "error", "error_description"] as const;

/**
 * `…/sso/{driver}/redirect` (docs/product.md §7): an app starts a sign-in. The reply gives the provider's address to
 * open in a browser, the state, and a `binding` value the app keeps to itself and sends back with the
 * answer: a code caught by anyone else is worthless without it. The provider returns to callback-raw.
 */
async function ssoStart({ request, context, params }: CallArgs) {
  if (!context.organization) return apiNotFound(request, context);
  const tenant = ssoTenant(context);
  const driver = getDriverBySlug(tenant.db, params.driver);
  if (!driver || !driver.enabled) return apiNotFound(request, context);
  try {
    const started = await beginSignIn(tenant, driver, { kind: "api" });
    const reply = {
      authorization_url: started.url,
      state: started.state,
      binding: started.binding,
      redirect_uri: redirectUriFor(tenant, driver, "api"),
      expires_in: started.expiresIn,
    };
    return apiOk(reply, 200, { "Cache-Control": "no-store" });
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    logSsoFailure(context, error);
    const t = await apiT(request, context);
    return apiError(error.code === "busy" ? 503 : 502, { message: t(`sso.errors.${error.code}`), code: error.code });
  }
}

/**
 * `…/sso/{driver}/callback-raw`: the redirect address of an app's sign-in. It spends nothing and signs no
 * one in: it hands the provider's answer back as JSON to the app that opened the browser, which then calls
 * the callback with the answer and its binding value.
 */
async function ssoRaw({ request, context, params }: CallArgs) {
  if (!context.organization) return apiNotFound(request, context);
  const driver = getDriverBySlug(ssoTenant(context).db, params.driver);
  if (!driver) return apiNotFound(request, context);
  let source = new URL(request.url).searchParams;
  if (request.method === "POST" && (request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    source = new URLSearchParams(await request.text());
  }
  const answer: Record<string, string | null> = {};
  for (const field of SSO_FIELDS) answer[field] = source.get(field)?.slice(0, 2000) ?? null;
  return apiOk({ driver: driver.slug, ...answer }, 200, { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
}

/** `…/sso/{driver}/callback`: the provider's answer (JSON, a form, or the query) with the binding → a token, as login's. */
async function ssoCallback({ request, context, params }: CallArgs) {
  if (!context.organization) return apiNotFound(request, context);
  const tenant = ssoTenant(context);
  const driver = getDriverBySlug(tenant.db, params.driver);
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
  const parsed = ssoAnswer.safeParse(body);
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
    const reply = {
      token,
      token_type: "Bearer",
      expires_in: SESSION_LIFETIME_SECONDS,
      two_factor_pending: twoFactorPending,
      user: personReply(realm, person, { twoFactorPending }),
    };
    return apiOk(reply, 200, { "Cache-Control": "no-store" });
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    logSsoFailure(context, error);
    const t = await apiT(request, context);
    return apiError(SSO_STATUS[error.code] ?? 401, { message: t(`sso.errors.${error.code}`), code: error.code });
  }
}

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

const tokenReply = z.object({
  token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  two_factor_pending: z.boolean(),
  user: personView,
});

const person = {
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
const token = "lt_5QdF0v9r3XbK1mJ8wTz2yC4hN7pL6sAe";

const session: ErrorCase[] = [E.unauthenticated];
const ssoErrors: ErrorCase[] = [
  E.notFound,
  { status: 502, code: "unreachable", when: "the identity provider does not answer (or `config`: it is set up wrongly)" },
  { status: 503, code: "busy", when: "too many sign-ins are being started at once" },
];

const deviceView = z.object({
  id,
  kind: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: isoDate,
  last_seen_at: isoDate,
  expires_at: isoDate,
  current: z.boolean(),
});

const apiTokenReply = z.object({
  id,
  name: z.string(),
  user_id: id.nullable(),
  capabilities: z.array(z.string()),
  created_at: isoDate,
  expires_at: isoDate,
  last_used_at: isoDate.nullable(),
});

export const authCalls: ApiCall[] = [
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
      reply: { token, token_type: "Bearer", expires_in: 2592000, two_factor_pending: false, user: person },
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
      ...session,
      E.invalid,
      { status: 422, code: "invalid", when: "the code is wrong (`expired`: too old; `no_code`: none was sent)" },
      { status: 429, code: "too_many_attempts", when: "five wrong codes: sign in again" },
    ],
    example: { body: { code: "123456" }, reply: { user: person } },
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
    errors: [...session, { status: 429, code: "too_many_sends", when: "five codes were sent for this sign-in: sign in again" }],
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
  call({
    method: "POST",
    path: "/api/auth/logout",
    tag: "Sign-in",
    summary: "Sign out the calling token",
    access: "session",
    allowPendingTwoFactor: true,
    reply: z.object({ logged_out: z.literal(true) }),
    errors: [...session, E.sessionOnly],
    example: { reply: { logged_out: true } },
    handler: ({ context, viewer }) => {
      revokeSession(realmFor(context), (viewer as SignedInViewer).session.id);
      return { logged_out: true };
    },
  }),
  ...(["GET", "POST"] as const).map((method): ApiCall =>
    call({
      method,
      path: "/api/auth/user",
      tag: "Sign-in",
      summary: "Who am I",
      description: "The person the token belongs to, with the role and capabilities held here.",
      access: "signed-in",
      host: "both",
      reply: personView.extend({ capabilities: z.array(z.enum(CAPABILITIES)) }),
      errors: [...session, E.twoFactorPending, E.organization, E.notFound],
      example: { reply: { ...person, capabilities: ["learn:course", "read:course"] } },
      // An organization's own token (made by a super-admin) and a super-admin's platform token have no person here.
      handler: async ({ request, context, viewer }) => {
        if (!viewer.person) return apiNotFound(request, context);
        return {
          ...personReply(realmFor(context), viewer.person, { twoFactorPending: viewer.session?.twoFactorPending ?? false }),
          type: viewer.role,
          capabilities: [...viewer.capabilities].sort(),
        };
      },
    }),
  ),
  call({
    method: "POST",
    path: "/api/auth/refresh",
    tag: "Sign-in",
    summary: "Swap the token for a new one",
    description: "The new token lasts another 30 days; the old one is revoked at once. Browser sessions cannot be refreshed here (405).",
    access: "session",
    reply: z.object({ token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int() }),
    errors: [...session, E.twoFactorPending, E.sessionOnly, E.method],
    example: { reply: { token, token_type: "Bearer", expires_in: 2592000 } },
    handler: async ({ request, context, viewer }) => {
      // A browser's cookie session is refreshed by signing in; handing its token out as JSON would undo HttpOnly.
      if (viewer.via !== "bearer") {
        const t = await apiT(request, context);
        return apiError(405, { message: t("api.methodNotAllowed"), code: "method_not_allowed" }, { Allow: "POST" });
      }
      const { token } = refreshSession(realmFor(context), (viewer as SignedInViewer).session);
      return { token, token_type: "Bearer", expires_in: SESSION_LIFETIME_SECONDS };
    },
  }),
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
      reply: { access_token: token, token, token_type: "Bearer", expires_in: 2592000, user: person },
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
          console.error(JSON.stringify({ level: "error", msg: "reset mail failed", error: String(error) })),
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
  ...(["GET", "POST"] as const).flatMap((method): ApiCall[] => [
    call({
      method,
      path: "/api/auth/sso/{driver}/redirect",
      tag: "Single sign-on",
      summary: "Start an SSO sign-in from an app",
      description:
        "Open `authorization_url` in a browser; keep `binding` to yourself and hand it to the callback call with the provider's answer.",
      access: "public",
      reply: z.object({
        authorization_url: z.string().url(),
        state: z.string(),
        binding: z.string(),
        redirect_uri: z.string().url(),
        expires_in: z.number().int(),
      }),
      errors: ssoErrors,
      example: {
        reply: {
          authorization_url: "https://idp.example.com/authorize?client_id=lectern&state=Yk3…",
          state: "Yk3q0Lr2",
          binding: "b2Fz9XcQ",
          redirect_uri: "http://acme.localhost:3000/api/auth/sso/google/callback-raw",
          expires_in: 600,
        },
      },
      handler: ssoStart,
    }),
    call({
      method,
      path: "/api/auth/sso/{driver}/callback-raw",
      tag: "Single sign-on",
      summary: "The redirect address of an app's SSO sign-in",
      description: "Echoes the provider's answer (`code`, `state`, `iss`, `error`) for the app to pass on to the callback call.",
      access: "public",
      reply: z.object({
        driver: z.string(),
        code: z.string().nullable(),
        state: z.string().nullable(),
        iss: z.string().nullable(),
        error: z.string().nullable(),
        error_description: z.string().nullable(),
      }),
      errors: [E.notFound],
      example: {
        query: { code: "4/0Ab…", state: "Yk3q0Lr2" },
        reply: { driver: "google", code: "4/0Ab…", state: "Yk3q0Lr2", iss: null, error: null, error_description: null },
      },
      handler: ssoRaw,
    }),
    call({
      method,
      path: "/api/auth/sso/{driver}/callback",
      tag: "Single sign-on",
      summary: "Finish an SSO sign-in and get a token",
      description:
        "Send the provider's answer with the `binding` from the redirect call (as JSON, a form, or the query). The reply is the one of `POST /api/auth/login`.",
      access: "public",
      // The answer comes as JSON, a form or the query: the handler reads it.
      ...(method === "GET" ? { query: ssoAnswer } : { body: ssoAnswer }),
      ownInput: true,
      reply: tokenReply,
      errors: [
        ...ssoErrors,
        E.invalid,
        { status: 401, code: "state", when: "the answer does not belong to this sign-in (or another SSO failure)" },
        {
          status: 403,
          code: "not_allowed",
          when: "the provider's account may not sign in here (also `disabled`, `email_taken`, `organization`)",
        },
      ],
      example: {
        body: { state: "Yk3q0Lr2", binding: "b2Fz9XcQ", code: "4/0Ab…" },
        reply: { token, token_type: "Bearer", expires_in: 2592000, two_factor_pending: false, user: person },
      },
      handler: ssoCallback,
    }),
  ]),
  call({
    method: "GET",
    path: "/api/devices",
    tag: "Sign-in",
    summary: "My signed-in devices",
    description: "Browsers and tokens of the caller; `current` marks this one.",
    access: "session",
    reply: page(deviceView),
    errors: [...session, E.twoFactorPending, E.organization, E.sessionOnly],
    example: {
      reply: {
        data: [
          {
            id: 3,
            kind: "api",
            user_agent: "LecternApp/2.1",
            ip: "203.0.113.9",
            created_at: "2026-05-04T09:30:00.000Z",
            last_seen_at: "2026-05-04T10:00:00.000Z",
            expires_at: "2026-06-03T09:30:00.000Z",
            current: true,
          },
        ],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    handler: ({ context, viewer }) => {
      const auth = viewer as SignedInViewer;
      const devices = listDevices(realmFor(context), auth.person.id).map((s) => deviceReply(s, auth.session.id));
      return paginated(devices, devices.length, { page: 1, perPage: Math.max(devices.length, 1) });
    },
  }),
  call({
    method: "DELETE",
    path: "/api/devices/{id}",
    tag: "Sign-in",
    summary: "Sign a device out",
    description: "Its token fails on its very next call. Another person's device is a 404.",
    access: "session",
    reply: z.object({ id, revoked: z.literal(true) }),
    errors: [...session, E.twoFactorPending, E.organization, E.sessionOnly, E.notFound, E.invalid],
    example: { reply: { id: 3, revoked: true } },
    // Another person's device is as absent as one that never existed.
    handler: async ({ request, context, params, viewer }) => {
      const parsed = devicePath.safeParse(params);
      if (!parsed.success) return apiInvalid(request, context, parsed.error);
      if (!revokeDevice(realmFor(context), (viewer as SignedInViewer).person.id, parsed.data.id)) return apiNotFound(request, context);
      return { id: parsed.data.id, revoked: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/api/tokens",
    tag: "API tokens",
    summary: "The organization's API tokens",
    description: "With their last use; never the secrets.",
    access: "manage:api-token",
    reply: page(apiTokenReply),
    errors: guarded(),
    example: {
      reply: {
        data: [
          {
            id: 2,
            name: "HR sync",
            user_id: 1,
            capabilities: ["read:user", "write:user"],
            created_at: "2026-05-04T09:30:00.000Z",
            expires_at: "2026-06-03T09:30:00.000Z",
            last_used_at: null,
          },
        ],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    handler: ({ context }) => {
      const items = listApiTokens(context.db!).map(apiTokenView);
      return paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) });
    },
  }),
  call({
    method: "POST",
    path: "/api/api/tokens",
    tag: "API tokens",
    summary: "Create an API token",
    description:
      "The secret (`token`) is in this reply only. A token may hold only capabilities its creator holds, and lives 1 to 30 days (`expires_in_days`).",
    access: "manage:api-token",
    body: tokenBody,
    reply: apiTokenReply.extend({ token: z.string() }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { name: "HR sync", capabilities: ["read:user", "write:user"], expires_in_days: 30 },
      reply: {
        id: 2,
        name: "HR sync",
        user_id: 1,
        capabilities: ["read:user", "write:user"],
        created_at: "2026-05-04T09:30:00.000Z",
        expires_at: "2026-06-03T09:30:00.000Z",
        last_used_at: null,
        token,
      },
    },
    // A token may hold only capabilities its creator holds.
    handler: async ({ request, context, viewer, body }) => {
      const result = createApiToken(context.db!, {
        userId: viewer.person?.id ?? null,
        name: body.name,
        capabilities: body.capabilities,
        ceiling: viewer.capabilities,
        days: body.expires_in_days,
        notAfter: viewer.token?.expiresAt ?? viewer.session?.expiresAt,
      });
      if ("error" in result) {
        const t = await apiT(request, context);
        return apiError(422, {
          message: t("api.invalid"),
          code: "invalid",
          fields: { capabilities: [t("api.beyondOwnCapabilities", { capabilities: result.capabilities.join(", ") })] },
        });
      }
      return { ...apiTokenView(result.apiToken), token: result.token };
    },
  }),
  call({
    method: "DELETE",
    path: "/api/api/tokens/{id}",
    tag: "API tokens",
    summary: "Revoke an API token",
    access: "manage:api-token",
    reply: z.object({ id, revoked: z.literal(true) }),
    errors: guarded(),
    example: { reply: { id: 2, revoked: true } },
    handler: ({ request, context, params }) => {
      const parsed = devicePath.safeParse(params);
      if (!parsed.success || !revokeApiToken(context.db!, parsed.data.id)) return apiNotFound(request, context);
      return { id: parsed.data.id, revoked: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/api/capabilities",
    tag: "API tokens",
    summary: "Every capability, and whether the caller holds it",
    access: "signed-in",
    reply: page(z.object({ id: z.enum(CAPABILITIES), group: z.string().nullable(), label: z.string(), granted: z.boolean() })),
    errors: [E.unauthenticated, E.twoFactorPending, E.organization],
    example: {
      reply: {
        data: [{ id: "read:course", group: "courses", label: "See courses", granted: true }],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    // A token can be given only those the caller holds.
    handler: async ({ request, context, viewer }) => {
      const t = await apiT(request, context);
      const groupOf = new Map(CAPABILITY_GROUPS.flatMap((g) => g.capabilities.map((c) => [c, g.id] as const)));
      const items = CAPABILITIES.map((id) => ({
        id,
        group: groupOf.get(id) ?? null,
        label: t(`capabilities.${id}`),
        granted: may(viewer, id),
      }));
      return paginated(items, items.length, { page: 1, perPage: items.length });
    },
  }),
  call({
    method: "GET",
    path: "/api/api/capabilities/groups",
    tag: "API tokens",
    summary: "Capabilities grouped for display",
    access: "signed-in",
    reply: page(
      z.object({ id: z.string(), name: z.string(), capabilities: z.array(z.object({ id: z.enum(CAPABILITIES), label: z.string() })) }),
    ),
    errors: [E.unauthenticated, E.twoFactorPending, E.organization],
    example: {
      reply: {
        data: [{ id: "courses", name: "Courses", capabilities: [{ id: "read:course", label: "See courses" }] }],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    handler: async ({ request, context }) => {
      const t = await apiT(request, context);
      const items = CAPABILITY_GROUPS.map((g) => ({
        id: g.id,
        name: t(`capabilityGroups.${g.id}`),
        capabilities: g.capabilities.map((id) => ({ id, label: t(`capabilities.${id}`) })),
      }));
      return paginated(items, items.length, { page: 1, perPage: items.length });
    },
  }),
];
