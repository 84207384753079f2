import { z } from "zod";
import { SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { personForIdentity } from "~/models/sso/accounts.server";
import { getDriverBySlug } from "~/models/sso/drivers.server";
import { beginSignIn, redirectUriFor, SsoFailure } from "~/models/sso/flow.server";
import { authenticateSso } from "~/models/sso/strategy.server";
import { personView as personReply, type User } from "~/models/user.server";
import { realmFor, startSession } from "~/kernel/auth.server";
import { logSsoFailure, ssoTenant } from "~/kernel/sso.server";
import { apiError, apiInvalid, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { call, E, type ApiCall, type CallArgs, type ErrorCase } from "../contract.server";
import { personExample, tokenExample, tokenReply } from "./sign-in.server";

/** Single sign-on from an app (docs/product.md §7 "Auth", docs/decisions/019-sso.md): start, the provider's return, finish. */

export const ssoAnswer = z.object({
  state: z.string().min(1).max(500),
  binding: z.string().min(1).max(200),
  code: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

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

const ssoErrors: ErrorCase[] = [
  E.notFound,
  { status: 502, code: "unreachable", when: "the identity provider does not answer (or `config`: it is set up wrongly)" },
  { status: 503, code: "busy", when: "too many sign-ins are being started at once" },
];

/** Each call answers GET and POST: providers return either way, and apps call as they like. */
export const ssoCalls: ApiCall[] = [
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
        reply: { token: tokenExample, token_type: "Bearer", expires_in: 2592000, two_factor_pending: false, user: personExample },
      },
      handler: ssoCallback,
    }),
  ]),
];
