import { createCookie, redirect, type AppLoadContext } from "@remix-run/node";
import type { Session, User } from "../../db/tenant";
import type { ApiToken } from "../../db/tenant";
import { findApiToken, tokenCapabilities } from "../models/auth/api-token.server";
import { organizationRealm, platformRealm, roleIn, type AuthRealm } from "../models/auth/realm.server";
import { administeredGroupIds } from "../models/group.server";
import { getUser } from "../models/user.server";
import { capabilitiesOf, type Capability, type Role } from "../utils/capabilities";
import { createSession, findSession, SESSION_LIFETIME_SECONDS, type SessionKind } from "../models/auth/session.server";
import { issueCode } from "../models/auth/two-factor.server";
import { sendTwoFactorCode } from "../models/auth/mail.server";
import { apiError, apiT } from "../utils/api.server";

/** The session cookie: a random token, host-only (no Domain), HttpOnly, 30 days (spec §9). */
export const sessionCookie = createCookie("lectern_session", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: process.env.COOKIE_SECURE === "true",
  maxAge: SESSION_LIFETIME_SECONDS,
});

export interface Auth {
  /** The realm of the request's host: the organization's people, or the platform's super-admins. */
  realm: AuthRealm;
  via: "cookie" | "bearer";
  /** The signed-in device, when the caller signed in (cookie, or an /api login token). */
  session: Session | null;
  /** The API token, when the caller uses one. */
  token: ApiToken | null;
  /** The person acting: an organization's user, or (on the platform host) a super-admin. */
  person: User | null;
  role: Role | null;
  capabilities: ReadonlySet<Capability>;
}

/** An Auth that comes from a signed-in session: pages, and the session calls of /api. */
export type SessionAuth = Auth & { session: Session; person: User };

/** The organization's users on its host; super-admins on the platform host. */
export function realmFor(context: AppLoadContext): AuthRealm {
  if (context.organization && context.db) return organizationRealm(context.db, context.organization);
  return platformRealm(context.platform.db, { twoFactorRequired: context.platform.config.SUPER_ADMIN_2FA });
}

/** What telling who is asking reads of a request: its headers (the server reads them before the body). */
export interface Credentials {
  headers: { get(name: string): string | null };
}

