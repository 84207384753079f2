import crypto from "node:crypto";
import { and, count, eq, gt, lt } from "drizzle-orm";
import * as oidc from "openid-client";
import type { TenantConn } from "../../../db/open";
import { ssoLogins, type SsoDriver } from "../../../db/tenant";
import { hashToken, randomToken } from "../auth/secrets.server";
import { getDriver, secretScope } from "./drivers.server";
import type { SecretBox } from "./seal.server";

/** A sign-in has this long between leaving for the provider and coming back. */
export const SSO_LOGIN_TTL_MS = 10 * 60 * 1000;
/** More sign-ins on their way than this (per organization) means someone is flooding the start address. */
const MAX_PENDING_LOGINS = 5000;
/** How long to wait for a provider. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** Why a sign-in through a provider was refused; each has a translated message (sso.errors.*). */
export type SsoErrorCode =
  | "unknown_driver"
  | "state"
  | "provider_error"
  | "token"
  | "id_token"
  | "unreachable"
  | "config"
  | "no_subject"
  | "no_email"
  | "not_allowed"
  | "email_taken"
  | "disabled"
  | "organization"
  | "busy";

export class SsoFailure extends Error {
  constructor(
    readonly code: SsoErrorCode,
    /** For logs: never a secret, a code or a token. */
    readonly detail = "",
  ) {
    super(`sso: ${code}${detail ? ` (${detail})` : ""}`);
  }
}

/** What a flow needs of its organization: the database, the secret box and where the organization lives. */
export interface SsoTenant {
  db: TenantConn;
  box: SecretBox;
  organizationId: number;
  /** `scheme://host[:port]` of the organization, from what is stored (never the request's Host). */
  origin: string;
}

export type SsoKind = "web" | "api";

/** The address the provider sends people back to: the page (web) or the raw answer for apps (api). */
export function redirectUriFor(tenant: SsoTenant, driver: Pick<SsoDriver, "slug">, kind: SsoKind) {
  return kind === "web" ? `${tenant.origin}/auth/sso/${driver.slug}/callback` : `${tenant.origin}/api/auth/sso/${driver.slug}/callback-raw`;
}

/** Plain http is allowed only to this machine (the test and dev providers); anywhere else it is https. */
function loopback(url: string) {
  const host = new URL(url).hostname;
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]";
}

/**
 * Discovered providers, kept 5 minutes (with their key sets), so a burst of sign-ins does not mean a burst
 * of discovery requests. Keyed by everything that shapes the configuration: any edit makes a new entry.
 */
const CONFIG_TTL_MS = 5 * 60 * 1000;
const configCache = new Map<string, { config: oidc.Configuration; until: number }>();

/** The provider as openid-client sees it: discovered (OIDC) or built from the three addresses (OAuth2). */
export async function providerConfiguration(tenant: SsoTenant, driver: SsoDriver): Promise<oidc.Configuration> {
  const key = JSON.stringify([
    tenant.organizationId,
    driver.id,
    driver.updatedAt.getTime(),
    driver.clientSecretSealed,
    driver.issuer,
    driver.authorizationUrl,
    driver.tokenUrl,
    driver.userinfoUrl,
    driver.clientId,
  ]);
  const cached = configCache.get(key);
  if (cached && cached.until > Date.now()) return cached.config;
  const config = await buildConfiguration(tenant, driver);
  if (configCache.size >= 200) configCache.clear();
  configCache.set(key, { config, until: Date.now() + CONFIG_TTL_MS });
  return config;
}

