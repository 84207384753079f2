import { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asc } from "drizzle-orm";
import { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { connectionOf } from "../../db/connections";
import { checkDatabaseFile, createTenantDatabase, DatabaseUnavailableError, openTenantDatabase } from "../../db/open";
import { categories } from "../../db/tenant";
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

  it("are refused when they are SQLite files we never migrated", () => {
    const file = path.join(dir, "foreign.sqlite");
    const other = new Database(file);
    other.exec("create table t(x); insert into t values (1);");
    other.close();
    expect(() => openTenantDatabase(file)).toThrow(/no migration history/);
  });
});

/** A response's stand-in: a lease held by `holdFor` ends with its "finish" or "close". */
const response = () => new EventEmitter();

describe("database handles (db/open.ts)", () => {
  it("are drizzle's own, and drizzle's SQL reaches better-sqlite3's own prepare as drizzle wrote it", () => {
    makeTenants([1]);
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    try {
      expect(db).toBeInstanceOf(BetterSQLite3Database);
      // No statement cache or SQL rewriting in between (decision 042): the handle's prepare is better-sqlite3's.
      expect(Object.hasOwn(db.$client, "prepare")).toBe(false);
      const prepared: string[] = [];
      const prepare = vi.spyOn(db.$client, "prepare");
      prepare.mockImplementation(function (this: Database.Database, source: string) {
        prepared.push(source);
        return Database.prototype.prepare.call(this, source);
      });
      const query = db.select({ name: categories.name }).from(categories).orderBy(asc(categories.position)).limit(1);
      query.all();
      query.all();
      expect(prepared).toEqual([query.toSQL().sql, query.toSQL().sql]);
      expect(prepared[0]).toMatch(/limit \?$/);
      prepare.mockRestore();
    } finally {
      db.$client.close();
    }
  });

  it("begin transactions with BEGIN IMMEDIATE unless told otherwise, and know their connection at any depth", () => {
    makeTenants([1]);
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const other = new Database(tenantDatabaseFile(dir, 1), { timeout: 0 });
    const otherMayWrite = () => {
      try {
        other.exec("begin immediate; rollback");
        return true;
      } catch {
        return false;
      }
    };
    try {
      // Nothing written yet: only a BEGIN IMMEDIATE holds the write lock already.
      expect(db.transaction(() => otherMayWrite())).toBe(false);
      expect(db.transaction(() => otherMayWrite(), { behavior: "deferred" })).toBe(true);
      expect(otherMayWrite()).toBe(true);
      const depths = db.transaction((tx) => [
        connectionOf(tx),
        tx.transaction((inner) => [connectionOf(inner), inner.transaction((deepest) => connectionOf(deepest))]),
      ]);
      expect(depths.flat(2)).toEqual([db.$client, db.$client, db.$client]);
      expect(connectionOf(db)).toBe(db.$client);
    } finally {
      other.close();
      db.$client.close();
    }
  });
});

