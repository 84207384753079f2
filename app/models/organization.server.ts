import { eq, or } from "drizzle-orm";
import { organizations, type NewOrganization, type Organization } from "../../db/platform";
import { createTenantDatabase, type PlatformDb } from "../../db/open";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { defaultThemeFor } from "../utils/theme";

export type { Organization };

const MAX_HOST_LENGTH = 253;
const HOST_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A Host header as a lower-case host name without the port, or null when it is not a host name we could
 * ever serve (IP literals in brackets, trailing dots, paths, oversized values).
 */
export function normalizeHost(raw: string | undefined | null): string | null {
  if (!raw || raw.length > MAX_HOST_LENGTH + 6) return null;
  const host = raw.trim().toLowerCase().replace(/:\d{1,5}$/, "");
  if (host.length === 0 || host.length > MAX_HOST_LENGTH) return null;
  return HOST_PATTERN.test(host) ? host : null;
}

/** The organization a host name belongs to: custom domain, domain, or `<urlPrefix>.<platformDomain>`. */
export function findOrganizationByHost(
  db: PlatformDb,
  host: string,
  platformDomain: string,
): Organization | undefined {
  const suffix = `.${platformDomain}`;
  const prefix = host.endsWith(suffix) ? host.slice(0, -suffix.length) : null;
  const candidates = db
    .select()
    .from(organizations)
    .where(
      or(
        eq(organizations.customDomain, host),
        eq(organizations.domain, host),
        prefix && !prefix.includes(".") ? eq(organizations.urlPrefix, prefix) : undefined,
      ),
    )
    .all();
  // A custom domain is the most specific claim on a host, then a domain, then a prefix.
  return (
    candidates.find((o) => o.customDomain === host) ??
    candidates.find((o) => o.domain === host) ??
    candidates[0]
  );
}

export function getOrganization(db: PlatformDb, id: number) {
  return db.select().from(organizations).where(eq(organizations.id, id)).get();
}

export function listOrganizations(db: PlatformDb) {
  return db.select().from(organizations).orderBy(organizations.id).all();
}

/**
 * Registers an organization and provisions its folder with a migrated database, as one step: if the
 * database cannot be made, the registry row is rolled back.
 */
export function createOrganization(
  db: PlatformDb,
  { dataDir }: { dataDir: string },
  input: Omit<NewOrganization, "id" | "createdAt" | "updatedAt">,
): Organization {
  return db.transaction((tx) => {
    const organization = tx.insert(organizations).values(input).returning().get();
    createTenantDatabase(tenantDatabaseFile(dataDir, organization.id));
    return organization;
  });
}

/** The host name a person reaches the organization on, for links in mails and the admin list. */
export function organizationHost(organization: Organization, platformDomain: string) {
  return (
    organization.customDomain ??
    organization.domain ??
    (organization.urlPrefix ? `${organization.urlPrefix}.${platformDomain}` : null)
  );
}

/** The public face of an organization, as `GET /api/resolve` gives it to apps before anyone logs in. */
export function publicOrganization(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    language: organization.language,
    logo: organization.logo,
    favicon: organization.favicon,
    login_background: organization.loginBackground,
    footer: organization.footer,
    featured_course: organization.featuredCourse,
    theme: defaultThemeFor(organization.id),
    domain: organization.domain,
    urlPrefix: organization.urlPrefix,
    customDomain: organization.customDomain,
  };
}
