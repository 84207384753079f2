import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseUnavailableError, HANDLE_CACHE_KIB, openTenantDatabase, type TenantDb } from "./open";

/** Where an organization's folder lives: one folder per organization, named by its id. */
export function tenantFolder(dataDir: string, organizationId: number) {
  return path.join(dataDir, `org-${organizationId}`);
}

export function tenantDatabaseFile(dataDir: string, organizationId: number) {
  return path.join(tenantFolder(dataDir, organizationId), "db.sqlite");
}

/** Beyond its page cache, what a handle costs: the connection and its schema, statements, the shm mapping. */
const HANDLE_OVERHEAD_KIB = 512;
/** Descriptors kept for everything else (sockets, uploads, the platform database, logs). */
const RESERVED_FILES = 256;

/** The process's limit on open files (soft), from /proc; 1024 where it cannot be read. */
function openFileLimit() {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"));
    if (match) return match[1] === "unlimited" ? 1 << 20 : Number(match[1]);
  } catch {
    // not Linux
  }
  return 1024;
}

/** The memory the open tenant databases may use at most, when TENANT_POOL_MB does not say (MiB). */
export const DEFAULT_POOL_MIB = 64;

/**
 * How many tenant databases stay open when TENANT_POOL_SIZE is not set: as many as the file-descriptor
 * limit allows (a handle holds up to three files: the database, its -wal and -shm) and the pool's memory
 * budget holds at the most a handle can use (its bounded page cache and its overhead). The budget is
 * TENANT_POOL_MB, at most a quarter of the machine's memory. Opening a handle costs its schema's ~300 KiB
 * whatever the page cache, so a thousand organizations are not all kept open: visitors' pages are served
 * without a handle while nothing changed (server/page-cache.ts), and the pool holds the organizations in
 * use by signed-in people (docs/decisions/028-memory-and-the-pool.md).
 */
export function defaultPoolSize({ fileLimit = openFileLimit(), memoryBytes = os.totalmem(), budgetMiB = DEFAULT_POOL_MIB } = {}) {
  const byFiles = Math.floor((fileLimit - RESERVED_FILES) / 3);
  const budget = Math.min(memoryBytes / 4, budgetMiB * 1024 * 1024);
  const byMemory = Math.floor(budget / ((HANDLE_CACHE_KIB + HANDLE_OVERHEAD_KIB) * 1024));
  return Math.max(16, Math.min(byFiles, byMemory, 10_000));
}

/** One open handle and the uses of it under way. Leases are per handle, never per organization id. */
interface Lease {
  readonly organizationId: number;
  readonly db: TenantDb;
  users: number;
  /** Taken out of the pool (evicted over size, or found damaged): closed when its last user leaves. */
  retired: boolean;
}

/** What a lease can last the life of: a response ends with "finish" (sent) or "close" (the client left). */
export interface LeaseHolder {
  once(event: "finish" | "close", listener: () => void): unknown;
}

export interface PoolHooks {
  /** Told of each pooled handle as its user gives it back (the server's checkpointer: db/checkpointer.ts). */
  afterUse?: (db: TenantDb) => void;
  /**
   * Told as every use of an organization's database ends, pooled or opened for one `peek`, while the
   * handle is still open: the server carries the organization's changed people and course count over to
   * the platform database there (server/tenant-summaries.ts). It must not throw: it runs as a response ends.
   */
  settle?: (organizationId: number, db: TenantDb) => void;
}

/**
 * A bounded LRU of open tenant databases (docs/decisions/002-tenancy.md). A handle in use is never
 * closed under it: eviction skips busy handles (the pool may briefly hold more than its size), and a
 * handle retired while in use is closed when its last user gives it back.
 *
 * There are three ways to an organization's database and no other: taking and giving back a handle is
 * this class's own business (issue 31; tests/unit/one-way-to-a-tenant.test.ts fails on an `acquire(` or
 * `.release(` in app/, server/ or scripts/):
 *  - `withTenant(id, work)`: for the length of `work`; given back when it returns or throws, or when the
 *    promise it returns settles;
 *  - `holdFor(id, response)`: for the life of a request (server/app.ts `tenancy`); given back once, when
 *    the response finishes or its connection closes, whichever comes first. The request is the one use
 *    that outlives the function taking the lease, so the lease is tied to the response here, where it is
 *    taken, and no caller writes a release of its own;
 *  - `peek(id, work)`: for a sweep over every organization, without making them part of the working set.
 */
export class TenantPool {
  readonly #entries = new Map<number, Lease>();
  /** Organizations whose file raised a corruption error: checked in full before they are used again. */
  readonly #suspect = new Set<number>();

  constructor(
    readonly dataDir: string,
    readonly size: number,
    readonly open: (file: string) => TenantDb = openTenantDatabase,
    readonly hooks: PoolHooks = {},
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error("tenant pool size must be at least 1");
  }

