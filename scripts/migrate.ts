import { listOrganizations } from "../app/models/organization.server";
import { DatabaseUnavailableError, openTenantDatabase } from "../db/open";
import { tenantDatabaseFile } from "../db/tenant-pool";
import { readConfig } from "../server/config";
import { Platform } from "../server/platform";

/**
 * `npm run db:migrate`: applies pending migrations to the platform database (on open) and to every
 * organization's database. A tenant whose file cannot be opened is reported and skipped, never recreated.
 */
const platform = new Platform(readConfig());
let failed = 0;
try {
  for (const organization of listOrganizations(platform.db)) {
    const file = tenantDatabaseFile(platform.dataDir, organization.id);
    try {
      openTenantDatabase(file).$client.close();
      console.log(`ok      ${organization.id} ${organization.name}`);
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