export function bearerToken(request: Credentials) {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/**
 * A person's role here: super-admin on the platform; in an organization, admin, or learner — and a
 * learner who administers a group is a group admin.
 */
export function roleOf(realm: AuthRealm, context: AppLoadContext, person: User): Role | null {
  const stored = roleIn(realm, person);
  if (stored === "super_admin" || stored === "admin" || stored === null) return stored;
  return context.db && administeredGroupIds(context.db, person.id).length > 0 ? "group_admin" : "learner";
}

function fromSession(realm: AuthRealm, context: AppLoadContext, via: Auth["via"], found: { session: Session; person: User }): Auth {
  const role = roleOf(realm, context, found.person);
  return { realm, via, session: found.session, token: null, person: found.person, role, capabilities: capabilitiesOf(role) };
}

/**
 * Who is asking, checked against the database on every request (memoised for the request). A Bearer
 * token is a signed-in app's session or an API token (bounded by its owner's current rights), always of
 * the request's own organization: a token of one host is never accepted on another, the platform's
 * included. A browser is known by its session cookie. A token is never read from the query string.
 */
export async function getAuth(request: Credentials, context: AppLoadContext): Promise<Auth | null> {
  if (context.auth !== undefined) return context.auth;
  const realm = realmFor(context);
  const bearer = bearerToken(request);
  let auth: Auth | null = null;
  if (bearer) {
    auth = bearerAuth(realm, context, bearer);
  } else {
    const token = await sessionCookie.parse(request.headers.get("Cookie"));
    const found = typeof token === "string" ? findSession(realm, token) : null;
    if (found && found.session.kind === "web") auth = fromSession(realm, context, "cookie", found);
  }
  context.auth = auth;
  return auth;
}

function bearerAuth(realm: AuthRealm, context: AppLoadContext, bearer: string): Auth | null {
  const found = findSession(realm, bearer);
  if (found) return found.session.kind === "api" ? fromSession(realm, context, "bearer", found) : null;
  if (realm.kind === "organization" && context.db) {
    const apiToken = findApiToken(context.db, bearer);
    if (apiToken) {
      const owner = apiToken.userId ? getUser(context.db, apiToken.userId) : null;
      if (apiToken.userId && (!owner || owner.disabledAt)) return null;
      // A token can never do more than its owner can do today: lowering the owner lowers the token.
      const ceiling = owner ? capabilitiesOf(roleOf(realm, context, owner)) : capabilitiesOf("admin");
      const capabilities = new Set(tokenCapabilities(apiToken).filter((c) => ceiling.has(c)));
      const role = owner ? roleOf(realm, context, owner) : "admin";
      return { realm, via: "bearer", session: null, token: apiToken, person: owner ?? null, role, capabilities };
    }
  }
  return null;
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
): Promise<SessionAuth> {
  const auth = await getAuth(request, context);
  if (!auth || !auth.session || !auth.person) {
    throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: currentPath(request) })}`);
  }
  if (auth.session.twoFactorPending && !allowPendingTwoFactor) throw redirect("/auth/2fa/confirm");
  if (!auth.role) throw redirect("/auth/no-access");
  return auth as SessionAuth;
}

/**
 * A page that needs a capability: signed in (as requireUser), then 403 for those without it. Pages
 * hide links to what a person may not do; this is what holds when someone types the address.
 */
export async function requireCapability(request: Request, context: AppLoadContext, capability: Capability) {
  const auth = await requireUser(request, context);
  if (!auth.capabilities.has(capability)) throw new Response("Forbidden", { status: 403 });
  return auth;
}

/** /admin is the platform's: super-admins on the platform host; anywhere else it does not exist. */
export async function requireSuperAdmin(request: Request, context: AppLoadContext) {
  if (context.organization) throw new Response("Not Found", { status: 404 });
  const auth = await requireUser(request, context);
  if (auth.role !== "super_admin") throw new Response("Not Found", { status: 404 });
  return auth;
}

/**
 * The same guards for /api, answered in the envelope: 401 without a live token, 401 until the code is
 * in, 403 without a role here or (when one is named) without the capability.
 */
export async function requireApiAuth(
  request: Request,
  context: AppLoadContext,
  { allowPendingTwoFactor = false, capability }: { allowPendingTwoFactor?: boolean; capability?: Capability } = {},
): Promise<Auth> {
  const auth = await getAuth(request, context);
  // The translator is looked up only for a refusal: it was a tenth of a heartbeat's cost.
  const refuse = async (status: 401 | 403, key: string, code: string) => {
    const t = await apiT(request, context);
    return apiError(status, { message: t(key), code });
  };
  if (!auth) throw await refuse(401, "api.unauthenticated", "unauthenticated");
  if (auth.session?.twoFactorPending && !allowPendingTwoFactor) throw await refuse(401, "api.twoFactorPending", "two_factor_pending");
  if (!auth.role) throw await refuse(403, "auth.errors.organization", "organization");
  if (capability && !auth.capabilities.has(capability)) throw await refuse(403, "api.forbidden", "forbidden");
  return auth;
}

/** The /api calls about one's own sign-in (2FA, logout, refresh, devices) need a session, not a token. */
export async function requireApiSession(
  request: Request,
  context: AppLoadContext,
  options: { allowPendingTwoFactor?: boolean } = {},
): Promise<SessionAuth> {
  const auth = await requireApiAuth(request, context, options);
  if (!auth.session || !auth.person) {
    const t = await apiT(request, context);
    throw apiError(403, { message: t("api.sessionOnly"), code: "session_only" });
  }
  return auth as SessionAuth;
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
  context.auth = fromSession(realm, context, kind === "api" ? "bearer" : "cookie", { session, person });
  return { token, session, twoFactorPending };
}

/** Where a signed-in person belongs (spec §2: /auth/redirect acts as home). */
export function homeFor(auth: Pick<Auth, "role">) {
  if (auth.role === "super_admin") return "/admin";
  return auth.role === "admin" ? "/dashboard" : "/";
}
