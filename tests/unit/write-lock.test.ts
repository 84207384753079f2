import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBusyError, tryWriteLock, waitForWriteLock, type WriteWaitLimits } from "../../db/write-lock";

/** db/write-lock.ts: waiting for another connection's write lock on timers, never inside SQLite. */
let dir: string;
let db: Database.Database;
let other: Database.Database;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-lock-"));
  db = new Database(path.join(dir, "db.sqlite"), { timeout: 0 });
  db.pragma("journal_mode = WAL");
  db.exec("create table t (n integer)");
  other = new Database(path.join(dir, "db.sqlite"), { timeout: 0 });
});
afterEach(() => {
  if (other.inTransaction) other.exec("rollback");
  db.close();
  other.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const LIMITS: WriteWaitLimits = { maxMs: 300, firstPollMs: 5, maxPollMs: 20 };

/** The longest the event loop went without running a 5 ms timer while `work` ran. */
async function longestStall<T>(work: Promise<T>) {
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    longest = Math.max(longest, performance.now() - last);
    last = performance.now();
  }, 5);
  try {
    return { value: await work, longest };
  } finally {
    clearInterval(ticker);
  }
}

describe("tryWriteLock", () => {
  it("takes the lock and gives it back at once, or says it is held, without waiting", () => {
    expect(tryWriteLock(db)).toBe(true);
    expect(db.inTransaction).toBe(false);
    other.exec("begin immediate");
    const started = performance.now();
    expect(tryWriteLock(db)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
    expect(db.inTransaction).toBe(false);
    let error: unknown;
    try {
      db.prepare("insert into t values (1)").run();
    } catch (caught) {
      error = caught;
    }
    expect(isBusyError(error)).toBe(true);
  });
});

describe("waitForWriteLock", () => {
  it("goes on as soon as the other connection lets go, the event loop running meanwhile", async () => {
    other.exec("begin immediate");
    setTimeout(() => other.exec("rollback"), 150);
    const started = performance.now();
    const { value, longest } = await longestStall(waitForWriteLock(db, { limits: LIMITS }));
    expect(value).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(longest).toBeLessThan(100);
  });

  it("gives up after maxMs", async () => {
    other.exec("begin immediate");
    const started = performance.now();
    const { value, longest } = await longestStall(waitForWriteLock(db, { limits: LIMITS }));
    expect(value).toBe(false);
    const waited = performance.now() - started;
    // The wait is measured on Date.now()'s whole milliseconds, this test on performance.now(): ±1 ms.
    expect(waited).toBeGreaterThanOrEqual(LIMITS.maxMs - 1);
    expect(waited).toBeLessThan(LIMITS.maxMs + 200);
    expect(longest).toBeLessThan(100);
  });

  it("lets every waiter of one connection go once it is free, trying it once per turn for all of them", async () => {
    // Counts the tries: the runs of the BEGIN IMMEDIATE statement the first try prepares.
    let tries = 0;
    const prepare = db.prepare.bind(db);
    db.prepare = ((source: string) => {
      const statement = prepare(source);
      if (source === "BEGIN IMMEDIATE") {
        const run = statement.run.bind(statement);
        statement.run = ((...args: unknown[]) => {
          tries += 1;
          return run(...args);
        }) as typeof statement.run;
      }
      return statement;
    }) as typeof db.prepare;
    other.exec("begin immediate");
    setTimeout(() => other.exec("rollback"), 150);
    const waiters = Array.from({ length: 500 }, () => waitForWriteLock(db, { limits: LIMITS }));
    const { value, longest } = await longestStall(Promise.all(waiters));
    expect(value.every(Boolean)).toBe(true);
    expect(longest).toBeLessThan(100);
    // One try each at once, then one per turn for all of them (~10 turns in 150 ms), not ~10 each.
    expect(tries).toBeGreaterThan(500);
    expect(tries).toBeLessThan(550);
  });

  it("stops when nobody waits for the answer any more", async () => {
    other.exec("begin immediate");
    let abandoned = false;
    setTimeout(() => (abandoned = true), 30);
    const started = performance.now();
    expect(await waitForWriteLock(db, { limits: LIMITS, abandoned: () => abandoned })).toBe(false);
    expect(performance.now() - started).toBeLessThan(LIMITS.maxMs);
  });
});
