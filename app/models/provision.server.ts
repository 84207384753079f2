import type { ProvisionServices } from "../../server/services";
import { sendInvitation } from "./auth/mail.server";
import { organizationRealm } from "./auth/realm.server";
import { issueInvitation } from "./auth/tokens.server";
import { createOrganization, hostConflicts, prefixFromName, type FieldErrors } from "./organization.server";
import { addUser, type UserForm } from "./user.server";
import { addUserAudited } from "./user-audited.server";
import type { AuditVia } from "./admin-audit.server";
import type { Viewer } from "../access/viewer";
import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";

/**
 * Creates an organization with its folder and migrated database, and invites its first admin by mail.
 * The url prefix defaults to one made from the name (made unique with a number when taken).
 */
export async function provisionOrganization(
  platform: ProvisionServices,
  input: { name: string; language: Organization["language"]; urlPrefix: string | null; adminEmail: string | null },
): Promise<{ ok: true; organization: Organization } | { ok: false; fields: FieldErrors }> {
  let urlPrefix = input.urlPrefix;
  if (urlPrefix) {
    const conflicts = hostConflicts(platform.db, platform.platformDomain, { urlPrefix });
    if (Object.keys(conflicts).length) return { ok: false, fields: conflicts };
  } else {
    const base = prefixFromName(input.name);
    urlPrefix = base;
    for (let n = 2; Object.keys(hostConflicts(platform.db, platform.platformDomain, { urlPrefix })).length; n++) {
      urlPrefix = `${base.slice(0, 60)}-${n}`;
    }
  }
  const organization = createOrganization(
    platform.db,
    { dataDir: platform.dataDir },
    { name: input.name, language: input.language, urlPrefix },
  );
  platform.organizations.invalidate();
  if (input.adminEmail) {
    const invitation = { email: input.adminEmail, firstName: "", lastName: "", phone: null, role: "admin" as const, language: null };
    await platform.tenants.withTenant(organization.id, (db) => inviteUser(platform, db, organization, invitation));
  }
  return { ok: true, organization };
}

/** Adds a person and mails them a link to choose their password; an admin's addition is in the audit (`by`). */
export async function inviteUser(
  platform: ProvisionServices,
  db: TenantDb,
  organization: Organization,
  input: UserForm,
  by?: { viewer: Viewer; via: AuditVia },
) {
  const added = by ? addUserAudited(db, by.viewer, by.via, input) : addUser(db, input);
  if (!added.ok) return added;
  const realm = organizationRealm(db, organization);
  const issued = issueInvitation(realm, added.user.email);
  if (issued) {
    await sendInvitation(platform, realm, issued.person, issued.token).catch((error) =>
      platform.log.error({ error: String(error) }, "invitation mail failed"),
    );
  }
  return added;
}
