import { rebuildDailyRollups } from "../app/models/analytics-daily.server";
import { listOrganizations } from "../app/models/organization.server";
import { DatabaseUnavailableError, openTenantDatabase } from "../db/open";
import { tenantDatabaseFile } from "../db/tenant-pool";
import { readConfig } from "../server/config";
import { Platform } from "../server/platform";

/**
 * `npm run analytics:rebuild [-- <organization id> ...]`: recounts analytics' daily rollups from the hourly
 * facts in each organization's time zone (docs/decisions/018-analytics.md, "Daily rollups"), every
 * organization or the ones named. Safe while the server runs: each course's days are recounted in their
 * own short transaction, and the reports add up the hourly facts until the rebuild is done. The server also
 * queues this by itself when the zone changed; the command is for an operator who wants it done now.
 */
const platform = new Platform(readConfig());
const only = new Set(process.argv.slice(2).map(Number).filter(Number.isInteger));
let failed = 0;
try {
  const organizations = listOrganizations(platform.db).filter((o) => only.size === 0 || only.has(o.id));
  if (only.size && organizations.length !== only.size) console.error(`unknown organization among: ${[...only].join(", ")}`);
  for (const organization of organizations) {
    const t0 = Date.now();
    try {
      const tenant = openTenantDatabase(tenantDatabaseFile(platform.dataDir, organization.id));
      try {
        const courses = await rebuildDailyRollups(tenant, organization.timeZone);
        console.log(
          `ok      ${organization.id} ${organization.name}: ${courses ?? 0} courses in ${organization.timeZone} (${Date.now() - t0} ms)`,
        );
      } finally {
        tenant.$client.close();
      }
    } catch (error) {
      failed += 1;
      const reason = error instanceof DatabaseUnavailableError ? error.message : String(error);
      console.error(`FAILED  ${organization.id} ${organization.name}: ${reason}`);
    }
  }
} finally {
  platform.close();
}
process.exit(failed > 0 ? 1 : 0);
