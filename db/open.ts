import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { BetterSQLite3Database, BetterSQLiteSession } from "drizzle-orm/better-sqlite3";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { rememberConnection } from "./connections";

/** drizzle 0.45's type has no `$client`; we add it (docs/decisions/001-stack-and-layout.md, trap 7). */
export type DrizzleDb<S extends Record<string, unknown>> = BetterSQLite3Database<S> & {
  $client: Database.Database;
};
/**
 * The handles carry no relational schema (`db.query.*`): nothing uses drizzle's relational queries, and
 * each transaction would otherwise build one query builder per table (docs/decisions/014-speed.md).
 */
export type PlatformDb = DrizzleDb<Record<string, never>>;
export type TenantDb = DrizzleDb<Record<string, never>>;
/** What model functions take: an open tenant database or a transaction on one. */
export type TenantConn = BaseSQLiteDatabase<"sync", Database.RunResult, Record<string, never>>;
export type PlatformConn = BaseSQLiteDatabase<"sync", Database.RunResult, Record<string, never>>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const MIGRATIONS = {
  platform: path.join(root, "migrations", "platform"),
  tenant: path.join(root, "migrations", "tenant"),
};

/** A tenant's database cannot be used: missing, not a SQLite file, truncated or corrupt. */
export class DatabaseUnavailableError extends Error {
  constructor(
    message: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

/** Each open handle's page cache is bounded to this (SQLite `cache_size`); the tenant pool is sized by it. */
export const HANDLE_CACHE_KIB = 2048;

/**
 * How long a write waits, inside SQLite, for a lock another process holds: scripts wait; the server's
 * tenant handles pass 0 and wait on timers instead (db/write-lock.ts, docs/decisions/033-tenant-write-locks.md).
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  busyTimeoutMs?: number;
}

/**
 * Durability settings (docs/decisions/003-sqlite-durability.md): WAL with synchronous=NORMAL survives any
 * process crash; a power loss may lose the last commits but never corrupts the file.
 */
function applyPragmas(sqlite: Database.Database, busyTimeoutMs: number) {
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("wal_autocheckpoint = 1000");
  // A bounded page cache per handle (the pool's size is worked out from it: db/tenant-pool.ts).
  sqlite.pragma(`cache_size = -${HANDLE_CACHE_KIB}`);
}

/** How many prepared statements each handle keeps (an LRU keyed by SQL text). */
export const STATEMENT_CACHE_SIZE = 100;

/** `LIMIT ?` (or a named parameter) where it ends a select: what `planOnce` rewrites. */
const BOUND_LIMIT = /\blimit\s+(\?\d*|[:@$][a-z_]\w*)(?=\s*(?:$|[);]|offset\b))/gi;

/**
 * A statement's SQL with each LIMIT given as a bound parameter written `? + 0`. SQLite reads a bound LIMIT
 * when it plans a statement (sqlite3ExprIsInteger, since 3.47) and so marks the statement to be planned
 * again whenever that parameter is bound, which better-sqlite3 does on every call: drizzle writes every
 * `.limit(n)` as `limit ?`, and a one-row read by index cost 25–60 µs instead of 3–5, the time to parse
 * and plan it again (docs/decisions/040-bound-limits.md). `? + 0` is an expression, not a parameter: the
 * statement is planned once, as SQLite plans it before any value is bound, and the limit is read when it
 * runs. The parameters and their order are unchanged, and so is every result for the numbers we bind.
 */
export function planOnce(source: string) {
  return source.replace(BOUND_LIMIT, "limit $1 + 0");
}

/**
 * Statements are prepared once per database handle and reused: drizzle (and better-sqlite3) would
 * otherwise parse and plan the same SQL again on every call, which was a large part of a small query's
 * cost (and SQLite itself would plan one with a bound LIMIT again on every call: `planOnce`). A statement
 * handed out again is put back in its default mode (drizzle switches reads to raw rows); one still being
 * iterated is never shared — the caller then gets a fresh one.
 */
function cacheStatements(sqlite: Database.Database, size = STATEMENT_CACHE_SIZE) {
  const prepare = sqlite.prepare.bind(sqlite) as (source: string) => Database.Statement;
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const hit = cache.get(source);
    if (hit && !hit.busy) {
      cache.delete(source); // most recently used goes last
      cache.set(source, hit);
      if (hit.reader) {
        hit.raw(false);
        hit.pluck(false);
        hit.expand(false);
      }
      return hit;
    }
    const statement = prepare(planOnce(source));
    if (!hit) {
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");

/**
 * Cheap structural check of a database file before SQLite sees it. SQLite treats an empty file as a new,
 * empty database, so without this a truncated tenant file would be "repaired" into an empty organization.
 */
export function checkDatabaseFile(file: string) {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw new DatabaseUnavailableError("database file is missing", file, { cause: error });
  }
  if (!stat.isFile() || stat.size < 512) {
    throw new DatabaseUnavailableError("database file is empty or truncated", file);
  }
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, header, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!header.subarray(0, 16).equals(SQLITE_MAGIC)) {
    throw new DatabaseUnavailableError("file is not a SQLite database", file);
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const changeCounter = header.readUInt32BE(24);
  const pageCount = header.readUInt32BE(28);
  const versionValidFor = header.readUInt32BE(92);
  // The in-header size is trustworthy only when it was written by the same change (SQLite file format §1.3.7).
  if (pageCount > 0 && changeCounter === versionValidFor && stat.size < pageCount * pageSize) {
    throw new DatabaseUnavailableError("database file is truncated", file);
  }
}

/**
 * Transactions take the write lock when they begin (`BEGIN IMMEDIATE`), not at their first write: with
 * a deferred BEGIN, a transaction that reads and then writes while another process (a CLI script, a
 * backup) holds the lock fails with SQLITE_BUSY at once, without waiting for busy_timeout (or, in the
 * server, for the wait on timers that comes before a request's writes: db/write-lock.ts).
 */
function writeTransactionsImmediately(db: DrizzleDb<Record<string, never>>) {
  const begin = db.transaction.bind(db);
  db.transaction = ((work: Parameters<typeof begin>[0], config?: Parameters<typeof begin>[1]) =>
    begin(
      (tx) => {
        rememberTransaction(tx, db.$client);
        return work(tx);
      },
      { behavior: "immediate", ...config },
    )) as typeof db.transaction;
}

/**
 * Records a transaction's connection (db/connections.ts), and that of every transaction begun inside it (a
 * savepoint: a model's `db.transaction` when its caller already holds one, as group commit's works do), so
 * that what is kept per connection (db/prepared.ts) is found from any depth rather than built again.
 */
type Transaction = Parameters<Parameters<DrizzleDb<Record<string, never>>["transaction"]>[0]>[0];

function rememberTransaction(tx: Transaction, client: Database.Database) {
  rememberConnection(tx, client);
  const nested = tx.transaction.bind(tx);
  tx.transaction = ((work: (inner: Transaction) => unknown, config?: Parameters<typeof nested>[1]) =>
    nested((inner) => {
      rememberTransaction(inner, client);
      return work(inner);
    }, config)) as typeof tx.transaction;
}

/**
 * What `drizzle(sqlite)` builds (drizzle-orm/better-sqlite3/driver.js): no logger, no relational schema
 * (nothing here uses `db.query.*`). With the schema, every open worked out drizzle's relational view of
 * it (a sixth of opening a tenant database) and every transaction built a query builder per table.
 */
function drizzleOver(sqlite: Database.Database): DrizzleDb<Record<string, never>> {
  const dialect = new SQLiteSyncDialect();
  const session = new BetterSQLiteSession(sqlite, dialect, undefined, {});
  const db = new BetterSQLite3Database("sync", dialect, session as never, undefined) as DrizzleDb<Record<string, never>>;
  db.$client = sqlite;
  rememberConnection(db, sqlite);
  return db;
}

type MigrationFolder = keyof typeof MIGRATIONS;
const migrationFiles = new Map<MigrationFolder, ReturnType<typeof readMigrationFiles>>();

/** A folder's migrations, oldest first, read once per process. */
function migrationsOf(folder: MigrationFolder) {
  let migrations = migrationFiles.get(folder);
  if (!migrations) {
    migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS[folder] });
    migrationFiles.set(folder, migrations);
  }
  return migrations;
}

