import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkDatabaseFile,
  createTenantDatabase,
  DatabaseUnavailableError,
  openTenantDatabase,
} from "../../db/open";
import { TenantPool, tenantDatabaseFile } from "../../db/tenant-pool";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-unit-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function makeTenants(ids: number[]) {
  for (const id of ids) createTenantDatabase(tenantDatabaseFile(dir, id));
}

describe("tenant databases", () => {
  it("are created migrated, with the durability settings", () => {
    makeTenants([1]);
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const sqlite = db.$client;
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(sqlite.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
    const tables = sqlite.prepare("select name from sqlite_master where type='table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(["courses", "categories", "__drizzle_migrations"]));
    sqlite.close();
  });

  it("leave no temporary file behind and refuse to overwrite an existing one", () => {
    makeTenants([1]);
    expect(fs.readdirSync(path.join(dir, "org-1"))).toEqual(["db.sqlite"]);
    expect(() => createTenantDatabase(tenantDatabaseFile(dir, 1))).toThrow(/already exists/);
  });

  it.each([
    ["missing", (f: string) => fs.rmSync(f)],
    ["empty", (f: string) => fs.truncateSync(f, 0)],
    ["not SQLite", (f: string) => fs.writeFileSync(f, Buffer.alloc(8192, 7))],
    ["cut short", (f: string) => fs.truncateSync(f, 4096)],
  ])("are refused when %s", (_label, damage) => {
    makeTenants([1]);
    const file = tenantDatabaseFile(dir, 1);
    damage(file);
    expect(() => checkDatabaseFile(file)).toThrow(DatabaseUnavailableError);
    expect(() => openTenantDatabase(file)).toThrow(DatabaseUnavailableError);
  });

  it("are refused when they are SQLite files we never migrated", async () => {
    const file = path.join(dir, "foreign.sqlite");
    const { default: Database } = await import("better-sqlite3");
    const other = new Database(file);
    other.exec("create table t(x); insert into t values (1);");
    other.close();
    expect(() => openTenantDatabase(file)).toThrow(/no migration history/);
  });
});

describe("TenantPool", () => {
  it("keeps at most `size` idle handles open and closes the least recently used", () => {
    makeTenants([1, 2, 3]);
    const pool = new TenantPool(dir, 2);
    const use = (id: number) => {
      const lease = pool.acquire(id);
      pool.release(lease);
      return lease;
    };
    const first = use(1);
    use(2);
    use(1); // 1 is now the most recently used
    use(3);
    expect(pool.openCount).toBe(2);
    expect(pool.has(2)).toBe(false);
    expect(pool.has(1)).toBe(true);
    expect(first.db.$client.open).toBe(true);
    pool.closeAll();
    expect(first.db.$client.open).toBe(false);
  });

  it("never closes a handle that a request is still using", () => {
    makeTenants([1, 2]);
    const pool = new TenantPool(dir, 1);
    const busy = pool.acquire(1);
    const other = pool.acquire(2);
    expect(busy.db.$client.open).toBe(true);
    expect(pool.openCount).toBe(2);
    pool.release(other);
    expect(busy.db.$client.open).toBe(true);
    pool.release(busy);
    expect(pool.openCount).toBe(1);
    pool.closeAll();
  });

  it("closes a handle retired while in use only when its last request is done, and keeps counts per handle", () => {
    makeTenants([1]);
    const pool = new TenantPool(dir, 2);
    const a = pool.acquire(1);
    const b = pool.acquire(1);
    expect(a).toBe(b);
    pool.markSuspect(1); // request A saw damage
    expect(a.db.$client.open).toBe(true); // request B still uses it
    const c = pool.acquire(1); // a new handle after the check
    expect(c).not.toBe(a);
    pool.release(a);
    expect(a.db.$client.open).toBe(true);
    pool.release(b);
    expect(a.db.$client.open).toBe(false);
    expect(c.users).toBe(1); // releasing A and B never touched C's count
    expect(c.db.$client.open).toBe(true);
    pool.release(c);
    pool.closeAll();
  });

  it("never creates a database for an organization without one", () => {
    const pool = new TenantPool(dir, 2);
    expect(() => pool.acquire(7)).toThrow(DatabaseUnavailableError);
    expect(fs.existsSync(tenantDatabaseFile(dir, 7))).toBe(false);
  });

  it("checks a suspect database in full before using it again", () => {
    makeTenants([1]);
    const pool = new TenantPool(dir, 2);
    pool.release(pool.acquire(1));
    pool.markSuspect(1);
    expect(pool.has(1)).toBe(false);
    expect(pool.acquire(1).db.$client.open).toBe(true);
    pool.closeAll();
  });
});