async function buildConfiguration(tenant: SsoTenant, driver: SsoDriver): Promise<oidc.Configuration> {
  const secret = tenant.box.open(driver.clientSecretSealed, secretScope(tenant.organizationId));
  if (secret === null) throw new SsoFailure("config", "client secret does not open with this server's key");
  // RFC 6749 §2.3.1: every provider supports HTTP Basic for the client's credentials.
  const auth = oidc.ClientSecretBasic(secret);
  const addresses =
    driver.kind === "oidc" ? [driver.issuer ?? ""] : [driver.authorizationUrl ?? "", driver.tokenUrl ?? "", driver.userinfoUrl ?? ""];
  const insecure = addresses.every((a) => a && loopback(a));
  try {
    if (driver.kind === "oidc") {
      const config = await oidc.discovery(new URL(driver.issuer ?? ""), driver.clientId, undefined, auth, {
        // The issue asks for ID tokens signed with an unknown key to be refused: check signatures against
        // the provider's published keys too, not only trust the TLS connection to its token endpoint.
        execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
        timeout: PROVIDER_TIMEOUT_SECONDS,
      });
      config.timeout = PROVIDER_TIMEOUT_SECONDS;
      return config;
    }
    const config = new oidc.Configuration(
      {
        // An authorization response that names its issuer (RFC 9207) must name the provider's own origin.
        issuer: new URL(driver.authorizationUrl ?? "").origin,
        authorization_endpoint: driver.authorizationUrl ?? "",
        token_endpoint: driver.tokenUrl ?? "",
        userinfo_endpoint: driver.userinfoUrl ?? "",
      },
      driver.clientId,
      undefined,
      auth,
    );
    if (insecure) oidc.allowInsecureRequests(config);
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    return config;
  } catch (error) {
    throw asFailure(error);
  }
}

/**
 * Starts a sign-in: a fresh state, nonce and PKCE verifier (S256) are stored (the state hashed) with the
 * hash of a binding value that only the starting browser (cookie) or app (reply) holds.
 */
export async function beginSignIn(
  tenant: SsoTenant,
  driver: SsoDriver,
  { kind, redirectTo = "", now = new Date() }: { kind: SsoKind; redirectTo?: string; now?: Date },
) {
  const config = await providerConfiguration(tenant, driver);
  tenant.db.delete(ssoLogins).where(lt(ssoLogins.expiresAt, now)).run();
  const pending = tenant.db.select({ n: count() }).from(ssoLogins).get()?.n ?? 0;
  if (pending >= MAX_PENDING_LOGINS) throw new SsoFailure("busy");
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const binding = randomToken();
  const redirectUri = redirectUriFor(tenant, driver, kind);
  tenant.db
    .insert(ssoLogins)
    .values({
      stateHash: hashToken(state),
      driverId: driver.id,
      bindingHash: hashToken(binding),
      kind,
      codeVerifier,
      nonce,
      redirectUri,
      redirectTo: redirectTo.slice(0, 1000),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SSO_LOGIN_TTL_MS),
    })
    .run();
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: driver.scopes,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  };
  if (driver.kind === "oidc") parameters.nonce = nonce;
  if (!parameters.scope) delete parameters.scope;
  return { url: oidc.buildAuthorizationUrl(config, parameters).href, state, binding, expiresIn: SSO_LOGIN_TTL_MS / 1000 };
}

/** Who the provider says came back: the pair (issuer, subject), and what it tells about them. */
export interface ProviderIdentity {
  driver: SsoDriver;
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  /** Authentication methods the provider reports (OIDC `amr`), for the record; 2FA is still ours. */
  amr: string[];
  redirectTo: string;
}

/**
 * Finishes a sign-in from the provider's answer (`code`, `state`, maybe `iss` or `error`). The state is
 * spent first, whatever follows: it must exist in this organization's database, be fresh, be of this
 * kind (page or app), belong to this driver and come with the binding value; only then is the code
 * exchanged, with the stored PKCE verifier, and the ID token checked (signature against the provider's
 * keys, issuer, audience, expiry, nonce) by openid-client.
 */
