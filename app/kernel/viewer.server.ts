import { createCookie } from "@remix-run/node";
import type { TenantDb, PlatformDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import type { Session, User } from "../../db/tenant";
import { anonymousViewer, roleOfMember, type Viewer } from "../access/viewer";
import { findApiToken, tokenCapabilities } from "../models/auth/api-token.server";
import { organizationRealm, platformRealm, roleIn, type AuthRealm } from "../models/auth/realm.server";
import { findSession, SESSION_LIFETIME_SECONDS } from "../models/auth/session.server";
import { membershipsOf } from "../models/group-members.server";
import { getUser } from "../models/user.server";
import { capabilitiesOf, type Role } from "../utils/capabilities";
import type { Language } from "../utils/i18n";
import { detectLanguage } from "../utils/i18n.server";

/** The session cookie: a random token, host-only (no Domain), HttpOnly, 30 days (docs/product.md §9). */
export const sessionCookie = createCookie("lectern_session", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: process.env.COOKIE_SECURE === "true",
  maxAge: SESSION_LIFETIME_SECONDS,
});

/** What the server knows of a request before the app runs: its host's organization and the platform. */
export interface Tenancy {
  organization: Organization | null;
  db: TenantDb | null;
  platformDb: PlatformDb;
  superAdminTwoFactor: boolean;
}

/** What telling who is asking reads of a request: its headers (the server reads them before the body). */
export interface Credentials {
  headers: { get(name: string): string | null };
}

/** The organization's users on its host; super-admins on the platform host. */
export function realmOf(tenancy: Tenancy): AuthRealm {
  if (tenancy.organization && tenancy.db) return organizationRealm(tenancy.db, tenancy.organization);
  return platformRealm(tenancy.platformDb, { twoFactorRequired: tenancy.superAdminTwoFactor });
}

export function bearerToken(request: Credentials) {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/**
 * Who is asking, checked against the database once per request (server/app.ts getLoadContext; a request
 * with a body is identified earlier, by server/body-limits.ts, and the same viewer passed on). A Bearer
 * token is a signed-in app's session or an API token (bounded by its owner's current rights), always of
 * the request's own organization: a token of one host is never accepted on another, the platform's
 * included. A browser is known by its session cookie. A token is never read from the query string.
 */
export async function identify(request: Credentials, tenancy: Tenancy): Promise<Viewer> {
  const realm = realmOf(tenancy);
  const bearer = bearerToken(request);
  let found: Omit<Viewer, "organization" | "db" | "language" | "address"> | null = null;
  if (bearer) found = bearerViewer(realm, tenancy, bearer);
  else {
    const token = await sessionCookie.parse(request.headers.get("Cookie"));
    const signedIn = typeof token === "string" ? findSession(realm, token) : null;
    if (signedIn && signedIn.session.kind === "web") found = sessionViewer(realm, tenancy, "cookie", signedIn);
  }
  const language = await detectLanguage(request, { user: found?.person, organization: tenancy.organization });
  const viewer = anonymousViewer(tenancy.organization, tenancy.db, language);
  return found ? { ...viewer, ...found } : viewer;
}

/** The viewer of a session just opened (sign-in, SSO): the rest of the request acts as that person. */
export function viewerOfSession(
  viewer: Viewer,
  tenancy: Tenancy,
  via: "cookie" | "bearer",
  signedIn: { session: Session; person: User },
): Viewer {
  return { ...viewer, ...sessionViewer(realmOf(tenancy), tenancy, via, signedIn) };
}

/**
 * The viewer a person would be, without a request of theirs: for an address handed to them earlier (a
 * SCORM package's content, server/scorm/content.ts), checked against their rights as they are now.
 * Someone disabled or gone is nobody.
 */
export function viewerOfPerson(tenancy: Tenancy, personId: number, language: Language): Viewer {
  const viewer = anonymousViewer(tenancy.organization, tenancy.db, language);
  const person = tenancy.db ? getUser(tenancy.db, personId) : undefined;
  if (!person || person.disabledAt) return viewer;
  const held = membership(realmOf(tenancy), tenancy, person);
  return { ...viewer, via: "system", person, ...held, capabilities: capabilitiesOf(held.role) };
}

/**
 * A person's role here: super-admin on the platform; in an organization, admin, or learner — and a
 * learner who administers a group is a group admin.
 */
function membership(realm: AuthRealm, tenancy: Tenancy, person: User) {
  const stored = roleIn(realm, person);
  const groups = tenancy.db && stored ? membershipsOf(tenancy.db, person.id) : [];
  const groupIds = groups.map((g) => g.groupId);
  const administeredGroupIds = groups.filter((g) => g.isAdmin).map((g) => g.groupId);
  const role: Role | null = roleOfMember(stored, administeredGroupIds);
  return { role, groupIds, administeredGroupIds };
}

function sessionViewer(
  realm: AuthRealm,
  tenancy: Tenancy,
  via: "cookie" | "bearer",
  { session, person }: { session: Session; person: User },
) {
  const { role, groupIds, administeredGroupIds } = membership(realm, tenancy, person);
  return { via, session, token: null, person, role, capabilities: capabilitiesOf(role), groupIds, administeredGroupIds };
}

function bearerViewer(realm: AuthRealm, tenancy: Tenancy, bearer: string) {
  const signedIn = findSession(realm, bearer);
  if (signedIn) return signedIn.session.kind === "api" ? sessionViewer(realm, tenancy, "bearer", signedIn) : null;
  if (realm.kind !== "organization" || !tenancy.db) return null;
  const token = findApiToken(tenancy.db, bearer);
  if (!token) return null;
  const owner = token.userId ? getUser(tenancy.db, token.userId) : null;
  if (token.userId && (!owner || owner.disabledAt)) return null;
  // A token can never do more than its owner can do today: lowering the owner lowers the token.
  const held = owner ? membership(realm, tenancy, owner) : { role: "admin" as const, groupIds: [], administeredGroupIds: [] };
  const ceiling = capabilitiesOf(held.role);
  const capabilities = new Set(tokenCapabilities(token).filter((c) => ceiling.has(c)));
  return { via: "bearer" as const, session: null, token, person: owner ?? null, ...held, capabilities };
}
