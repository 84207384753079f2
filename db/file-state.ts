import fs from "node:fs";

/**
 * How recent a file's last change may be for its state to be trusted (ms). File times come from the
 * kernel's coarse clock (one tick, 1–10 ms, behind the real one), and some file systems keep whole
 * seconds only, so a write made in the same tick or second as a look at the file can leave its time
 * unchanged; a file changed this recently is "racy", as git calls it, and is read through SQLite instead.
 */
export const RACY_MS = 2000;

function part(stat: fs.Stats | undefined) {
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : "-";
}

/**
 * A SQLite database's state as its files show it, without opening it: a string that differs after any
 * commit, by any process, made after it was taken (in WAL mode every commit writes the -wal file, a
 * checkpoint writes the database, and the -wal file is removed or made anew only by SQLite). Null when it
 * cannot be trusted: the database is missing or one of its files changed within the last `RACY_MS`.
 *
 * Take it BEFORE reading what it stands for: then "same state later" means "nothing committed since
 * that read" (docs/decisions/028-memory-and-the-pool.md).
 */
export function databaseFileState(file: string, now = Date.now()): string | null {
  let database: fs.Stats | undefined;
  let wal: fs.Stats | undefined;
  try {
    database = fs.statSync(file, { throwIfNoEntry: false });
    if (!database) return null;
    wal = fs.statSync(`${file}-wal`, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  // An empty -wal file holds no commit: SQLite makes one when a connection opens the database and removes
  // it when the last one closes, without touching the database file (measured); it counts as none, so a
  // database the pool opens and closes again keeps its state.
  if (wal && wal.size === 0) wal = undefined;
  const newest = Math.max(database.mtimeMs, database.ctimeMs, wal?.mtimeMs ?? 0, wal?.ctimeMs ?? 0);
  if (newest > now - RACY_MS) return null;
  return `${part(database)}|${part(wal)}`;
}
