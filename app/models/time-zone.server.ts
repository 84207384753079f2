import { eq } from "drizzle-orm";
import type { PlatformDb, TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { organizations, type Organization } from "../../db/platform";
import { leaderboardSettings } from "../../db/tenant";
import { DEFAULT_TIME_ZONE, isTimeZone } from "../utils/calendar";
import { ensureLeaderboard } from "./points.server";

/**
 * The organization's time zone: ONE setting, `organizations.time_zone` in the platform database
 * (docs/decisions/018-analytics.md, "One time zone"). Analytics reads it from the request's organization.
 * Points and streaks are counted inside the tenant's learning transaction, which cannot read the platform
 * database, so the tenant keeps a copy in `leaderboard_settings.time_zone`: it is written only here, in the
 * same change as the platform row, and is never edited on its own.
 */

/** Sets the organization's time zone (and the tenant's copy). False for a zone Intl does not know. */
export function setOrganizationTimeZone(platformDb: PlatformDb, tenantDb: TenantConn, organizationId: number, timeZone: string) {
  if (!isTimeZone(timeZone)) return false;
  // The tenant's copy first: if the platform write then failed, the next alignment would put it back.
  writeTenantCopy(tenantDb, timeZone);
  platformDb.update(organizations).set({ timeZone, updatedAt: new Date() }).where(eq(organizations.id, organizationId)).run();
  return true;
}

/**
 * The organization's zone as the tenant's copy has it, for code that has only the tenant's database (an
 * assignment's due day, counted in its learning transactions); the default zone before anything wrote it.
 */
export function tenantTimeZone(tenantDb: TenantConn): string {
  const copy = preparedOnce(tenantDb, "timeZone.tenantCopy", () =>
    tenantDb.select({ timeZone: leaderboardSettings.timeZone }).from(leaderboardSettings).where(eq(leaderboardSettings.id, 1)).prepare(),
  ).get()?.timeZone;
  return copy && isTimeZone(copy) ? copy : DEFAULT_TIME_ZONE;
}

function writeTenantCopy(tenantDb: TenantConn, timeZone: string) {
  ensureLeaderboard(tenantDb);
  tenantDb.update(leaderboardSettings).set({ timeZone, updatedAt: new Date() }).where(eq(leaderboardSettings.id, 1)).run();
}

/**
 * Brings the two places into line, once per open handle or migration run:
 * - an organization still on the default zone whose leaderboard had been given another (before the two
 *   settings became one) takes the leaderboard's zone — that choice was an admin's;
 * - otherwise the tenant's copy follows the organization.
 * Returns the organization's zone afterwards, and whether the platform row changed (callers refresh
 * their cached organizations then).
 */
export function alignTimeZone(platformDb: PlatformDb, tenantDb: TenantConn, organization: Pick<Organization, "id" | "timeZone">) {
  const copy = tenantDb
    .select({ timeZone: leaderboardSettings.timeZone })
    .from(leaderboardSettings)
    .where(eq(leaderboardSettings.id, 1))
    .get()?.timeZone;
  if (copy === undefined || copy === organization.timeZone) return { timeZone: organization.timeZone, adopted: false };
  if (organization.timeZone === DEFAULT_TIME_ZONE && isTimeZone(copy)) {
    platformDb.update(organizations).set({ timeZone: copy, updatedAt: new Date() }).where(eq(organizations.id, organization.id)).run();
    return { timeZone: copy, adopted: true };
  }
  writeTenantCopy(tenantDb, organization.timeZone);
  return { timeZone: organization.timeZone, adopted: false };
}

const aligned = new WeakSet<object>();

/** alignTimeZone at most once per open tenant handle (cheap to call on every request). */
export function alignTimeZoneOnce(
  platformDb: PlatformDb,
  tenantDb: TenantConn & object,
  organization: Pick<Organization, "id" | "timeZone">,
) {
  if (aligned.has(tenantDb)) return { timeZone: organization.timeZone, adopted: false };
  const result = alignTimeZone(platformDb, tenantDb, organization);
  aligned.add(tenantDb);
  return result;
}
