import { createCookie, type AppLoadContext } from "@remix-run/node";
import type { User } from "../../db/tenant";
import { revokeSession } from "../models/auth/session.server";
import { personForIdentity } from "../models/sso/accounts.server";
import { getDriverBySlug } from "../models/sso/drivers.server";
import { SsoFailure, type SsoErrorCode, type SsoKind, type SsoTenant } from "../models/sso/flow.server";
import { authenticateSso } from "../models/sso/strategy.server";
import { realmFor, sessionCookie, startSession } from "./auth.server";
import { redirect, redirectOffSite, safeRedirectPath } from "../utils/redirect";
import { requireOrganization } from "../utils/tenant.server";

/**
 * Binds a browser's sign-in to the browser that started it: a random value whose hash is stored with
 * the state. Host-only, HttpOnly, SameSite=Lax (the provider sends people back with a top-level GET),
 * limited to /auth/sso and to the 10 minutes a sign-in may take.
 */
export const ssoCookie = createCookie("lectern_sso", {
  path: "/auth/sso",
  httpOnly: true,
  sameSite: "lax",
  secure: process.env.COOKIE_SECURE === "true",
  maxAge: 600,
});

/** The request's organization as the SSO models need it; its address comes from what is stored. */
export function ssoTenant(context: AppLoadContext): SsoTenant {
  const { organization, db } = requireOrganization(context);
  return { db, box: context.platform.secrets, organizationId: organization.id, origin: context.platform.originFor(organization) };
}

/**
 * Every failure is logged through the server's log by its error code (as `reason`: a field named `code` is
 * redacted, server/logger.ts), never with an authorization code, a token or a secret, and answered with its message.
 */
export function logSsoFailure(context: AppLoadContext, failure: SsoFailure) {
  context.platform.log.warn(
    { organization: context.organization?.id, reason: failure.code, detail: failure.detail },
    "sso sign-in refused",
  );
}

export const SSO_ERROR_CODES: readonly SsoErrorCode[] = [
  "unknown_driver",
  "state",
  "provider_error",
  "token",
  "id_token",
  "unreachable",
  "config",
  "no_subject",
  "no_email",
  "not_allowed",
  "email_taken",
  "disabled",
  "organization",
  "busy",
];

export function loginWithSsoError(code: SsoErrorCode, headers?: HeadersInit) {
  return redirect(`/auth/login?${new URLSearchParams({ sso: code })}`, { headers });
}

/** Starts a browser's sign-in at the driver's address: to the provider, with the binding cookie set. */
export async function startWebSignIn(request: Request, context: AppLoadContext, slug: string) {
  const tenant = ssoTenant(context);
  const driver = getDriverBySlug(tenant.db, slug);
  if (!driver || !driver.enabled) return loginWithSsoError("unknown_driver");
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "");
  try {
    await authenticateSso<User>(
      request,
      {
        tenant,
        kind: "web",
        driver,
        binding: null,
        redirectTo,
        onBegin: async (started) => {
          throw redirectOffSite(new URL(started.url), { headers: { "Set-Cookie": await ssoCookie.serialize(started.binding) } });
        },
      },
      async () => {
        throw new SsoFailure("state", "answer at the start address");
      },
    );
    return loginWithSsoError("state");
  } catch (error) {
    if (error instanceof SsoFailure) {
      logSsoFailure(context, error);
      return loginWithSsoError(error.code);
    }
    throw error;
  }
}

/**
 * The provider's answer in a browser: the identity is checked and turned into a person of this
 * organization, then the same session as a password sign-in starts, with the organization's 2FA step.
 */
export async function finishWebSignIn(request: Request, context: AppLoadContext, slug: string | undefined) {
  const tenant = ssoTenant(context);
  const clear = await ssoCookie.serialize("", { maxAge: 0 });
  const binding = await ssoCookie.parse(request.headers.get("Cookie"));
  try {
    const driver = slug ? (getDriverBySlug(tenant.db, slug) ?? null) : null;
    if (slug && !driver) throw new SsoFailure("unknown_driver");
    const { person, redirectTo } = await authenticateSso(
      request,
      { tenant, kind: "web", driver, binding: typeof binding === "string" ? binding : null },
      async ({ identity }) => ({ person: personForIdentity(tenant.db, identity), redirectTo: identity.redirectTo }),
    );
    return await signedInRedirect(request, context, person, redirectTo, clear);
  } catch (error) {
    if (error instanceof SsoFailure) {
      logSsoFailure(context, error);
      return loginWithSsoError(error.code, { "Set-Cookie": clear });
    }
    throw error;
  }
}

async function signedInRedirect(request: Request, context: AppLoadContext, person: User, redirectTo: string, clearCookie: string) {
  const realm = realmFor(context);
  const previous = context.viewer;
  if (previous?.session) revokeSession(realm, previous.session.id);
  const { token, twoFactorPending } = await startSession(request, context, realm, person, { kind: "web" });
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie.serialize(token));
  headers.append("Set-Cookie", clearCookie);
  const target = safeRedirectPath(redirectTo, "/auth/redirect");
  if (twoFactorPending) return redirect(`/auth/2fa/confirm?${new URLSearchParams({ redirectTo: target })}`, { headers });
  return redirect(target, { headers });
}

/** The kinds of sign-in a driver's address may serve. */
export type { SsoKind };
