import type Database from "better-sqlite3";

/**
 * Waiting for a tenant file's write lock without stopping the server (docs/decisions/033-tenant-write-locks.md).
 *
 * SQLite lets one connection write at a time; another process (a migration, `npm run seed`, a script, an
 * operator's `sqlite3` shell) may hold the lock for seconds. With a busy timeout SQLite waits by sleeping
 * inside the call, which on the server's one thread stops every organization. The server's tenant handles
 * therefore have no busy timeout at all (`SERVER_BUSY_TIMEOUT_MS`): a write that meets the lock fails at
 * once with SQLITE_BUSY, and whoever wants to write waits here, on timers:
 *  - `tryWriteLock` takes the lock and gives it back at once (`BEGIN IMMEDIATE; ROLLBACK`, ~15 µs);
 *  - `WriteLockWait` says how long to sleep before the next try (a short back-off), and gives up after
 *    `maxMs`: as long as SQLite's busy timeout was (docs/security.md: a second writer waits ≥ 5 s), but now
 *    without holding up anyone else.
 * Scripts keep SQLite's own busy timeout: they are not serving anyone while they wait.
 */

/** The busy timeout of the server's tenant handles: none, SQLite never sleeps on the event loop. */
export const SERVER_BUSY_TIMEOUT_MS = 0;

export interface WriteWaitLimits {
  /** Give up after this long. */
  maxMs: number;
  /** The first sleep between tries; each next one is twice as long, up to `maxPollMs`. */
  firstPollMs: number;
  maxPollMs: number;
}

export const WRITE_WAIT: Readonly<WriteWaitLimits> = { maxMs: 5_000, firstPollMs: 5, maxPollMs: 100 };

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT). */
export function isBusyError(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

const probes = new WeakMap<Database.Database, { begin: Database.Statement; rollback: Database.Statement }>();

/**
 * Whether the write lock can be had right now: it is taken and given back at once. Inside a transaction
 * of this connection it is already held. Errors other than SQLITE_BUSY are thrown.
 */
export function tryWriteLock(sqlite: Database.Database) {
  if (sqlite.inTransaction) return true;
  let probe = probes.get(sqlite);
  if (!probe) probes.set(sqlite, (probe = { begin: sqlite.prepare("BEGIN IMMEDIATE"), rollback: sqlite.prepare("ROLLBACK") }));
  try {
    probe.begin.run();
  } catch (error) {
    if (isBusyError(error)) return false;
    throw error;
  }
  probe.rollback.run();
  return true;
}

/** One wait for a write lock: how long to sleep next, and whether to go on waiting. */
export class WriteLockWait {
  readonly startedAt = Date.now();
  #poll: number;

  constructor(readonly limits: Readonly<WriteWaitLimits> = WRITE_WAIT) {
    this.#poll = limits.firstPollMs;
  }

  /** The sleep before the next try. */
  nextDelay() {
    const delay = this.#poll;
    this.#poll = Math.min(this.#poll * 2, this.limits.maxPollMs);
    return delay;
  }

  /** After a failed try: false once `maxMs` have passed. */
  keepWaiting(now = Date.now()) {
    return now - this.startedAt < this.limits.maxMs;
  }
}

/**
 * The next `attempt` for `key`, made after `delay` and shared by everyone waiting on that key: a thousand
 * requests waiting for one locked file make one try per turn, not a thousand. It rejects with what the
 * attempt threw.
 */
export function sharedAttempt<K extends object | number, T>(
  pending: { get(key: K): Promise<T> | undefined; set(key: K, value: Promise<T>): unknown; delete(key: K): unknown },
  key: K,
  delay: number,
  attempt: () => T,
): Promise<T> {
  let next = pending.get(key);
  if (!next) {
    next = new Promise<T>((resolve, reject) => {
      setTimeout(() => {
        pending.delete(key);
        try {
          resolve(attempt());
        } catch (error) {
          reject(error);
        }
      }, delay);
    });
    pending.set(key, next);
  }
  return next;
}

/** The next try of each connection's lock (a failed try costs ~13 µs). */
const nextTries = new WeakMap<Database.Database, Promise<boolean>>();

/**
 * Resolves true as soon as the connection's write lock could be taken (not kept: the caller's own
 * synchronous writes follow), false when the wait gives up, or when `abandoned()` says nobody waits for
 * the answer any more. The first try is made at once: a free lock waits for no timer.
 */
export async function waitForWriteLock(
  sqlite: Database.Database,
  { limits = WRITE_WAIT, abandoned = () => false }: { limits?: Readonly<WriteWaitLimits>; abandoned?: () => boolean } = {},
): Promise<boolean> {
  if (tryWriteLock(sqlite)) return true;
  const wait = new WriteLockWait(limits);
  for (;;) {
    const free = await sharedAttempt(nextTries, sqlite, wait.nextDelay(), () => sqlite.open && tryWriteLock(sqlite));
    if (abandoned() || !sqlite.open) return false;
    if (free) return true;
    if (!wait.keepWaiting()) return false;
  }
}