export async function completeSignIn(
  tenant: SsoTenant,
  {
    params,
    binding,
    kind,
    driverSlug,
    now = new Date(),
  }: { params: URLSearchParams; binding: string | null | undefined; kind: SsoKind; driverSlug?: string; now?: Date },
): Promise<ProviderIdentity> {
  const state = params.get("state");
  if (!state || state.length > 500) throw new SsoFailure("state", "missing state");
  const row = tenant.db
    .delete(ssoLogins)
    .where(eq(ssoLogins.stateHash, hashToken(state)))
    .returning()
    .get();
  if (!row || row.expiresAt.getTime() < now.getTime() || row.kind !== kind)
    throw new SsoFailure("state", "unknown, spent or expired state");
  if (!binding || !sameHash(hashToken(binding), row.bindingHash)) throw new SsoFailure("state", "state not bound to this browser or app");
  const driver = getDriver(tenant.db, row.driverId);
  if (!driver || (driverSlug && driver.slug !== driverSlug)) throw new SsoFailure("state", "state of another driver");
  if (!driver.enabled) throw new SsoFailure("unknown_driver", "driver disabled");
  const providerError = params.get("error");
  if (providerError) throw new SsoFailure("provider_error", providerError.slice(0, 100));
  if (!row.codeVerifier) throw new SsoFailure("state", "missing PKCE verifier");
  const config = await providerConfiguration(tenant, driver);
  // The answer is read as if it had arrived at the stored redirect address, so the host a request came
  // in on (or a proxy's idea of it) cannot change what is checked.
  const current = new URL(row.redirectUri);
  for (const key of ["code", "state", "iss", "error", "session_state"]) {
    const value = params.get(key);
    if (value !== null) current.searchParams.set(key, value);
  }
  try {
    const tokens = await oidc.authorizationCodeGrant(
      config,
      current,
      {
        pkceCodeVerifier: row.codeVerifier,
        expectedState: state,
        expectedNonce: driver.kind === "oidc" ? row.nonce : undefined,
        idTokenExpected: driver.kind === "oidc",
      },
      { redirect_uri: row.redirectUri },
    );
    let claims: Record<string, unknown>;
    let issuer: string;
    if (driver.kind === "oidc") {
      const idToken = tokens.claims();
      if (!idToken) throw new SsoFailure("id_token", "no ID token");
      let userinfo: Record<string, unknown> = {};
      if (config.serverMetadata().userinfo_endpoint) {
        userinfo = (await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)) as Record<string, unknown>;
      }
      claims = { ...userinfo, ...idToken };
      issuer = idToken.iss;
    } else {
      const response = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(driver.userinfoUrl ?? ""), "GET");
      if (!response.ok) throw new SsoFailure("token", `user info answered ${response.status}`);
      const body: unknown = await response.json();
      if (!body || typeof body !== "object") throw new SsoFailure("token", "user info is not an object");
      claims = body as Record<string, unknown>;
      issuer = `oauth2:${new URL(driver.authorizationUrl ?? "").origin}`;
    }
    const subject = text(claimAt(claims, driver.kind === "oidc" ? "sub" : driver.subjectClaim));
    if (!subject) throw new SsoFailure("no_subject");
    const email = text(claimAt(claims, driver.emailClaim))?.toLowerCase() ?? null;
    const amr = Array.isArray(claims.amr) ? claims.amr.filter((v): v is string => typeof v === "string") : [];
    return {
      driver,
      issuer,
      subject,
      email,
      emailVerified: claimAt(claims, "email_verified") === true || claimAt(claims, "email_verified") === "true",
      firstName: (text(claimAt(claims, driver.firstNameClaim)) ?? "").slice(0, 100),
      lastName: (text(claimAt(claims, driver.lastNameClaim)) ?? "").slice(0, 100),
      amr,
      redirectTo: row.redirectTo,
    };
  } catch (error) {
    throw asFailure(error);
  }
}

function sameHash(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** A claim by name, or by a dotted path into nested objects (`user.email`) for plain OAuth2 providers. */
function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split(".")) {
    if (!value || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function text(value: unknown): string | null {
  if (typeof value === "string" && value.trim()) return value.trim().slice(0, 500);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** openid-client's errors, sorted into the messages people see. */
function asFailure(error: unknown): SsoFailure {
  if (error instanceof SsoFailure) return error;
  if (error instanceof oidc.AuthorizationResponseError) return new SsoFailure("provider_error", error.error);
  if (error instanceof oidc.ResponseBodyError) return new SsoFailure("token", error.error);
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") {
    if (/JWT|JWS|KEY_SELECTION|SIGNATURE/.test(code)) return new SsoFailure("id_token", code);
    if (code === "OAUTH_TIMEOUT" || code === "ECONNREFUSED" || code === "OAUTH_RESPONSE_IS_NOT_JSON")
      return new SsoFailure("unreachable", code);
    return new SsoFailure("provider_error", code);
  }
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  if (error instanceof TypeError || (error as Error)?.name === "AbortError" || (error as Error)?.name === "TimeoutError" || cause?.code) {
    return new SsoFailure("unreachable", String((cause?.code as string | undefined) ?? (error as Error).name));
  }
  return new SsoFailure("provider_error", (error as Error)?.name ?? "unknown");
}

/** Sign-ins still on their way (for the admin screen and tests). */
export function pendingLogins(db: TenantConn, now = new Date()) {
  return (
    db
      .select({ n: count() })
      .from(ssoLogins)
      .where(and(gt(ssoLogins.expiresAt, now)))
      .get()?.n ?? 0
  );
}
