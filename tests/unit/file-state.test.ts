import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { databaseFileState, RACY_MS } from "../../db/file-state";
import { tempDir } from "../helpers/temp";

/**
 * A database's state read from its files (db/file-state.ts): visitors' kept pages are served without
 * opening the database while it is unchanged, so it must change with every commit, by any connection.
 */
function makeDatabase() {
  const file = path.join(tempDir(), "db.sqlite");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec("create table t (x integer); insert into t values (1)");
  db.close(); // folds the WAL in and removes it
  return file;
}
/** A moment late enough that nothing written so far is "racy". */
const later = () => Date.now() + RACY_MS + 1000;
/**
 * Lets the kernel's coarse file clock move on (one tick is at most 10 ms): what `later()` pretends is a
 * second, so that every write below lands after the state taken before it, as it would in real use.
 */
const tick = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);

describe("a database's file state", () => {
  it("is unknown for a missing database", () => {
    expect(databaseFileState(path.join(tempDir(), "none.sqlite"), later())).toBeNull();
  });

  it("is not trusted while a file changed within the racy window", () => {
    const file = makeDatabase();
    expect(databaseFileState(file, Date.now())).toBeNull();
    expect(databaseFileState(file, later())).not.toBeNull();
  });

  it("stays the same while connections only open, read and close", () => {
    const file = makeDatabase();
    const before = databaseFileState(file, later());
    const reader = new Database(file);
    expect(reader.prepare("select count(*) from t").pluck().get()).toBe(1);
    // SQLite made an empty -wal file on opening: it holds no commit and counts as none.
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
    expect(databaseFileState(file, later())).toBe(before);
    reader.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(databaseFileState(file, later())).toBe(before);
  });

  it("changes with every commit, by any connection, and with a checkpoint", () => {
    const file = makeDatabase();
    const held = new Database(file); // keeps the WAL from being folded in on close
    held.pragma("journal_mode = WAL");
    const states = [databaseFileState(file, later())];
    const writer = new Database(file);
    const steps = [
      () => writer.prepare("insert into t values (2)").run(),
      () => writer.prepare("update t set x = x + 1").run(),
      () => writer.pragma("wal_checkpoint(TRUNCATE)"),
      () => writer.prepare("delete from t where x = 3").run(), // the WAL was emptied: written from its start again
      () => writer.prepare("update t set x = 5").run(), // the same size of WAL again
      () => {
        writer.close();
        held.close(); // the last connection folds the WAL into the database
      },
    ];
    for (const step of steps) {
      tick();
      step();
      states.push(databaseFileState(file, later()));
    }
    expect(states.every((s) => s !== null)).toBe(true);
    expect(new Set(states).size).toBe(states.length);
  });

  it("changes when the file is replaced (a restore)", () => {
    const file = makeDatabase();
    const before = databaseFileState(file, later());
    const copy = `${file}.restored`;
    fs.copyFileSync(file, copy);
    fs.renameSync(copy, file);
    expect(databaseFileState(file, later())).not.toBe(before);
  });
});
