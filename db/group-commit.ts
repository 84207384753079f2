import type Database from "better-sqlite3";
import { isBusyError, WriteLockWait } from "./write-lock";

/**
 * Group commit for frequent small writes (player heartbeats; docs/decisions/014-speed.md, "SQLite").
 *
 * Each commit in WAL mode costs a write lock, a write to the log and, every thousand pages, a checkpoint:
 * for a heartbeat that was about half of the work. `commitSoon(sqlite, work)` runs `work` a moment later,
 * together with every other work queued on the same connection in this turn of the event loop, inside one
 * `BEGIN IMMEDIATE … COMMIT`. Nothing changes for the caller but the wait:
 *  - a work that opens its own transaction (drizzle's or better-sqlite3's) gets a SAVEPOINT inside the
 *    batch, so it is still all-or-nothing: if it throws, its own changes are rolled back, the caller's
 *    promise rejects with its error, and the other works of the batch go on;
 *  - the promise resolves only after the COMMIT, so a reply sent then is as durable as before; if BEGIN or
 *    COMMIT fails (a busy or full disk), or an error ends the whole transaction, every work of the batch
 *    rejects and nothing of it is kept;
 *  - a work runs on the connection it was queued for; if that connection was closed meanwhile (the tenant
 *    pool retires a handle whose last lease ended, e.g. the client left), the batch is refused unwritten.
 *  - works run in the order they were queued, one after another, each seeing the ones before it;
 *  - if another process holds the file's write lock (BEGIN fails with SQLITE_BUSY; the server's handles
 *    have no busy timeout), nothing has run: the batch waits on a timer and tries again, with the works
 *    queued meanwhile, as db/write-lock.ts says (a short back-off, given up after a few seconds); then
 *    every work of it rejects with SQLITE_BUSY, which the server answers with a 503.
 * A work must be synchronous (it runs inside the transaction) and must not itself call `commitSoon`. As
 * every work gets a savepoint of its own, a work need not open a transaction to stay all-or-nothing
 * (`writeHeartbeat` does not: a nested wrapper made on every call was a tenth of a heartbeat's writes).
 */
interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const queues = new WeakMap<Database.Database, Queued[]>();
/** Connections whose batch waits for another process's write lock: their next flush is on a timer. */
const waits = new WeakMap<Database.Database, WriteLockWait>();

export function commitSoon<T>(sqlite: Database.Database, work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(sqlite);
    if (!queue) {
      queue = [];
      queues.set(sqlite, queue);
      setImmediate(() => flush(sqlite));
    }
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
}

/** A batch's statements, prepared once per connection: better-sqlite3's wrappers, made per call, cost more. */
interface BatchStatements {
  begin: Database.Statement;
  commit: Database.Statement;
  rollback: Database.Statement;
  savepoint: Database.Statement;
  release: Database.Statement;
  rollbackTo: Database.Statement;
}

const statements = new WeakMap<Database.Database, BatchStatements>();

function statementsOf(sqlite: Database.Database): BatchStatements {
  let kept = statements.get(sqlite);
  if (!kept) {
    kept = {
      begin: sqlite.prepare("BEGIN IMMEDIATE"),
      commit: sqlite.prepare("COMMIT"),
      rollback: sqlite.prepare("ROLLBACK"),
      savepoint: sqlite.prepare('SAVEPOINT "lectern.batch"'),
      release: sqlite.prepare('RELEASE "lectern.batch"'),
      rollbackTo: sqlite.prepare('ROLLBACK TO "lectern.batch"'),
    };
    statements.set(sqlite, kept);
  }
  return kept;
}

function flush(sqlite: Database.Database) {
  const queue = queues.get(sqlite) ?? [];
  queues.delete(sqlite);
  const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
  try {
    if (!sqlite.open) throw new TypeError("The database connection is not open");
    // What `sqlite.transaction(…).immediate()` with a nested `sqlite.transaction(work)` per work did,
    // on statements prepared once.
    const s = statementsOf(sqlite);
    try {
      s.begin.run();
    } catch (error) {
      if (isBusyError(error) && waitForLock(sqlite, queue)) return;
      throw error;
    }
    waits.delete(sqlite);
    try {
      for (const { work } of queue) {
        s.savepoint.run();
        try {
          const value = work();
          if (value instanceof Promise) throw new TypeError("A batched work must be synchronous");
          s.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          // Some errors (a full disk, an I/O error, RAISE(ROLLBACK)) end the whole transaction, not just
          // the savepoint: then nothing of the batch is kept, and every work of it is refused.
          if (!sqlite.inTransaction) throw error;
          s.rollbackTo.run();
          s.release.run();
          outcomes.push({ ok: false, error });
        }
      }
      s.commit.run();
    } catch (error) {
      if (sqlite.inTransaction) s.rollback.run();
      throw error;
    }
  } catch (error) {
    waits.delete(sqlite);
    for (const { reject } of queue) reject(error);
    return;
  }
  queue.forEach(({ resolve, reject }, i) => {
    const outcome = outcomes[i];
    if (outcome.ok) resolve(outcome.value);
    else reject(outcome.error);
  });
}

/**
 * Another process holds the write lock and nothing of the batch has run: keeps the batch queued (works
 * queued meanwhile join it; commitSoon schedules no flush of its own while a queue exists) and flushes
 * again after a short sleep. False once the wait gives up.
 */
function waitForLock(sqlite: Database.Database, queue: Queued[]) {
  let wait = waits.get(sqlite);
  if (!wait) waits.set(sqlite, (wait = new WriteLockWait()));
  else if (!wait.keepWaiting()) return false;
  queues.set(sqlite, queue);
  setTimeout(() => flush(sqlite), wait.nextDelay());
  return true;
}
