import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Checkpointer } from "../../db/checkpointer";

let dir: string;
let file: string;
let db: Database.Database;
let checkpointer: Checkpointer;
const errors: string[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-checkpoint-"));
  file = path.join(dir, "db.sqlite");
  db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("create table pages (id integer primary key, body blob not null)");
  errors.length = 0;
  checkpointer = new Checkpointer({ thresholdPages: 20, intervalMs: 10, onError: (error) => errors.push(error) });
  checkpointer.adopt(db);
});
afterEach(() => {
  checkpointer.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const walBytes = () => fs.statSync(`${file}-wal`).size;
const write = (pages: number) => {
  const insert = db.prepare("insert into pages (body) values (?)");
  // One commit per page-sized row, as a server's many small commits.
  for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(4000, i));
  checkpointer.used(db);
};
const until = async (check: () => boolean, what: string) => {
  for (let waited = 0; waited < 5000; waited += 10) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe("Checkpointer", () => {
  it("takes a handle's checkpoints off its thread: the handle's own threshold is raised and its log is cut back", () => {
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(Checkpointer.SAFETY_NET_PAGES);
    expect(db.pragma("journal_size_limit", { simple: true })).toBe(0);
  });

  it("checkpoints a log past the threshold in its thread, after which the next write starts the log over", async () => {
    write(200);
    const before = walBytes();
    expect(before).toBeGreaterThan(200 * 4096);
    await until(() => checkpointer.done.checkpoints === 1, "a checkpoint");
    expect(checkpointer.done.frames).toBeGreaterThan(200);
    expect(errors).toEqual([]);
    // Everything is in the database file now: the next commit starts the log over and cuts it back.
    write(1);
    expect(walBytes()).toBeLessThan(before / 10);
    // Nothing was lost on the way, and another connection reads the same rows.
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare("select count(*) as n from pages").get()).toEqual({ n: 201 });
    expect(reader.pragma("integrity_check", { simple: true })).toBe("ok");
    reader.close();
  });

  it("leaves a small log alone, and a handle nobody used", async () => {
    write(5);
    db.prepare("insert into pages (body) values (?)").run(Buffer.alloc(4000)); // used, but not reported
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(checkpointer.done.checkpoints).toBe(0);
    for (let i = 0; i < 100; i++) db.prepare("insert into pages (body) values (?)").run(Buffer.alloc(4000));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(checkpointer.done.checkpoints).toBe(0);
  });

  it("skips a handle closed before it was looked at, and reports a database that is gone", async () => {
    write(200);
    db.close(); // the last connection: SQLite checkpoints and removes the log itself
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(checkpointer.done).toEqual({ checkpoints: 0, frames: 0, errors: 0 });
    db = new Database(file);
    checkpointer.adopt(db);
    write(200);
    fs.renameSync(file, `${file}.moved`);
    await until(() => checkpointer.done.errors === 1, "the error");
    expect(errors[0]).toMatch(/unable to open|no such file|does not exist/i);
    fs.renameSync(`${file}.moved`, file);
  });

  it("reports a log it cannot look at without stopping the server, and goes on with the others", async () => {
    // A name whose folder is a file: stat fails with ENOTDIR (not "no such file"), as it would if an
    // organization's folder were replaced while its handle was open.
    const strange = { name: path.join(file, "inside.sqlite"), open: true } as unknown as Database.Database;
    checkpointer.used(strange);
    write(200);
    await until(() => checkpointer.done.checkpoints === 1, "the other handle's checkpoint");
    expect(checkpointer.done.errors).toBe(1);
    expect(errors[0]).toMatch(/checkpoint not started: ENOTDIR/);
  });
});
