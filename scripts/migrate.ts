import { listOrganizations } from "../app/models/organization.server";
import { carrySummary } from "../app/models/tenant-summary.server";
import { alignTimeZone } from "../app/models/time-zone.server";
import { DatabaseUnavailableError, openTenantDatabase } from "../db/open";
import { tenantDatabaseFile } from "../db/tenant-pool";
import { readConfig } from "../server/config";
import { Platform } from "../server/platform";

/**
 * `npm run db:migrate`: applies pending migrations to the platform database (on open) and to every
 * organization's database, one at a time, each in one transaction under SQLite's write lock (so it is safe
 * while the server runs). A tenant whose file cannot be opened or whose migration fails is reported and
 * left as it was — never recreated, never half-migrated — and the others go on; the server keeps that one
 * organization closed (503) until it is fixed. Exit code 1 when any failed. Each organization's summary in
 * the platform database (its people and counts for /admin: app/models/tenant-summary.server.ts) is
 * gathered again in full on the way.
 */
const platform = new Platform(readConfig());
let failed = 0;
const started = Date.now();
try {
  const organizations = listOrganizations(platform.db);
  const width = String(organizations.length).length;
  organizations.forEach((organization, index) => {
    const file = tenantDatabaseFile(platform.dataDir, organization.id);
    const position = `[${String(index + 1).padStart(width)}/${organizations.length}]`;
    const t0 = Date.now();
    try {
      const tenant = openTenantDatabase(file);
      try {
        alignTimeZone(platform.db, tenant, organization); // one time zone: a leaderboard zone set before it became the organization's moves over
        carrySummary(platform.db, organization.id, tenant, { full: true }); // the platform's copy of its people and counts, made again
      } finally {
        tenant.$client.close();
      }
      console.log(`${position} ok      ${organization.id} ${organization.name} (${Date.now() - t0} ms)`);
    } catch (error) {
      failed += 1;
      const reason = error instanceof DatabaseUnavailableError ? error.message : String(error);
      console.error(`${position} FAILED  ${organization.id} ${organization.name}: ${reason}`);
    }
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const summary = `${organizations.length - failed} of ${organizations.length} organizations up to date in ${seconds} s`;
  console.log(failed ? `${summary}; ${failed} failed and stay closed until fixed` : summary);
} finally {
  platform.close();
}
process.exit(failed > 0 ? 1 : 0);
