import type { TenantDb } from "../db/open";
import { isBusyError, tryWriteLock } from "../db/write-lock";
import { cloneCourse, type JobContext } from "../app/models/clone.server";
import { rebuildAnalyticsJob, REBUILD_JOB } from "../app/models/analytics-daily.server";
import {
  enqueueJob,
  failJob,
  finishJob,
  getJob,
  hasPendingJobs,
  JobError,
  JobInterrupted,
  nextJob,
  reportProgress,
  startJob,
  uncountAttempt,
} from "../app/models/job.server";
import { listOrganizations } from "../app/models/organization.server";
import { sweepIncoming } from "../app/models/file.server";
import { sweepScormIncoming } from "../app/models/scorm.server";
import { importUsersJob } from "../app/models/user-import.server";
import { reassignJob, RECERTIFICATION_JOB } from "../app/models/recertification.server";
import { REMINDERS_JOB, sendRemindersJob } from "../app/models/reminders.server";
import { PEOPLE_BULK_JOB, peopleBulkJob } from "../app/models/people-bulk/job.server";
import { COURSE_BULK_JOB, courseBulkJob } from "../app/models/course-bulk/job.server";
import type { JobServices } from "./services";
import { renderCertificateJob } from "./certificates";
import { logger } from "./logger";

type Handler = (context: JobContext, platform: JobServices) => Promise<Record<string, unknown>>;

/** Attempts before a job is given up (each restart during a job counts as one). */
const MAX_ATTEMPTS = 3;

/** How long an organization's jobs wait while another process holds its file's write lock. */
const LOCKED_RETRY_MS = 1_000;

/** SQLITE_BUSY, also when it stopped a database from opening (db/open.ts wraps it in DatabaseUnavailableError). */
function isLocked(error: unknown) {
  return isBusyError(error) || isBusyError((error as { cause?: unknown } | null)?.cause);
}

/** What each kind of job does. */
const HANDLERS: Record<string, Handler> = {
  "course.clone": cloneCourse,
  "certificate.render": renderCertificateJob,
  "users.import": importUsersJob, // groups and import (issue 14)
  [REBUILD_JOB]: rebuildAnalyticsJob, // analytics' daily rollups in the organization's zone (issue 33)
  [RECERTIFICATION_JOB]: reassignJob, // recertification: re-assign before completions expire (issue 34; server/recertification.ts)
  [REMINDERS_JOB]: sendRemindersJob, // reminders by e-mail and weekly digests (issue 34), queued by server/reminders.ts
  [PEOPLE_BULK_JOB]: peopleBulkJob, // bulk actions on people (issue 50)
  [COURSE_BULK_JOB]: courseBulkJob, // bulk actions on courses (issue 50)
};

/**
 * The in-process job runner (docs/architecture.md "Data"): jobs live in each organization's `jobs` table, so
 * they survive a restart; the runner works through one organization's jobs at a time, oldest first. A job
 * found "running" after a restart was interrupted and runs again from the start (handlers make that safe).
 * While another process holds an organization's file locked (the server's handles do not wait inside
 * SQLite: db/write-lock.ts), its jobs are left as they are and tried again a second later, from the
 * start; such an interruption is not counted as an attempt.
 */
export class JobRunner {
  readonly #waiting = new Set<number>();
  /** Jobs stopped by another process's lock, to be started again without counting an attempt. */
  readonly #lockedOut = new Set<string>();
  #active: Promise<void> | null = null;
  #stopped = false;

  constructor(
    readonly platform: JobServices,
    readonly stepDelayMs = 0,
  ) {}

  enqueue(organizationId: number, db: TenantDb, kind: string, payload: Record<string, unknown>) {
    if (!HANDLERS[kind]) throw new Error(`unknown job kind: ${kind}`);
    const job = enqueueJob(db, kind, payload);
    this.kick(organizationId);
    return job;
  }

