import { auditCutoff, hasAuditBefore, purgeAuditBefore } from "../app/models/admin-audit.server";
import type { Platform } from "./platform";
import { sweepOrganizations } from "./organization-sweep";

/** How often every organization's audit is looked at for entries past its retention. */
const CHECK_EVERY_MS = 60 * 60_000;

/**
 * The audit's retention (issue 50; app/models/admin-audit.server.ts): at start and then every hour, each
 * organization is peeked at (a thousand organizations do not fill the pool) for entries older than its
 * `audit_retention_days`; where there are some they are deleted a batch at a time, one turn of the event loop and
 * one short hold of the organization's write lock each, so its requests are answered meanwhile. Returns a
 * function that stops the clock.
 */
export function scheduleAuditRetention(platform: Pick<Platform, "db" | "tenants">, { everyMs = CHECK_EVERY_MS } = {}) {
  return sweepOrganizations(platform, { everyMs, what: "audit retention" }, (id) => {
    const cutoff = platform.tenants.peek(id, (db) => {
      const at = auditCutoff(db);
      return at && hasAuditBefore(db, at) ? at : null;
    });
    // A full batch deleted: perhaps more, the same organization again at the next turn.
    return cutoff !== null && platform.tenants.withTenant(id, (db) => purgeAuditBefore(db, cutoff)) > 0;
  });
}
