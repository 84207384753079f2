import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitSoon } from "../../db/group-commit";
import { WRITE_WAIT } from "../../db/write-lock";

let dir: string;
let db: Database.Database;
let observer: Database.Database;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-group-"));
  db = new Database(path.join(dir, "db.sqlite"));
  db.pragma("journal_mode = WAL");
  db.exec("create table beats (id integer primary key, n integer not null check (n >= 0))");
  observer = new Database(path.join(dir, "db.sqlite"));
});
afterEach(() => {
  db.close();
  observer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const insert = (n: number) => () => Number(db.prepare("insert into beats (n) values (?)").run(n).lastInsertRowid);
const rows = () => (observer.prepare("select n from beats order by id").all() as Array<{ n: number }>).map((r) => r.n);

describe("commitSoon", () => {
  it("commits the works queued in one turn together, in order, and answers each after the commit", async () => {
    // Another connection sees only what is committed: while the last work runs, the first two are not yet.
    let seenByOthers = -1;
    const last = () => {
      seenByOthers = rows().length;
      return insert(3)();
    };
    const results = await Promise.all([commitSoon(db, insert(1)), commitSoon(db, insert(2)), commitSoon(db, last)]);
    expect(seenByOthers).toBe(0);
    expect(results).toEqual([1, 2, 3]);
    expect(rows()).toEqual([1, 2, 3]);
  });

  it("refuses the whole batch, keeping nothing, when an error ends the transaction itself", async () => {
    db.exec("create trigger no_sevens before insert on beats when new.n = 7 begin select raise(rollback, 'no sevens'); end");
    const results = await Promise.allSettled([commitSoon(db, insert(1)), commitSoon(db, insert(7)), commitSoon(db, insert(3))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(rows()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    await expect(commitSoon(db, insert(4))).resolves.toBe(1);
  });

  it("rolls back only the work that fails, also inside its own transaction, and keeps the others", async () => {
    const failing = commitSoon(db, () => {
      insert(10)();
      insert(-1)(); // breaks the check constraint after a first insert
    });
    const nested = commitSoon(db, () =>
      db.transaction(() => {
        insert(20)();
        throw new Error("changed my mind");
      })(),
    );
    const fine = commitSoon(db, insert(30));
    await expect(failing).rejects.toThrow(/CHECK constraint/);
    await expect(nested).rejects.toThrow("changed my mind");
    await expect(fine).resolves.toBeGreaterThan(0);
    expect(rows()).toEqual([30]);
  });

  it("waits on a timer while another connection holds the write lock, then commits with the works queued meanwhile", async () => {
    db.pragma("busy_timeout = 0"); // as the server's handles: SQLite itself never waits
    observer.exec("begin immediate");
    const a = commitSoon(db, insert(1));
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      longestGap = Math.max(longestGap, performance.now() - last);
      last = performance.now();
    }, 5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = commitSoon(db, insert(2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.exec("rollback");
    await expect(Promise.all([a, b])).resolves.toEqual([1, 2]);
    clearInterval(ticker);
    expect(rows()).toEqual([1, 2]);
    expect(longestGap).toBeLessThan(100); // the event loop went on meanwhile
  });

  it("rejects every work of a batch whose lock does not come (SQLITE_BUSY), and keeps none of it", async () => {
    db.pragma("busy_timeout = 0");
    observer.exec("begin immediate");
    const started = Date.now();
    const a = commitSoon(db, insert(1));
    const b = commitSoon(db, insert(2));
    await expect(a).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    await expect(b).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    // Given up after WRITE_WAIT.maxMs (db/write-lock.ts), as long as SQLite's busy timeout was.
    expect(Date.now() - started).toBeGreaterThanOrEqual(WRITE_WAIT.maxMs);
    observer.exec("rollback");
    expect(rows()).toEqual([]);
    // The next turn's batch is a new one.
    await expect(commitSoon(db, insert(3))).resolves.toBe(1);
  }, 10_000);
});