  kick(organizationId: number) {
    if (this.#stopped) return;
    this.#waiting.add(organizationId);
    if (!this.#active) this.#active = this.#drain().finally(() => (this.#active = null));
  }

  /**
   * At start, in the background: sweep every organization's upload leftovers in one pass (before any
   * request can have started an upload of its own), then pick up each organization's unfinished jobs,
   * one organization per turn of the event loop so requests are answered meanwhile. That second pass
   * peeks at each database without keeping it open (db/tenant-pool.ts `peek`): a thousand organizations
   * would otherwise fill the pool, and its memory, at every start.
   */
  resumeAll() {
    setImmediate(() => {
      const organizations = listOrganizations(this.platform.db);
      for (const organization of organizations) {
        try {
          sweepIncoming(this.platform.dataDir, organization.id);
          sweepScormIncoming(this.platform.dataDir, organization.id);
        } catch {
          // left for the next start
        }
      }
      let next = 0;
      const step = () => {
        if (this.#stopped || next >= organizations.length) return;
        const organization = organizations[next++];
        try {
          if (this.platform.tenants.peek(organization.id, hasPendingJobs)) this.kick(organization.id);
        } catch (error) {
          // Another process holds the file (or is recovering it after a crash): look again a second later.
          if (isLocked(error)) this.#retryLater(organization.id);
          // otherwise an unreadable organization has no runnable jobs; its pages answer 503
        }
        setImmediate(step);
      };
      step();
    });
  }

  async stop() {
    this.#stopped = true;
    await this.#active;
  }

  async #drain() {
    while (this.#waiting.size && !this.#stopped) {
      const [organizationId] = this.#waiting;
      this.#waiting.delete(organizationId);
      try {
        while (!this.#stopped && (await this.#runNext(organizationId))) {
          // next job of the same organization
        }
      } catch (error) {
        if (isLocked(error)) this.#retryLater(organizationId);
        else logger.error({ org: organizationId, error: String(error) }, "job runner");
      }
    }
  }

  /** The organization's file is locked by another process: its jobs go on a little later. */
  #retryLater(organizationId: number) {
    setTimeout(() => this.kick(organizationId), LOCKED_RETRY_MS).unref();
  }

  async #runNext(organizationId: number): Promise<boolean> {
    // The organization's database is held until the job's promise settles (db/tenant-pool.ts `withTenant`).
    return this.platform.tenants.withTenant(organizationId, async (db) => {
      if (!tryWriteLock(db.$client)) {
        this.#retryLater(organizationId);
        return false;
      }
      const pending = nextJob(db);
      if (!pending) return false;
      const key = `${organizationId}:${pending.id}`;
      const lockedOut = this.#lockedOut.delete(key);
      if (pending.attempts >= MAX_ATTEMPTS && !lockedOut) {
        // A job that keeps stopping the process (or keeps being interrupted) is not run again forever.
        failJob(db, pending.id, "The work was interrupted too many times.");
        return true;
      }
      const job = startJob(db, lockedOut ? { ...pending, attempts: pending.attempts - 1 } : pending);
      let last = 0;
      const context: JobContext = {
        db,
        dataDir: this.platform.dataDir,
        organizationId,
        job,
        progress: (percent) => {
          if (Math.round(percent) !== last) reportProgress(db, job.id, (last = Math.round(percent)));
        },
        pause: () => new Promise((resolve) => setTimeout(resolve, this.stepDelayMs)),
        stopping: () => this.#stopped,
      };
      try {
        const result = await HANDLERS[job.kind](context, this.platform);
        if (getJob(db, job.id)?.status !== "done") finishJob(db, job.id, result);
      } catch (error) {
        if (error instanceof JobInterrupted) {
          // Left running with what it kept: it goes on after the restart, this attempt not counted.
          uncountAttempt(db, job);
          return false;
        }
        if (isBusyError(error)) {
          // Left running, as after a restart: it runs again from the start once the file is free.
          this.#lockedOut.add(key);
          throw error;
        }
        const message = error instanceof JobError ? error.message : "Something went wrong";
        if (!(error instanceof JobError)) {
          logger.error({ org: organizationId, job: job.id, error: String(error) }, "job failed");
        }
        failJob(db, job.id, message);
      }
      return true;
    });
  }
}