/** The `folderMillis` of the newest migration in a folder. */
function newestMigrationMillis(folder: MigrationFolder) {
  return migrationsOf(folder).reduce((max, m) => Math.max(max, m.folderMillis), 0);
}

function hasMigrationsTable(sqlite: Database.Database) {
  return Boolean(sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get());
}

function lastAppliedMillis(sqlite: Database.Database) {
  const row = sqlite.prepare("select max(created_at) as last from __drizzle_migrations").get() as { last: number | null };
  return Number(row.last ?? 0);
}

/** Applies pending migrations; a database that holds the newest one costs one query. */
function migrateIfNeeded(db: DrizzleDb<Record<string, never>>, folder: MigrationFolder) {
  const sqlite = db.$client;
  if (hasMigrationsTable(sqlite) && lastAppliedMillis(sqlite) >= newestMigrationMillis(folder)) return;
  applyMigrations(sqlite, folder);
}

/**
 * drizzle's migrator, made safe for several processes: it reads what is applied only once it holds the
 * write lock (BEGIN IMMEDIATE), so the server and `npm run db:migrate` opening the same file never apply a
 * migration twice; and every pending migration goes in that one transaction, so a failing one leaves the
 * database exactly as it was (the organization then fails closed with 503 until it is fixed).
 * The bookkeeping table is drizzle's own, so `drizzle-kit` and earlier databases agree with it.
 */
