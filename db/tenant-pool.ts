import path from "node:path";
import { DatabaseUnavailableError, openTenantDatabase, type TenantDb } from "./open";

/** Where an organization's folder lives: one folder per organization, named by its id. */
export function tenantFolder(dataDir: string, organizationId: number) {
  return path.join(dataDir, `org-${organizationId}`);
}

export function tenantDatabaseFile(dataDir: string, organizationId: number) {
  return path.join(tenantFolder(dataDir, organizationId), "db.sqlite");
}

interface Entry {
  db: TenantDb;
  users: number;
}

/**
 * A bounded LRU of open tenant databases (docs/decisions/002-tenancy.md). A handle in use by a request is
 * never closed under it: eviction skips busy handles and the pool may briefly hold more than its size.
 */
export class TenantPool {
  readonly #entries = new Map<number, Entry>();
  /** Organizations whose file raised a corruption error: checked in full before they are used again. */
  readonly #suspect = new Set<number>();

  constructor(
    readonly dataDir: string,
    readonly size: number,
    readonly open: (file: string) => TenantDb = openTenantDatabase,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error("tenant pool size must be at least 1");
  }

  /** Opens (or reuses) the organization's database and marks it in use until `release`. */
  acquire(organizationId: number): TenantDb {
    let entry = this.#entries.get(organizationId);
    if (entry) {
      this.#entries.delete(organizationId); // re-insert: most recently used goes last
    } else {
      entry = { db: this.#openChecked(organizationId), users: 0 };
    }
    entry.users += 1;
    this.#entries.set(organizationId, entry);
    this.#evict();
    return entry.db;
  }

  release(organizationId: number) {
    const entry = this.#entries.get(organizationId);
    if (entry && entry.users > 0) entry.users -= 1;
    this.#evict();
  }

  /** Closes and forgets a handle, e.g. after the file was found corrupt or the organization moved. */
  discard(organizationId: number) {
    const entry = this.#entries.get(organizationId);
    if (!entry) return;
    this.#entries.delete(organizationId);
    closeQuietly(entry.db);
  }

  /** After SQLite reported damage: close the handle; the next open runs an integrity check first. */
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
    for (const [id, entry] of this.#entries) {
      this.#entries.delete(id);
      closeQuietly(entry.db);
    }
  }

  #openChecked(organizationId: number) {
    const file = tenantDatabaseFile(this.dataDir, organizationId);
    const db = this.open(file);
    if (this.#suspect.has(organizationId)) {
      const result = db.$client.pragma("quick_check(1)", { simple: true });
      if (result !== "ok") {
        closeQuietly(db);
        throw new DatabaseUnavailableError(`integrity check failed: ${String(result)}`, file);
      }
      this.#suspect.delete(organizationId);
    }
    return db;
  }

  #evict() {
    if (this.#entries.size <= this.size) return;
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= this.size) break;
      if (entry.users > 0) continue;
      this.#entries.delete(id);
      closeQuietly(entry.db);
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