  /**
   * Runs `work` with the organization's database. Synchronous work has its value returned as it is; when
   * `work` returns a promise, the handle is kept until that promise settles and the promise is returned.
   * Opening fails with DatabaseUnavailableError (its caller's 503) before `work` runs.
   */
  withTenant<T>(organizationId: number, work: (db: TenantDb) => T): T {
    const lease = this.#acquire(organizationId);
    let result: T;
    try {
      result = work(lease.db);
    } catch (error) {
      this.#release(lease);
      throw error;
    }
    if (isPromiseLike(result)) return Promise.resolve(result).finally(() => this.#release(lease)) as T;
    this.#release(lease);
    return result;
  }

  /**
   * The organization's database for the life of `holder` (a request's response), given back once, on its
   * first "finish" or "close". Opening fails with DatabaseUnavailableError, and then nothing is held.
   */
  holdFor(organizationId: number, holder: LeaseHolder): TenantDb {
    const lease = this.#acquire(organizationId);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.#release(lease);
    };
    holder.once("finish", release);
    holder.once("close", release);
    return lease.db;
  }

  /**
   * Runs `work` on the organization's database without making it part of the working set: the pool's
   * handle when it is open, else a handle opened for this call and closed after it (a background sweep
   * over every organization must not evict the ones people are using, nor hold them all open).
   */
  peek<T>(organizationId: number, work: (db: TenantDb) => T): T {
    const open = this.#entries.get(organizationId);
    if (open) {
      open.users += 1;
      try {
        return work(open.db);
      } finally {
        this.#release(open);
      }
    }
    const db = this.#openChecked(organizationId);
    try {
      return work(db);
    } finally {
      try {
        this.hooks.settle?.(organizationId, db);
      } finally {
        closeQuietly(db);
      }
    }
  }

  /** Whether SQLite reported damage in the organization's file since it was last checked. */
  isSuspect(organizationId: number) {
    return this.#suspect.has(organizationId);
  }

  /** Takes an organization's handle out of the pool (e.g. its folder moved); closed once idle. */
  discard(organizationId: number) {
    const lease = this.#entries.get(organizationId);
    if (!lease) return;
    this.#entries.delete(organizationId);
    this.#retire(lease);
  }

  /** After SQLite reported damage: retire the handle; the next open runs an integrity check first. */
  markSuspect(organizationId: number) {
    this.#suspect.add(organizationId);
    this.discard(organizationId);
  }

  get openCount() {
    return this.#entries.size;
  }

  has(organizationId: number) {
    return this.#entries.has(organizationId);
  }

  closeAll() {
    for (const [id, lease] of this.#entries) {
      this.#entries.delete(id);
      closeQuietly(lease.db);
    }
  }

  /** Opens (or reuses) the organization's database; every lease is given back by `#release`, once. */
  #acquire(organizationId: number): Lease {
    let lease = this.#entries.get(organizationId);
    if (lease) {
      this.#entries.delete(organizationId); // re-insert: most recently used goes last
    } else {
      lease = { organizationId, db: this.#openChecked(organizationId), users: 0, retired: false };
    }
    lease.users += 1;
    this.#entries.set(organizationId, lease);
    this.#evict();
    return lease;
  }

  #release(lease: Lease) {
    try {
      this.hooks.settle?.(lease.organizationId, lease.db);
    } finally {
      if (lease.users > 0) lease.users -= 1;
      this.hooks.afterUse?.(lease.db);
      if (lease.retired) {
        if (lease.users === 0) closeQuietly(lease.db);
      } else {
        this.#evict();
      }
    }
  }

  #openChecked(organizationId: number) {
    const file = tenantDatabaseFile(this.dataDir, organizationId);
    const db = this.open(file);
    if (this.#suspect.has(organizationId)) {
      let result: unknown;
      try {
        result = db.$client.pragma("quick_check(1)", { simple: true });
      } catch (error) {
        result = (error as Error).message;
      }
      if (result !== "ok") {
        closeQuietly(db);
        throw new DatabaseUnavailableError(`integrity check failed: ${String(result)}`, file);
      }
      this.#suspect.delete(organizationId);
    }
    return db;
  }

  #retire(lease: Lease) {
    lease.retired = true;
    if (lease.users === 0) closeQuietly(lease.db);
  }

  #evict() {
    if (this.#entries.size <= this.size) return;
    for (const [id, lease] of this.#entries) {
      if (this.#entries.size <= this.size) break;
      if (lease.users > 0) continue;
      this.#entries.delete(id);
      this.#retire(lease);
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

function closeQuietly(db: TenantDb) {
  try {
    db.$client.close();
  } catch {
    // already closed
  }
}
