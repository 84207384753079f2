import { hasPendingJobOfKind } from "../app/models/job.server";
import { listOrganizations } from "../app/models/organization.server";
import { hasReminderWork, pruneReminderJobs, REMINDERS_JOB } from "../app/models/reminders.server";
import type { PlatformDb } from "../db/open";
import type { TenantPool } from "../db/tenant-pool";
import type { JobRunner } from "./jobs";
import { logger } from "./logger";

/**
 * The reminders' schedule (issue 34; docs/decisions/038-reminders.md): at start and then every
 * REMINDERS_EVERY_MINUTES, each organization with an open assignment gets a reminders job (REMINDERS_JOB)
 * unless one is already waiting. The job runs in the job runner (server/jobs.ts), so a run cut short by a
 * restart runs again after it; what each run sends is decided by what is recorded in the organization's
 * database (app/models/reminders.server.ts), never by this schedule, so a missed or doubled turn sends
 * nothing twice. `0` turns the schedule off (tests do, unless they test it: tests/helpers/server.ts).
 */
export class ReminderSchedule {
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(
    readonly platform: { db: PlatformDb; tenants: TenantPool; jobs: JobRunner },
    readonly everyMinutes: number,
  ) {}

  start() {
    if (this.everyMinutes <= 0) return;
    setImmediate(() => this.turn());
    this.#timer = setInterval(() => this.turn(), this.everyMinutes * 60_000);
    this.#timer.unref();
  }

  stop() {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
  }

  /**
   * One turn: each organization on a turn of the event loop of its own, looked at without being kept open
   * (db/tenant-pool.ts `peek`), and opened to queue its job only when it has open assignments.
   */
  turn() {
    const organizations = listOrganizations(this.platform.db);
    let next = 0;
    const step = () => {
      if (this.#stopped || next >= organizations.length) return;
      const { id } = organizations[next++];
      try {
        if (this.platform.tenants.peek(id, hasReminderWork)) {
          this.platform.tenants.withTenant(id, (db) => {
            // One already waiting (or cut short by a restart): make sure the runner is on it.
            if (hasPendingJobOfKind(db, REMINDERS_JOB)) return this.platform.jobs.kick(id);
            pruneReminderJobs(db);
            this.platform.jobs.enqueue(id, db, REMINDERS_JOB, {});
          });
        }
      } catch (error) {
        // An unreadable or locked organization is tried again on the next turn.
        logger.warn({ org: id, error: String(error) }, "reminders not queued");
      }
      setImmediate(step);
    };
    step();
  }
}
