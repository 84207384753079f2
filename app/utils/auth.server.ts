import { createCookie, redirect, type AppLoadContext } from "@remix-run/node";
import type { Session, User } from "../../db/tenant";
import { organizationRealm, platformRealm, roleIn, type AuthRealm, type PersonRole } from "../models/auth/realm.server";
import { createSession, findSession, SESSION_LIFETIME_SECONDS, type SessionKind } from "../models/auth/session.server";
import { issueCode } from "../models/auth/two-factor.server";
import { sendTwoFactorCode } from "../models/auth/mail.server";
import { apiError, apiT } from "./api.server";

/** The session cookie: a random token, host-only (no Domain), HttpOnly, 30 days (spec §9). */
export const sessionCookie = createCookie("lectern_session", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: process.env.COOKIE_SECURE === "true",
  maxAge: SESSION_LIFETIME_SECONDS,
});

export interface Auth {
  realm: AuthRealm;
  session: Session;
  person: User;
  role: PersonRole | null;
  via: "cookie" | "bearer";
}

/** The organization's users on its host; super-admins on the platform host. */
export function realmFor(context: AppLoadContext): AuthRealm {
  if (context.organization && context.db) return organizationRealm(context.db, context.organization);
  return platformRealm(context.platform.db, { twoFactorRequired: context.platform.config.SUPER_ADMIN_2FA });
}

export function bearerToken(request: Request) {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/**
 * Who is asking, checked against the database on every request (memoised for the request): an API
 * token in `Authorization: Bearer`, or the session cookie. A token is never read from the query string.
 */
export async function getAuth(request: Request, context: AppLoadContext): Promise<Auth | null> {
  if (context.auth !== undefined) return context.auth;
  const realm = realmFor(context);
  const bearer = bearerToken(request);
  let auth: Auth | null = null;
  if (bearer) {
    const found = findSession(realm, bearer);
    if (found && found.session.kind === "api") auth = { realm, ...found, role: roleIn(realm, found.person), via: "bearer" };
  } else {
    const token = await sessionCookie.parse(request.headers.get("Cookie"));
    const found = typeof token === "string" ? findSession(realm, token) : null;
    if (found && found.session.kind === "web") auth = { realm, ...found, role: roleIn(realm, found.person), via: "cookie" };
  }
  context.auth = auth;
  return auth;
}

function currentPath(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/**
 * Spec §4's guards for pages: not signed in → /auth/login (with the way back); code not confirmed →
 * /auth/2fa/confirm; no role in this organization → /auth/no-access.
 */
export async function requireUser(
  request: Request,
  context: AppLoadContext,
  { allowPendingTwoFactor = false }: { allowPendingTwoFactor?: boolean } = {},
): Promise<Auth> {
  const auth = await getAuth(request, context);
  if (!auth) {
    throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: currentPath(request) })}`);
  }
  if (auth.session.twoFactorPending && !allowPendingTwoFactor) throw redirect("/auth/2fa/confirm");
  if (!auth.role) throw redirect("/auth/no-access");
  return auth;
}

/** /admin is the platform's: super-admins on the platform host; anywhere else it does not exist. */
export async function requireSuperAdmin(request: Request, context: AppLoadContext) {
  if (context.organization) throw new Response("Not Found", { status: 404 });
  const auth = await requireUser(request, context);
  if (auth.role !== "super_admin") throw new Response("Not Found", { status: 404 });
  return auth;
}

/** The same guards for /api, answered in the envelope: 401 without a live token, 401 until the code is in. */
export async function requireApiAuth(
  request: Request,
  context: AppLoadContext,
  { allowPendingTwoFactor = false }: { allowPendingTwoFactor?: boolean } = {},
): Promise<Auth> {
  const auth = await getAuth(request, context);
  const t = await apiT(request, context);
  if (!auth) throw apiError(401, { message: t("api.unauthenticated"), code: "unauthenticated" });
  if (auth.session.twoFactorPending && !allowPendingTwoFactor) {
    throw apiError(401, { message: t("api.twoFactorPending"), code: "two_factor_pending" });
  }
  if (!auth.role) throw apiError(403, { message: t("auth.errors.organization"), code: "organization" });
  return auth;
}

/**
 * Opens a session for a person who passed the password step (or a sign-in link). Where the realm asks
 * for two-factor, the session starts pending and the first code is mailed at once.
 */
export async function startSession(
  request: Request,
  context: AppLoadContext,
  realm: AuthRealm,
  person: User,
  { kind, skipTwoFactor = false }: { kind: SessionKind; skipTwoFactor?: boolean },
) {
  const twoFactorPending = realm.twoFactorRequired && !skipTwoFactor;
  const { token, session } = createSession(realm, {
    personId: person.id,
    kind,
    userAgent: request.headers.get("User-Agent") ?? "",
    ip: context.clientIp,
    twoFactorPending,
  });
  if (twoFactorPending) {
    const issued = issueCode(realm, session);
    if ("code" in issued) await sendTwoFactorCode(context.platform, realm, person, issued.code);
  }
  context.auth = { realm, session, person, role: roleIn(realm, person), via: kind === "api" ? "bearer" : "cookie" };
  return { token, session, twoFactorPending };
}

/** Where a signed-in person belongs (spec §2: /auth/redirect acts as home). */
export function homeFor(auth: Pick<Auth, "role">) {
  return auth.role === "super_admin" ? "/admin" : "/";
}
