import { hasPendingJobOfKind } from "../app/models/job.server";
import { recertificationDue, RECERTIFICATION_JOB } from "../app/models/recertification.server";
import type { Platform } from "./platform";
import { sweepOrganizations } from "./organization-sweep";

/** How often every organization is looked at for completions about to expire. */
const CHECK_EVERY_MS = 60 * 60_000;

/**
 * Recertification's clock (issue 34; app/models/recertification.server.ts): at start and then every hour,
 * each organization is looked at (peeked, so a thousand organizations do not fill the pool) and, when
 * someone's re-assignment day has come and no such job is waiting, a `recertification.reassign` job is
 * queued in its `jobs` table. The job runner (server/jobs.ts) runs it, and picks it up again after a
 * restart; the job itself never re-assigns twice for one expiry. Returns a function that stops the clock.
 */
export function scheduleRecertification(platform: Pick<Platform, "db" | "tenants" | "jobs">, { everyMs = CHECK_EVERY_MS } = {}) {
  return sweepOrganizations(platform, { everyMs, what: "recertification check" }, (id) => {
    const now = new Date();
    const due = platform.tenants.peek(id, (db) => recertificationDue(db, now) && !hasPendingJobOfKind(db, RECERTIFICATION_JOB));
    if (due)
      platform.tenants.withTenant(id, (db) => {
        if (!hasPendingJobOfKind(db, RECERTIFICATION_JOB)) platform.jobs.enqueue(id, db, RECERTIFICATION_JOB, {});
      });
  });
}
