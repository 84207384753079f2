import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { BaseSQLiteDatabase, SQLiteTransactionConfig } from "drizzle-orm/sqlite-core";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { rememberConnection } from "./connections";

/**
 * A database handle: what drizzle's own `drizzle(client)` returns. It carries no relational schema
 * (`db.query.*`): nothing uses drizzle's relational queries, and with one every open worked out drizzle's
 * view of the schema and every transaction built a query builder per table (docs/decisions/014-speed.md).
 */
export type DrizzleDb = BetterSQLite3Database & { $client: Database.Database };
export type PlatformDb = DrizzleDb;
export type TenantDb = DrizzleDb;
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

/** A transaction as drizzle hands it to `db.transaction`'s callback (a savepoint's is the same type). */
type Transaction = Parameters<Parameters<DrizzleDb["transaction"]>[0]>[0];

/**
 * drizzle over an open connection, through drizzle's own `drizzle(client)`: no logger, no relational schema.
 * Its transactions, and each transaction begun inside one, are recorded with their connection
 * (db/connections.ts), so that what is kept per connection (db/prepared.ts, db/content-cache.ts) is found
 * from a transaction at any depth rather than built again: drizzle has no public way back from a
 * transaction to its client.
 *
 * They also take the write lock when they begin (`BEGIN IMMEDIATE`, drizzle's `behavior: "immediate"`)
 * unless a caller asks otherwise: with a deferred BEGIN, a transaction that reads and then writes while
 * another process (a CLI script, a backup) holds the lock fails with SQLITE_BUSY at once, without waiting
 * for busy_timeout (or, in the server, for the wait on timers that comes before a request's writes:
 * db/write-lock.ts). A savepoint inside a transaction has no behavior of its own.
 */
function drizzleOver(sqlite: Database.Database): DrizzleDb {
  const db = drizzle(sqlite);
  const begin = db.transaction.bind(db);
  db.transaction = <T>(work: (tx: Transaction) => T, config?: SQLiteTransactionConfig): T =>
    begin(
      (tx) => {
        rememberTransaction(tx, sqlite);
        return work(tx);
      },
      { behavior: "immediate", ...config },
    );
  return db;
}

function rememberTransaction(tx: Transaction, client: Database.Database) {
  rememberConnection(tx, client);
  const nested = tx.transaction.bind(tx);
  tx.transaction = <T>(work: (inner: Transaction) => T, config?: SQLiteTransactionConfig): T =>
    nested((inner) => {
      rememberTransaction(inner, client);
      return work(inner);
    }, config);
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
function migrateIfNeeded(db: DrizzleDb, folder: MigrationFolder) {
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
): DrizzleDb {
  if (!create) checkDatabaseFile(file);
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { fileMustExist: !create, timeout: busyTimeoutMs });
    applyPragmas(sqlite, busyTimeoutMs);
    const db = drizzleOver(sqlite);
    if (!create && !hasMigrationsTable(sqlite)) {
      // Every database we create is migrated at once; one without the table is not one of ours, or has lost it.
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