describe("TenantPool", () => {
  it("keeps at most `size` idle handles open and closes the least recently used", () => {
    makeTenants([1, 2, 3]);
    const pool = new TenantPool(dir, 2);
    const use = (id: number) => pool.withTenant(id, (db) => db);
    const first = use(1);
    use(2);
    use(1); // 1 is now the most recently used
    use(3);
    expect(pool.openCount).toBe(2);
    expect(pool.has(2)).toBe(false);
    expect(pool.has(1)).toBe(true);
    expect(first.$client.open).toBe(true);
    pool.closeAll();
    expect(first.$client.open).toBe(false);
  });

  it("never closes a handle that a request is still using", () => {
    makeTenants([1, 2]);
    const pool = new TenantPool(dir, 1);
    const busyResponse = response();
    const busy = pool.holdFor(1, busyResponse);
    const otherResponse = response();
    pool.holdFor(2, otherResponse);
    expect(busy.$client.open).toBe(true);
    expect(pool.openCount).toBe(2);
    otherResponse.emit("finish");
    expect(busy.$client.open).toBe(true);
    busyResponse.emit("finish");
    expect(pool.openCount).toBe(1);
    pool.closeAll();
  });

  it("closes a handle retired while in use only when its last request is done, and keeps counts per handle", () => {
    makeTenants([1, 2]);
    const pool = new TenantPool(dir, 1);
    const [responseA, responseB, responseC] = [response(), response(), response()];
    const a = pool.holdFor(1, responseA);
    const b = pool.holdFor(1, responseB);
    expect(a).toBe(b);
    pool.markSuspect(1); // request A saw damage
    expect(a.$client.open).toBe(true); // request B still uses it
    const c = pool.holdFor(1, responseC); // a new handle after the check
    expect(c).not.toBe(a);
    responseA.emit("finish");
    responseA.emit("close"); // both events come: the lease is given back once
    expect(a.$client.open).toBe(true);
    responseB.emit("close");
    expect(a.$client.open).toBe(false);
    // Giving back A and B never touched C's count: C is not evicted by another organization's use.
    pool.withTenant(2, () => undefined);
    expect(c.$client.open).toBe(true);
    expect(pool.has(1)).toBe(true);
    responseC.emit("finish");
    pool.closeAll();
  });

  it("never creates a database for an organization without one", () => {
    const pool = new TenantPool(dir, 2);
    expect(() => pool.withTenant(7, () => undefined)).toThrow(DatabaseUnavailableError);
    expect(() => pool.holdFor(7, response())).toThrow(DatabaseUnavailableError);
    expect(fs.existsSync(tenantDatabaseFile(dir, 7))).toBe(false);
  });

  it("checks a suspect database in full before using it again", () => {
    makeTenants([1]);
    const pool = new TenantPool(dir, 2);
    pool.withTenant(1, () => undefined);
    pool.markSuspect(1);
    expect(pool.has(1)).toBe(false);
    expect(pool.withTenant(1, (db) => db.$client.open)).toBe(true);
    pool.closeAll();
  });
});

describe("TenantPool.withTenant", () => {
  /** Whether organization 1's handle was given back: with a pool of one, using 2 then evicts it. */
  const givenBack = (pool: TenantPool) => {
    pool.withTenant(2, () => undefined);
    return !pool.has(1);
  };

  it("returns what synchronous work returns, and gives the handle back", () => {
    makeTenants([1, 2]);
    const pool = new TenantPool(dir, 1);
    expect(pool.withTenant(1, (db) => db.$client.prepare("select 41 + 1").pluck().get())).toBe(42);
    expect(givenBack(pool)).toBe(true);
    pool.closeAll();
  });

  it("gives the handle back when the work throws", () => {
    makeTenants([1, 2]);
    const pool = new TenantPool(dir, 1);
    expect(() =>
      pool.withTenant(1, () => {
        throw new Error("broken work");
      }),
    ).toThrow("broken work");
    expect(givenBack(pool)).toBe(true);
    pool.closeAll();
  });

  it("keeps the handle while the work's promise is pending, and gives it back when it resolves or rejects", async () => {
    makeTenants([1, 2]);
    const pool = new TenantPool(dir, 1);
    let finish!: (value: string) => void;
    const pending = pool.withTenant(1, (db) => new Promise<string>((resolve) => (finish = resolve)).then((v) => `${v} ${db.$client.open}`));
    expect(givenBack(pool)).toBe(false); // in use: not evicted
    finish("open:");
    await expect(pending).resolves.toBe("open: true");
    expect(givenBack(pool)).toBe(true);

    const failing = pool.withTenant(1, async () => {
      await Promise.resolve();
      throw new Error("late failure");
    });
    await expect(failing).rejects.toThrow("late failure");
    expect(givenBack(pool)).toBe(true);
    pool.closeAll();
  });

  it("tells `settle` of every use's end, while the handle is open, pooled or peeked", () => {
    makeTenants([1, 2]);
    const ends: Array<[number, boolean]> = [];
    const pool = new TenantPool(dir, 1, undefined, { settle: (id, db) => ends.push([id, db.$client.open]) });
    pool.withTenant(1, () => undefined);
    const held = response();
    pool.holdFor(1, held);
    held.emit("finish");
    held.emit("close");
    pool.peek(2, () => undefined); // not in the pool: opened for the call, settled, closed
    expect(ends).toEqual([
      [1, true],
      [1, true],
      [2, true],
    ]);
    expect(pool.has(2)).toBe(false);
    pool.closeAll();
  });
});
