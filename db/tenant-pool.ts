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

/** One open handle and the requests using it. Leases are per handle, never per organization id. */
export interface Lease {
  readonly organizationId: number;
  readonly db: TenantDb;
  users: number;
  /** Taken out of the pool (evicted over size, or found damaged): closed when its last user leaves. */
  retired: boolean;
}

/**
 * A bounded LRU of open tenant databases (docs/decisions/002-tenancy.md). A handle in use by a request
 * is never closed under it: eviction skips busy handles (the pool may briefly hold more than its size),
 * and a handle retired while in use is closed when its last request releases it.
 */
export class TenantPool {
  readonly #entries = new Map<number, Lease>();
  /** Organizations whose file raised a corruption error: checked in full before they are used again. */
  readonly #suspect = new Set<number>();

  constructor(
    readonly dataDir: string,
    readonly size: number,
    readonly open: (file: string) => TenantDb = openTenantDatabase,
    /** Told of each handle as its user gives it back (the server's checkpointer: db/checkpointer.ts). */
    readonly afterUse: ((db: TenantDb) => void) | null = null,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error("tenant pool size must be at least 1");
  }

  /** Opens (or reuses) the organization's database; the lease must be given back with `release`. */
  acquire(organizationId: number): Lease {
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
        this.release(open);
      }
    }
    const db = this.#openChecked(organizationId);
    try {
      return work(db);
    } finally {
      closeQuietly(db);
    }
  }

  /** Whether SQLite reported damage in the organization's file since it was last checked. */
  isSuspect(organizationId: number) {
    return this.#suspect.has(organizationId);
  }

  release(lease: Lease) {
    if (lease.users > 0) lease.users -= 1;
    this.afterUse?.(lease.db);
    if (lease.retired) {
      if (lease.users === 0) closeQuietly(lease.db);
      return;
    }
    this.#evict();
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

function closeQuietly(db: TenantDb) {
  try {
    db.$client.close();
  } catch {
    // already closed
  }
}
