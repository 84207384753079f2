// `DATA_DIR=<dir> HOST=<host> EMAILS=a@x,b@x node --import tsx scripts/learner-page-reads.ts`: every SQL
// statement a signed-in learner's home, course and leaderboard pages run (the viewer, the root loader and the page's
// loader from the server build, called in this process as the server calls them), with the tables each
// reads and SQLite's plan for it, as JSON on stdout. The pages kept by server/learner-page-cache.ts are kept
// only while the triggers of migrations 0031 and 0032 say nothing they read has changed; the test
// tests/integration/learner-page-cache.test.ts checks every table listed here against those triggers.
// `npm run build` first.
import crypto from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import Database from "better-sqlite3";
import { readConfig } from "../server/config";
import { Platform } from "../server/platform";
import { callPageLoaders } from "./bench/loader-floor";

/** The board in each period (app/models/leaderboard.server.ts PERIODS), and each course's board. */
const LEADERBOARD = ["/leaderboard", "/leaderboard?period=week", "/leaderboard?period=month"];

interface Read {
  sql: string;
  /** The values bound to each run of it. */
  params: unknown[][];
  tables: string[];
  /** The columns it reads of each table (from `EXPLAIN`: a `Column` of a table's or an index's cursor). */
  columns: Record<string, string[]>;
  /** `EXPLAIN QUERY PLAN` lines, each with the table it reads when SQLite names one. */
  plan: Array<{ detail: string; table: string | null }>;
}

const dataDir = process.env.DATA_DIR;
const host = process.env.HOST;
const emails = (process.env.EMAILS ?? "").split(",").filter(Boolean);
if (!dataDir || !host || emails.length === 0) {
  console.error("usage: DATA_DIR=<dir> HOST=<host> EMAILS=<e-mail,…> node --import tsx scripts/learner-page-reads.ts");
  process.exit(2);
}

// Every statement run, by its SQL, with the values bound each time: better-sqlite3's statements share one prototype.
const ran = new Map<string, unknown[][]>();
let recording = false;
const statementPrototype = Object.getPrototypeOf(new Database(":memory:").prepare("select 1")) as Record<string, unknown>;
for (const method of ["all", "get", "iterate", "run"]) {
  const original = statementPrototype[method] as (...args: unknown[]) => unknown;
  statementPrototype[method] = function (this: { source: string }, ...args: unknown[]) {
    if (recording) {
      const values = args.flatMap((a) => (a !== null && typeof a === "object" && !Array.isArray(a) ? Object.values(a) : a));
      ran.set(this.source, [...(ran.get(this.source) ?? []), values]);
    }
    return original.apply(this, args);
  };
}

/** Runs a statement's EXPLAIN with NULL for each named parameter, or as many NULL parameters as it takes. */
function explain(db: Database.Database, prefix: string, sql: string) {
  const statement = db.prepare(`${prefix} ${sql}`);
  const named = [...sql.matchAll(/[:@$](\w+)/g)].map((m) => m[1]);
  if (named.length) return statement.all(Object.fromEntries(named.map((name) => [name, null]))) as Array<Record<string, unknown>>;
  for (let count = 0; count <= 200; count++) {
    try {
      return statement.all(...Array(count).fill(null)) as Array<Record<string, unknown>>;
    } catch (error) {
      if (!/parameter/i.test(String(error))) throw error;
    }
  }
  throw new Error(`could not explain ${sql}`);
}

const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
const { organization } = platform.organizations.resolve(host);
if (!organization) throw new Error(`no organization at ${host}`);
const build = (await import(pathToFileURL(path.resolve(import.meta.dirname, "../build/index.js")).href)) as ServerBuild;

