import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq, or } from "drizzle-orm";
import { organizations, type NewOrganization, type Organization } from "../../db/platform";
import { createTenantDatabase, type PlatformDb } from "../../db/open";
import { tenantDatabaseFile, tenantFolder } from "../../db/tenant-pool";
import { defaultThemeFor } from "../utils/theme";
import { contains } from "../utils/pagination";
import type { OrganizationSettings } from "./forms/organizations";

export type { Organization };

/** The organization a host name belongs to: custom domain, domain, or `<urlPrefix>.<platformDomain>`. */
export function findOrganizationByHost(db: PlatformDb, host: string, platformDomain: string): Organization | undefined {
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
  return candidates.find((o) => o.customDomain === host) ?? candidates.find((o) => o.domain === host) ?? candidates[0];
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
    organization.customDomain ?? organization.domain ?? (organization.urlPrefix ? `${organization.urlPrefix}.${platformDomain}` : null)
  );
}

/**
 * The public face of an organization, as `GET /api/resolve` gives it to apps before anyone logs in.
 * Branding images stored in the file store (`file:<id>`) become addresses through `imageUrl`.
 */
export function publicOrganization(organization: Organization, imageUrl: (value: string | null) => string | null = (v) => v) {
  return {
    id: organization.id,
    name: organization.name,
    language: organization.language,
    logo: imageUrl(organization.logo),
    favicon: imageUrl(organization.favicon),
    login_background: imageUrl(organization.loginBackground),
    footer: organization.footer,
    featured_course: organization.featuredCourse,
    theme: defaultThemeFor(organization.id),
    domain: organization.domain,
    urlPrefix: organization.urlPrefix,
    customDomain: organization.customDomain,
  };
}

/** The name the platform host's monogram icon shows. */
export const PLATFORM_ICON_NAME = "Lectern";

/** A short version of what a monogram shows, so its address changes when the name does (kept by name: every page asks). */
const versions = new Map<string, string>();
export function monogramVersion(name: string) {
  let version = versions.get(name);
  if (version === undefined) {
    if (versions.size >= 10_000) versions.clear();
    version = crypto.createHash("sha256").update(name).digest("base64url").slice(0, 10);
    versions.set(name, version);
  }
  return version;
}

/**
 * The icon every page links (`<link rel="icon">`, app/root.tsx; server/favicon.ts answers /favicon.*): the
 * favicon the organization's admins uploaded, else an icon made from its logo (the image provider's `icon`
 * bucket: the whole logo on a transparent square), else a monogram in its colour (app/utils/favicon.ts).
 */
export function organizationIcon(
  organization: Organization | null,
  urls: {
    brandingUrl: (organization: Organization, value: string | null) => string | null;
    imageUrl: (organizationId: number, fileId: number, bucket: "icon") => string;
  },
): { href: string; type?: string } {
  if (organization?.favicon) return { href: urls.brandingUrl(organization, organization.favicon) ?? organization.favicon };
  const logoFile = organization?.logo ? /^file:(\d+)$/.exec(organization.logo) : null;
  if (organization && logoFile) return { href: `${urls.imageUrl(organization.id, Number(logoFile[1]), "icon")}?w=32`, type: "image/webp" };
  if (organization?.logo) return { href: organization.logo };
  return { href: `/favicon.svg?v=${monogramVersion(organization?.name ?? PLATFORM_ICON_NAME)}`, type: "image/svg+xml" };
}

export { createOrganizationSchema, normalizeHost, organizationSettingsSchema, type OrganizationSettings } from "./forms/organizations";

/** A url prefix from a name: "Nordlys Akademi" → "nordlys-akademi". */
export function prefixFromName(name: string) {
  return (
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/æ/g, "ae")
      .replace(/ø/g, "o")
      .replace(/å/g, "a")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 63)
      .replace(/-+$/g, "") || "organization"
  );
}

export type FieldErrors = Record<string, string[]>;

/** Which host fields clash with another organization's (or the platform's own host). */
export function hostConflicts(
  db: PlatformDb,
  platformDomain: string,
  values: { urlPrefix?: string | null; domain?: string | null; customDomain?: string | null },
  exceptId?: number,
): FieldErrors {
  const errors: FieldErrors = {};
  const hosts: Array<[keyof typeof values, string | null | undefined]> = [
    ["urlPrefix", values.urlPrefix ? `${values.urlPrefix}.${platformDomain}` : null],
    ["domain", values.domain],
    ["customDomain", values.customDomain],
  ];
  for (const [field, host] of hosts) {
    if (!host) continue;
    if (host === platformDomain) {
      errors[field] = ["validation.hostTaken"];
      continue;
    }
    const owner = findOrganizationByHost(db, host, platformDomain);
    if (owner && owner.id !== exceptId) errors[field] = ["validation.hostTaken"];
  }
  return errors;
}

export function updateOrganization(
  db: PlatformDb,
  id: number,
  values: Partial<OrganizationSettings> & { favicon?: string | null; logo?: string | null; loginBackground?: string | null },
) {
  return db.update(organizations).set(values).where(eq(organizations.id, id)).returning().get();
}

/**
 * Deletes an organization without destroying anything: the registry row goes, and its folder is moved
 * aside to `<DATA_DIR>/deleted/org-<id>-<time>` (docs/product.md §8 asks for confirmation; a slip stays recoverable).
 */
export function deleteOrganization(db: PlatformDb, { dataDir }: { dataDir: string }, id: number) {
  return db.transaction((tx) => {
    const row = tx.delete(organizations).where(eq(organizations.id, id)).returning().get();
    if (!row) return null;
    const folder = tenantFolder(dataDir, id);
    if (fs.existsSync(folder)) {
      const deletedDir = path.join(dataDir, "deleted");
      fs.mkdirSync(deletedDir, { recursive: true });
      fs.renameSync(folder, path.join(deletedDir, `org-${id}-${new Date().toISOString().replace(/[:.]/g, "-")}`));
    }
    return row;
  });
}

/** An organization in /api and exports: the spec's names (urlPrefix, customDomain), else snake_case. */
export function organizationView(organization: Organization, url: string) {
  return {
    id: organization.id,
    name: organization.name,
    url,
    domain: organization.domain,
    urlPrefix: organization.urlPrefix,
    customDomain: organization.customDomain,
    language: organization.language,
    favicon: organization.favicon,
    logo: organization.logo,
    login_background: organization.loginBackground,
    footer: organization.footer,
    featured_course: organization.featuredCourse,
    bcc: organization.bcc,
    two_factor_required: organization.twoFactorRequired,
    created_at: organization.createdAt.toISOString(),
  };
}

export function searchOrganizations(db: PlatformDb, query: string) {
  return db
    .select()
    .from(organizations)
    .where(
      or(
        contains(organizations.name, query),
        contains(organizations.urlPrefix, query),
        contains(organizations.domain, query),
        contains(organizations.customDomain, query),
      ),
    )
    .orderBy(organizations.id)
    .all();
}

/** An organization's settings in the shape of organizationSettingsSchema's input. */
export function currentSettings(organization: Organization) {
  return {
    name: organization.name,
    language: organization.language,
    urlPrefix: organization.urlPrefix ?? "",
    domain: organization.domain ?? "",
    customDomain: organization.customDomain ?? "",
    twoFactorRequired: organization.twoFactorRequired,
    footer: organization.footer ?? "",
    bcc: organization.bcc ?? "",
    featuredCourse: organization.featuredCourse ?? "",
  };
}
