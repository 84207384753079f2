import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import type { ApiToken, Session, User, UserRole } from "../../db/tenant";
import { capabilitiesOf, type Capability, type Role } from "../utils/capabilities";
import type { Language } from "../utils/i18n";

/**
 * Who is asking, and where: the one shape every loader, action, /api call, SCORM request, job and script
 * passes down (docs/decisions/031-request-kernel.md). The server builds it once per request
 * (app/kernel/viewer.server.ts `identify`, called from server/viewer.ts for server/app.ts getLoadContext);
 * an address handed to a person earlier is checked with the viewer they are now (`viewerOfPerson`). Only
 * app/access (rules.ts, courses.ts) and the guards of app/kernel/auth.server.ts decide anything from it.
 */
export interface Viewer {
  /** The organization of the request's host (or the one a super-admin manages); null on the platform host. */
  organization: Organization | null;
  /** That organization's database, leased for the request. */
  db: TenantDb | null;
  /** How the person proved who they are: a session cookie, a Bearer token, or none (a system viewer). */
  via: "cookie" | "bearer" | "system" | null;
  /** The signed-in device, when there is one (a cookie, or an /api login token). */
  session: Session | null;
  /** The API token, when the request uses one. */
  token: ApiToken | null;
  /** The person: an organization's user or, on the platform host, a super-admin. */
  person: User | null;
  /** Their role here; null when signed out, or signed in where they have none. */
  role: Role | null;
  capabilities: ReadonlySet<Capability>;
  /** The groups the person belongs to, and the ones they administer (a group admin's scope). */
  groupIds: readonly number[];
  administeredGroupIds: readonly number[];
  /** The request's interface language (docs/decisions/005-language-and-theme.md). */
  language: Language;
  /** From where: the client's address (server/protection.ts `clientAddress`); null with no request (jobs keep the one that started them). */
  address: string | null;
}

/** A viewer the page guards have let through: signed in on a device, code confirmed, with a role here. */
export type SignedInViewer = Viewer & { person: User; session: Session; role: Role };

/** Someone not signed in (or a credential that means nothing here). */
export function anonymousViewer(organization: Organization | null, db: TenantDb | null, language: Language): Viewer {
  return {
    organization,
    db,
    via: null,
    session: null,
    token: null,
    person: null,
    role: null,
    capabilities: capabilitiesOf(null),
    groupIds: [],
    administeredGroupIds: [],
    language,
    address: null,
  };
}

/** The same person, looking at another organization's data (a super-admin's management screens). */
export function viewerIn(viewer: Viewer, organization: Organization, db: TenantDb): Viewer {
  return { ...viewer, organization, db };
}

/** A person's role here from their stored one: a learner who administers a group is a group admin. */
export function roleOfMember(stored: UserRole | "super_admin" | null, administeredGroupIds: readonly number[]): Role | null {
  return stored === "learner" && administeredGroupIds.length > 0 ? "group_admin" : stored;
}

/**
 * The viewer a person of this organization is, from their row and memberships, with no request of theirs:
 * for asking the access policy about someone else (whether the people an admin assigns a course to may open
 * it, app/models/assignment-access.server.ts). Someone disabled is nobody.
 */
export function viewerOfMember(
  base: Pick<Viewer, "organization" | "db" | "language">,
  person: User,
  memberships: readonly { groupId: number; isAdmin: boolean }[],
): Viewer {
  const viewer = anonymousViewer(base.organization, base.db, base.language);
  if (person.disabledAt || !person.role) return viewer;
  const groupIds = memberships.map((m) => m.groupId);
  const administeredGroupIds = memberships.filter((m) => m.isAdmin).map((m) => m.groupId);
  const role = roleOfMember(person.role, administeredGroupIds);
  return { ...viewer, via: "system", person, role, capabilities: capabilitiesOf(role), groupIds, administeredGroupIds };
}

/**
 * What a background job keeps of the viewer who started it (a bulk action on people, issue 50), so that the
 * access policy can be asked, as that viewer, about each person the job reaches: their role and
 * capabilities, who they are (for the audit), and the groups they administer.
 */
export interface ViewerSnapshot {
  role: Role;
  capabilities: Capability[];
  person: { id: number; email: string } | null;
  token: string | null;
  groupIds: number[];
  administeredGroupIds: number[];
  /** The address of the request that started the job (the audit's "from where"). */
  address?: string | null;
}

export function snapshotOf(viewer: Viewer & { role: Role }): ViewerSnapshot {
  return {
    role: viewer.role,
    capabilities: [...viewer.capabilities],
    person: viewer.person ? { id: viewer.person.id, email: viewer.person.email } : null,
    token: viewer.token?.name ?? null,
    groupIds: [...viewer.groupIds],
    administeredGroupIds: [...viewer.administeredGroupIds],
    address: viewer.address,
  };
}

/**
 * The viewer a snapshot stands for, in a job (`via: "system"`): the rights it had when it asked. Only the
 * person's id and address are kept, which is all a job's checks and audit read of them; a token, by its name.
 */
export function viewerOfSnapshot(base: Pick<Viewer, "organization" | "db" | "language">, snapshot: ViewerSnapshot): Viewer {
  return {
    ...anonymousViewer(base.organization, base.db, base.language),
    via: "system",
    person: snapshot.person as User | null,
    token: snapshot.token ? ({ name: snapshot.token } as ApiToken) : null,
    role: snapshot.role,
    capabilities: new Set(snapshot.capabilities),
    groupIds: snapshot.groupIds,
    administeredGroupIds: snapshot.administeredGroupIds,
    address: snapshot.address ?? null,
  };
}
