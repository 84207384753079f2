import { isBusyError } from "../db/write-lock";
import { auditCutoff, hasAuditBefore, purgeAuditBefore } from "../app/models/admin-audit.server";
import { listOrganizations } from "../app/models/organization.server";
import type { Platform } from "./platform";
import { logger } from "./logger";

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
  let stopped = false;
  const sweep = () => {
    const organizations = listOrganizations(platform.db);
    let next = 0;
    const step = () => {
      if (stopped || next >= organizations.length) return;
      const { id } = organizations[next];
      let more = false;
      try {
        const cutoff = platform.tenants.peek(id, (db) => {
          const at = auditCutoff(db);
          return at && hasAuditBefore(db, at) ? at : null;
        });
        // A full batch means there may be more: the same organization again at the next turn.
        if (cutoff) more = platform.tenants.withTenant(id, (db) => purgeAuditBefore(db, cutoff)) > 0;
      } catch (error) {
        // A locked or unreadable organization is looked at again at the next sweep.
        if (!isBusyError(error)) logger.warn({ org: id, error: String(error) }, "audit retention");
      }
      if (!more) next++;
      setImmediate(step);
    };
    step();
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  setImmediate(sweep);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
