import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/**
 * Checkpoints off the server's thread (docs/decisions/029-background-checkpoints.md).
 *
 * In WAL mode a commit appends pages to the database's `-wal` file; every thousand pages SQLite copies
 * them back into the database (a checkpoint) inside the commit that crossed the line, with an fsync of
 * the log before and of the database after. With synchronous=NORMAL those fsyncs are the only ones, and
 * on the server's single thread they stopped every request for their length: under the bench's
 * heartbeats a checkpoint every ~50 ms doubled the p95 and cost 6% of the throughput.
 *
 * The server's tenant handles therefore leave ordinary checkpoints to this class (their own threshold is
 * raised to `SAFETY_NET_PAGES`, so a log stays bounded even if the thread below is gone), and
 *  - each handle a request used is noted (`used`, a Set insert);
 *  - a timer looks, every `intervalMs`, at the size of those handles' `-wal` files (a stat, never an open:
 *    closing a descriptor of a database file would drop SQLite's locks on it);
 *  - a log past `thresholdPages` is handed to a worker thread (db/checkpoint-worker.cjs), started on first
 *    need, which runs `PRAGMA wal_checkpoint(PASSIVE)` on a connection of its own. The server's next write
 *    then starts the log over, and `journal_size_limit = 0` cuts the file back, so its size again says how
 *    much is waiting.
 * Durability is SQLite's own: the same checkpoint, with the same fsyncs, in another thread.
 */
export class Checkpointer {
  /** A handle's own checkpoint threshold while the checkpointer looks after it (16 MiB of log). */
  static readonly SAFETY_NET_PAGES = 4_000;

  readonly #used = new Set<Database.Database>();
  /** Files handed to the worker and not yet reported back. */
  readonly #pending = new Set<string>();
  readonly #timer: NodeJS.Timeout;
  #worker: Worker | null = null;
  #broken = false;
  /** Checkpoints done, and frames copied by them (for tests and the bench). */
  readonly done = { checkpoints: 0, frames: 0, errors: 0 };

  constructor(readonly options: { thresholdPages?: number; intervalMs?: number; onError?: (message: string, file?: string) => void } = {}) {
    this.#timer = setInterval(() => this.#look(), options.intervalMs ?? 100);
    this.#timer.unref();
  }

  /** A handle newly opened by the server: from now on its checkpoints are made here. */
  adopt(sqlite: Database.Database) {
    if (this.#broken) return;
    sqlite.pragma(`wal_autocheckpoint = ${Checkpointer.SAFETY_NET_PAGES}`);
    sqlite.pragma("journal_size_limit = 0");
  }

  /** A request used this handle: its log is looked at on the next round. */
  used(sqlite: Database.Database) {
    // Once the thread is gone nothing empties the set: noting handles then would keep closed ones alive.
    if (!this.#broken) this.#used.add(sqlite);
  }

  close() {
    clearInterval(this.#timer);
    this.#used.clear();
    void this.#worker?.terminate();
    this.#worker = null;
  }

  #look() {
    if (this.#used.size === 0 || this.#broken) return;
    const threshold = (this.options.thresholdPages ?? 1_000) * (4096 + 24);
    const used = [...this.#used];
    this.#used.clear();
    for (const sqlite of used) {
      const file = sqlite.name;
      if (!sqlite.open || this.#pending.has(file)) continue;
      // A timer's exception would end the server: a file that cannot be looked at (its folder removed
      // or made unreadable) or a thread that cannot start is reported, and the handle's own safety net
      // stays in place.
      try {
        const size = fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
        if (size < threshold) continue;
        this.#thread().postMessage(file);
        this.#pending.add(file);
      } catch (error) {
        this.done.errors += 1;
        this.options.onError?.(`checkpoint not started: ${(error as Error).message}`, file);
      }
      if (this.#broken) break;
    }
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./checkpoint-worker.cjs", import.meta.url), {
      workerData: { sqlitePath: createRequire(import.meta.url).resolve("better-sqlite3") },
      // It holds no data: a small heap keeps its cost in memory low.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    });
    worker.unref();
    worker.on(
      "message",
      ({ file, frames, error }: { file: string; frames: { log: number; checkpointed: number } | null; error: string | null }) => {
        this.#pending.delete(file);
        if (error) {
          this.done.errors += 1;
          this.options.onError?.(error, file);
          return;
        }
        this.done.checkpoints += 1;
        this.done.frames += frames?.checkpointed ?? 0;
      },
    );
    const fail = (message: string) => {
      // Handles keep their own (higher) threshold; new ones get SQLite's ordinary checkpoints again.
      if (this.#worker !== worker) return;
      this.#broken = true;
      this.#worker = null;
      this.#pending.clear();
      this.#used.clear();
      this.options.onError?.(message);
    };
    worker.on("error", (error) => fail(`checkpoint thread failed: ${error.message}`));
    worker.on("exit", (code) => fail(`checkpoint thread exited (${code})`));
    return (this.#worker = worker);
  }
}