const results: Array<{ email: string; userId: number; path: string; status: number; reads: Read[] }> = [];
try {
  await platform.tenants.withTenant(organization.id, async (db) => {
    const raw = db.$client;
    const tableOfRoot = new Map(
      (
        raw.prepare("select rootpage, tbl_name from sqlite_schema where rootpage > 0").all() as Array<{
          rootpage: number;
          tbl_name: string;
        }>
      ).map((r) => [r.rootpage, r.tbl_name]),
    );
    const tableOfIndex = new Map(
      (raw.prepare("select name, tbl_name from sqlite_schema where type = 'index'").all() as Array<{ name: string; tbl_name: string }>).map(
        (r) => [r.name, r.tbl_name],
      ),
    );
    const tableNames = new Set(raw.prepare("select name from sqlite_schema where type = 'table'").pluck().all() as string[]);
    // What a column number of each b-tree is: a table's columns in order, or an index's (then the row id).
    const columnsOfRoot = new Map<number, string[]>();
    const indexRoots = new Set<number>();
    for (const { rootpage, type, name } of raw
      .prepare("select rootpage, type, name from sqlite_schema where rootpage > 0 and type in ('table', 'index')")
      .all() as Array<{ rootpage: number; type: string; name: string }>) {
      const info = raw.pragma(`${type === "table" ? "table_info" : "index_info"}(${JSON.stringify(name)})`) as Array<{
        name: string | null;
      }>;
      columnsOfRoot.set(rootpage, [...info.map((c) => c.name ?? "rowid"), ...(type === "index" ? ["rowid"] : [])]);
      if (type === "index") indexRoots.add(rootpage);
    }
    const courseIds = raw.prepare("select id from courses order by id").pluck().all() as number[];
    const now = Math.floor(Date.now() / 1000);
    for (const email of emails) {
      const userId = raw.prepare("select id from users where email = ?").pluck().get(email) as number | undefined;
      if (!userId) throw new Error(`no user ${email}`);
      const token = crypto.randomBytes(32).toString("base64url");
      raw
        .prepare(
          "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, 'web', 'reads', '127.0.0.1', ?, ?, ?, 0, ?)",
        )
        .run(crypto.createHash("sha256").update(token).digest("hex"), now, now, now + 3600, userId);
      const cookie = `lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`;
      for (const pagePath of [
        "/",
        ...courseIds.map((id) => `/courses/${id}`),
        ...LEADERBOARD,
        ...courseIds.map((id) => `/leaderboard?course=${id}`),
      ]) {
        const request = new Request(`http://${host}${pagePath}`, { headers: { cookie } });
        ran.clear();
        recording = true;
        let status = 200;
        try {
          await callPageLoaders(build, platform, organization, db, request);
        } catch (thrown) {
          if (!(thrown instanceof Response)) throw thrown;
          status = thrown.status;
        } finally {
          recording = false;
        }
        const reads: Read[] = [];
        for (const [sql, params] of ran) {
          if (!/^\s*(select|with)\b/i.test(sql)) continue;
          const tables = new Set<string>();
          const cursors = new Map<number, number>();
          const columns: Record<string, string[]> = {};
          for (const op of explain(raw, "explain", sql)) {
            if (op.opcode === "OpenRead") {
              const table = tableOfRoot.get(op.p2 as number) ?? "sqlite_schema";
              tables.add(table);
              cursors.set(op.p1 as number, op.p2 as number);
              // An index may be searched or ordered by without a column of it being read out: all of its count.
              if (indexRoots.has(op.p2 as number))
                for (const column of columnsOfRoot.get(op.p2 as number) ?? [])
                  if (!(columns[table] ??= []).includes(column)) columns[table].push(column);
            }
            const root = cursors.get(op.p1 as number);
            if (root === undefined || (op.opcode !== "Column" && op.opcode !== "Rowid")) continue;
            const table = tableOfRoot.get(root) ?? "sqlite_schema";
            const column = op.opcode === "Rowid" ? "rowid" : (columnsOfRoot.get(root)?.[op.p2 as number] ?? `#${String(op.p2)}`);
            if (!(columns[table] ??= []).includes(column)) columns[table].push(column);
          }
          // An alias in a plan line (`SEARCH lp USING …`) is the table the SQL names before it.
          const aliases = new Map<string, string>();
          for (const m of sql.matchAll(/(?:from|join)\s+["`]?(\w+)["`]?(?:\s+(?:as\s+)?["`]?(\w+)["`]?)?/gi))
            if (tableNames.has(m[1]))
              aliases.set((m[2] && !/^(on|where|inner|left|join|group|order|limit|union)$/i.test(m[2]) ? m[2] : m[1]).toLowerCase(), m[1]);
          const plan = explain(raw, "explain query plan", sql).map((row) => {
            const detail = String(row.detail);
            const index = /USING (?:COVERING )?INDEX (\S+)/.exec(detail)?.[1];
            const named = /^(?:SCAN|SEARCH) (\S+)/.exec(detail)?.[1];
            const table =
              (index && tableOfIndex.get(index)) ??
              (named ? (tableNames.has(named) ? named : (aliases.get(named.toLowerCase()) ?? null)) : null);
            return { detail, table };
          });
          reads.push({ sql, params, tables: [...tables].sort(), columns, plan });
        }
        results.push({ email, userId, path: pagePath, status, reads });
      }
    }
  });
} finally {
  platform.close();
}
process.stdout.write(JSON.stringify(results));
