import { eq, inArray } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { groupMembers, groups, userSettings } from "../../db/tenant";
import type { LANGUAGES } from "../utils/i18n";
import { assignJoined } from "./assignment-membership.server";
import { DEFAULT_AUDIT_RETENTION_DAYS, type UserSettingsForm } from "./forms/user-settings";

/**
 * The organization's defaults for new people (docs/product.md §2: the users screen's "settings"): their language,
 * the groups they join, whether people added by a CSV import get an invitation, and how long the audit of what
 * admins did is kept (issue 50). Whether sign-in needs
 * a second factor is the organization's own setting (organizations.two_factor_required), shown beside these.
 */
export function getUserSettings(db: TenantConn) {
  const row = db.select().from(userSettings).where(eq(userSettings.id, 1)).get();
  const existingGroups = row?.defaultGroupIds.length
    ? db
        .select({ id: groups.id })
        .from(groups)
        .where(inArray(groups.id, row.defaultGroupIds))
        .all()
        .map((g) => g.id)
    : [];
  return {
    defaultLanguage: (row?.defaultLanguage ?? null) as (typeof LANGUAGES)[number] | null,
    defaultGroupIds: existingGroups,
    inviteImported: row?.inviteImported ?? true,
    auditRetentionDays: row ? row.auditRetentionDays : DEFAULT_AUDIT_RETENTION_DAYS,
  };
}
export type UserSettings = ReturnType<typeof getUserSettings>;

export { userSettingsSchema, type UserSettingsForm } from "./forms/user-settings";

export function saveUserSettings(db: TenantConn, input: Omit<UserSettingsForm, "twoFactorRequired">) {
  const known = input.defaultGroupIds.length
    ? db
        .select({ id: groups.id })
        .from(groups)
        .where(inArray(groups.id, input.defaultGroupIds))
        .all()
        .map((g) => g.id)
    : [];
  if (known.length !== input.defaultGroupIds.length)
    return { ok: false as const, field: "defaultGroupIds", message: "validation.invalidOption" };
  const values = {
    defaultLanguage: input.defaultLanguage,
    defaultGroupIds: known,
    inviteImported: input.inviteImported,
    auditRetentionDays: input.auditRetentionDays,
  };
  db.insert(userSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: userSettings.id, set: values })
    .run();
  return { ok: true as const };
}

/** A new person joins the default groups (by hand, so they stay). */
export function joinDefaultGroups(db: TenantConn, userId: number, settings = getUserSettings(db)) {
  for (const groupId of settings.defaultGroupIds) {
    db.insert(groupMembers).values({ groupId, userId, source: "manual" }).onConflictDoNothing().run();
    assignJoined(db, groupId, [userId]);
  }
}
