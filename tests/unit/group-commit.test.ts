import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitSoon } from "../../db/group-commit";

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

/** Another connection's data_version moves once per commit made elsewhere. */
const commitsSeen = () => observer.pragma("data_version", { simple: true }) as number;
const insert = (n: number) => () => Number(db.prepare("insert into beats (n) values (?)").run(n).lastInsertRowid);
const rows = () => (observer.prepare("select n from beats order by id").all() as Array<{ n: number }>).map((r) => r.n);

describe("commitSoon", () => {
  it("commits the works queued in one turn together, in order, and answers each after the commit", async () => {
    const before = commitsSeen();
    const results = await Promise.all([commitSoon(db, insert(1)), commitSoon(db, insert(2)), commitSoon(db, insert(3))]);
    expect(results).toEqual([1, 2, 3]);
    expect(rows()).toEqual([1, 2, 3]);
    expect(commitsSeen()).toBe(before + 1);
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

  it("rejects every work of a batch that cannot commit, and keeps none of it", async () => {
    db.pragma("busy_timeout = 0");
    observer.exec("begin immediate");
    const a = commitSoon(db, insert(1));
    const b = commitSoon(db, insert(2));
    await expect(a).rejects.toThrow(/locked|busy/i);
    await expect(b).rejects.toThrow(/locked|busy/i);
    observer.exec("rollback");
    expect(rows()).toEqual([]);
    // The next turn's batch is a new one.
    await expect(commitSoon(db, insert(3))).resolves.toBe(1);
  });
});
