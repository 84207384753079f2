import type { PlatformDb, TenantDb } from "../db/open";
import type { TenantPool } from "../db/tenant-pool";
import { isBusyError } from "../db/write-lock";
import {
  carrySummary,
  forgetSummary,
  hasSummary,
  hasSummaryChanges,
  organizationsWithoutSummary,
} from "../app/models/tenant-summary.server";
import { logger } from "./logger";

/** How long notes wait to be carried over again after a lock held by another process stopped them. */
const RETRY_MS = 1_000;
/** How long an organization whose carry failed otherwise (a read-only or damaged file) is left alone. */
const FAILED_PAUSE_MS = 60_000;

/**
 * Keeps the platform's copy of each organization's people and counts current (app/models/tenant-summary.server.ts;
 * issue 31). The pool calls `settle` as every use of an organization's database ends (db/tenant-pool.ts
 * `PoolHooks`): a request as its response ends, a job step, a script's `withTenant`, a start-up peek.
 *  - Usually nothing changed: one look at the tenant's `summary_changes` (and, on the first use in this
 *    process, one at the platform for the organization's summary row).
 *  - Notes are carried over then, in the same turn, so the overview shown after a change already counts it
 *    (a few thousand at a time: a large import's are carried over several turns).
 *  - An organization without a summary (new since the last start, upgraded, restored) is gathered in full.
 *  - A tenant file locked by another process is never waited for here (the server's handles do not wait:
 *    db/write-lock.ts): the notes stay and are carried a second later, or by the next use.
 * Nothing here throws: a response is ending. A failure is logged, the notes stay, and the organization
 * is left alone for a minute (its next use after that tries again).
 */
export class TenantSummaries {
  /** Organizations whose summary this process has seen or made: only their notes are looked at. */
  readonly #gathered = new Set<number>();
  /** Organizations whose notes wait for another process's lock. */
  readonly #retrying = new Set<number>();
  /** Organizations whose last carry failed, and until when they are left alone (one log line, not one a request). */
  readonly #failed = new Map<number, number>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    readonly db: PlatformDb,
    readonly tenants: TenantPool,
  ) {}

  /** The end of a use of the organization's database (PoolHooks.settle). */
  settle(organizationId: number, tenant: TenantDb) {
    const pausedUntil = this.#failed.get(organizationId);
    if (pausedUntil !== undefined) {
      if (Date.now() < pausedUntil) return;
      this.#failed.delete(organizationId);
    }
    try {
      const full = !this.#gathered.has(organizationId) && !hasSummary(this.db, organizationId);
      if (!full && !hasSummaryChanges(tenant)) {
        this.#gathered.add(organizationId);
        return;
      }
      // Never inside a transaction of the tenant's (none is left open across turns): what it reads
      // could still be rolled back after the platform kept it.
      if (tenant.$client.inTransaction) {
        this.#retryLater(organizationId);
        return;
      }
      // A tenant file locked by another process fails at once with SQLITE_BUSY (below).
      const { more } = carrySummary(this.db, organizationId, tenant, { full });
      this.#gathered.add(organizationId);
      // A large import's notes: the next batch in a later turn, with requests answered in between.
      if (more) setImmediate(() => this.#gather(organizationId));
    } catch (error) {
      if (isBusyError(error)) this.#retryLater(organizationId);
      else {
        this.#failed.set(organizationId, Date.now() + FAILED_PAUSE_MS);
        logger.error({ org: organizationId, error: String(error) }, "organization summary not carried over");
      }
    }
  }

  /**
   * At start, in the background: gathers the summary of each organization that has none, one
   * organization per turn of the event loop, through `peek` (none of them joins the pool's working set).
   */
  gatherMissing() {
    const missing = organizationsWithoutSummary(this.db);
    let next = 0;
    const step = () => {
      if (this.#closed || next >= missing.length) return;
      this.#gather(missing[next++]);
      setImmediate(step);
    };
    setImmediate(step);
  }

  /**
   * Gathers one organization's summary in full again (after `npm run restore` replaced its database). It
   * is dropped first: if the database cannot be read now, its next use gathers it.
   */
  regather(organizationId: number) {
    forgetSummary(this.db, organizationId);
    this.#gathered.delete(organizationId);
    this.#gather(organizationId);
  }

  close() {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Uses the organization's database once; its end (`settle`) carries what is noted, or gathers it all. */
  #gather(organizationId: number) {
    if (this.#closed) return; // the notes stay for the next process to carry
    try {
      this.tenants.peek(organizationId, () => undefined);
    } catch (error) {
      // An organization whose database cannot be opened answers 503 on its own pages; its summary is
      // gathered by its first use once it is fixed.
      logger.warn({ org: organizationId, error: String(error) }, "organization summary not gathered");
    }
  }

  #retryLater(organizationId: number) {
    this.#retrying.add(organizationId);
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const due = [...this.#retrying];
      this.#retrying.clear();
      for (const id of due) this.#gather(id);
    }, RETRY_MS);
    this.#timer.unref();
  }
}
