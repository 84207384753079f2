import { type AppLoadContext } from "@remix-run/node";
import { redirect } from "../utils/redirect";
import type { User } from "../../db/tenant";
import { isSignedIn, isSuperAdmin, may, mayOpenDashboard } from "../access/rules";
import type { SignedInViewer, Viewer } from "../access/viewer";
import type { AuthRealm } from "../models/auth/realm.server";
import { createSession, type SessionKind } from "../models/auth/session.server";
import { issueCode } from "../models/auth/two-factor.server";
import { sendTwoFactorCode } from "../models/auth/mail.server";
import { apiError, apiT } from "../utils/api.server";
import type { Capability } from "../utils/capabilities";
import { requireOrganization } from "../utils/tenant.server";
import { realmOf, viewerOfSession, type Tenancy } from "./viewer.server";

export { sessionCookie, bearerToken } from "./viewer.server";

/**
 * The guards: what a page or /api call asks of the request's viewer (built once per request, see
 * app/kernel/viewer.server.ts) before it runs. The rules they apply are app/access's.
 */

export function tenancyOf(context: AppLoadContext): Tenancy {
  return {
    organization: context.organization,
    db: context.db,
    platformDb: context.platform.db,
    superAdminTwoFactor: context.platform.config.SUPER_ADMIN_2FA,
  };
}

/** The organization's users on its host; super-admins on the platform host. */
export function realmFor(context: AppLoadContext): AuthRealm {
  return realmOf(tenancyOf(context));
}

function currentPath(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/**
 * docs/product.md §4's guards for pages: not signed in → /auth/login (with the way back); code not confirmed →
 * /auth/2fa/confirm; no role in this organization → /auth/no-access.
 */
export function requireUser(
  request: Request,
  context: AppLoadContext,
  { allowPendingTwoFactor = false }: { allowPendingTwoFactor?: boolean } = {},
): SignedInViewer {
  const viewer = context.viewer;
  if (!viewer.session || !viewer.person) {
    throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: currentPath(request) })}`);
  }
  if (viewer.session.twoFactorPending && !allowPendingTwoFactor) throw redirect("/auth/2fa/confirm");
  if (!viewer.role) throw redirect("/auth/no-access");
  return viewer as SignedInViewer;
}

/**
 * A page that needs a capability: signed in (as requireUser), then 403 for those without it. Pages
 * hide links to what a person may not do; this is what holds when someone types the address.
 */
export function requireCapability(request: Request, context: AppLoadContext, capability: Capability) {
  const viewer = requireUser(request, context);
  if (!may(viewer, capability)) throw new Response("Forbidden", { status: 403 });
  return viewer;
}

/**
 * The dashboard's pages (app/access/rules.ts `mayOpenDashboard`): an organization's, so on another host they
 * do not exist (404); signed in (as requireUser); then 403 for anyone but the organization's admins. Every
 * dashboard loader and action asks this itself, not only the layout: a data request (`?_data=<route id>`)
 * runs that one route's loader alone (tests/integration/data-requests.test.ts).
 */
export function requireDashboard(request: Request, context: AppLoadContext): SignedInViewer {
  requireOrganization(context);
  const viewer = requireUser(request, context);
  if (!mayOpenDashboard(viewer)) throw new Response("Forbidden", { status: 403 });
  return viewer;
}

/** /admin is the platform's: super-admins on the platform host; anywhere else it does not exist. */
export function requireSuperAdmin(request: Request, context: AppLoadContext) {
  if (context.organization) throw new Response("Not Found", { status: 404 });
  const viewer = requireUser(request, context);
  if (!isSuperAdmin(viewer)) throw new Response("Not Found", { status: 404 });
  return viewer;
}

/**
 * The same guards for /api, answered in the envelope: 401 without a live token, 401 until the code is
 * in, 403 without a role here or (when one is named) without the capability.
 */
export async function requireApiAuth(
  request: Request,
  context: AppLoadContext,
  { allowPendingTwoFactor = false, capability }: { allowPendingTwoFactor?: boolean; capability?: Capability } = {},
): Promise<Viewer> {
  const viewer = context.viewer;
  // The translator is looked up only for a refusal: it was a tenth of a heartbeat's cost.
  const refuse = async (status: 401 | 403, key: string, code: string) => {
    const t = await apiT(request, context);
    return apiError(status, { message: t(key), code });
  };
  if (!viewer.via) throw await refuse(401, "api.unauthenticated", "unauthenticated");
  if (viewer.session?.twoFactorPending && !allowPendingTwoFactor) throw await refuse(401, "api.twoFactorPending", "two_factor_pending");
  if (!viewer.role) throw await refuse(403, "auth.errors.organization", "organization");
  if (capability && !may(viewer, capability)) throw await refuse(403, "api.forbidden", "forbidden");
  return viewer;
}

/** The /api calls about one's own sign-in (2FA, logout, refresh, devices) need a session, not a token. */
export async function requireApiSession(
  request: Request,
  context: AppLoadContext,
  options: { allowPendingTwoFactor?: boolean } = {},
): Promise<SignedInViewer> {
  const viewer = await requireApiAuth(request, context, options);
  if (!viewer.session || !viewer.person) {
    const t = await apiT(request, context);
    throw apiError(403, { message: t("api.sessionOnly"), code: "session_only" });
  }
  return viewer as SignedInViewer;
}

/** The signed-in learner of an organization's page, or null (signed out, code pending, no role here). */
export function signedInViewer(context: AppLoadContext): SignedInViewer | null {
  return isSignedIn(context.viewer) && context.viewer.session ? (context.viewer as SignedInViewer) : null;
}

/**
 * Opens a session for a person who passed the password step (or a sign-in link). Where the realm asks
 * for two-factor, the session starts pending and the first code is mailed at once. The rest of the
 * request acts as that person.
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
  context.viewer = viewerOfSession(context.viewer, tenancyOf(context), kind === "api" ? "bearer" : "cookie", { session, person });
  return { token, session, twoFactorPending };
}

/** Where a signed-in person belongs (docs/product.md §2: /auth/redirect acts as home). */
export function homeFor(viewer: Pick<Viewer, "role">) {
  if (viewer.role === "super_admin") return "/admin";
  return viewer.role === "admin" ? "/dashboard" : "/";
}