function applyMigrations(sqlite: Database.Database, folder: MigrationFolder) {
  sqlite
    .transaction(() => {
      sqlite.exec(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
      const last = lastAppliedMillis(sqlite);
      const record = sqlite.prepare(`INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)`);
      for (const migration of migrationsOf(folder)) {
        if (migration.folderMillis <= last) continue;
        for (const statement of migration.sql) if (statement.trim()) sqlite.exec(statement);
        record.run(migration.hash, migration.folderMillis);
      }
    })
    .immediate();
}

/** Whether a database holds every migration of its folder (for /readyz). */
export function migrationsApplied(sqlite: Database.Database, folder: MigrationFolder) {
  return hasMigrationsTable(sqlite) && lastAppliedMillis(sqlite) >= newestMigrationMillis(folder);
}

function openWith(
  file: string,
  folder: MigrationFolder,
  { create, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS }: { create: boolean } & OpenOptions,
): DrizzleDb<Record<string, never>> {
  if (!create) checkDatabaseFile(file);
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { fileMustExist: !create, timeout: busyTimeoutMs });
    cacheStatements(sqlite);
    applyPragmas(sqlite, busyTimeoutMs);
    const db = drizzleOver(sqlite);
    writeTransactionsImmediately(db);
    if (!create && !hasMigrationsTable(sqlite)) {
      // Every database we create is migrated at once; one without the table was never ours or lost it.
      throw new DatabaseUnavailableError("database has no migration history", file);
    }
    migrateIfNeeded(db, folder);
    return db;
  } catch (error) {
    sqlite?.close();
    if (error instanceof DatabaseUnavailableError) throw error;
    throw new DatabaseUnavailableError(`cannot open database: ${(error as Error).message}`, file, {
      cause: error,
    });
  }
}

/** The platform registry; created and migrated when missing (a fresh install). */
export function openPlatformDatabase(dataDir: string): PlatformDb {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "platform.sqlite");
  return openWith(file, "platform", { create: !fs.existsSync(file) });
}

/** An existing tenant database. Never creates one: a missing file is an error (fail closed). */
export function openTenantDatabase(file: string, options: OpenOptions = {}): TenantDb {
  return openWith(file, "tenant", { create: false, ...options });
}

/**
 * Creates a new tenant database, fully migrated. It is built under a temporary name and renamed into
 * place, so a crash half-way never leaves a half-made database where the organization expects one.
 */
export function createTenantDatabase(file: string) {
  if (fs.existsSync(file)) throw new Error(`tenant database already exists: ${file}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.creating-${process.pid}`;
  fs.rmSync(temporary, { force: true });
  const db = openWith(temporary, "tenant", { create: true });
  db.$client.pragma("journal_mode = DELETE"); // fold the WAL back in before the rename
  db.$client.close();
  fs.renameSync(temporary, file);
}

/**
 * SQLite errors that mean the file itself is damaged, rather than the query being wrong or the disk
 * being busy or full for a moment (SQLITE_IOERR and SQLITE_FULL are transient and not counted).
 */
export function isCorruptionError(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB"));
}
