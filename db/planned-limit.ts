import { sql, type Placeholder } from "drizzle-orm";

/**
 * A LIMIT that SQLite plans once: `.limit(plannedLimit(n))` writes `limit ? + 0` where `.limit(n)` writes
 * `limit ?` (docs/decisions/042-drizzle-as-published.md, after 040).
 *
 * SQLite (3.47 and later) reads a LIMIT that is a lone bound parameter while it plans the statement, and so
 * marks the statement to be planned again whenever that parameter is bound — which better-sqlite3 does on
 * every run. A query prepared once (db/prepared.ts) with `.limit(n)` was therefore parsed and planned again
 * on every call: 25–60 µs instead of 3–5 for a one-row read by index. `? + 0` is an expression, not a
 * parameter: the statement is planned once, as SQLite plans it before any value is bound (better-sqlite3
 * binds numbers as REAL, which SQLite never used for planning), and the limit is read when it runs. The
 * parameters, their order and the rows are unchanged. OFFSET is not read while planning; it needs nothing.
 *
 * The one cast: drizzle types `.limit()` as `number | Placeholder`, but writes any SQL it is given where the
 * limit goes (its SQLite dialect's `buildLimit`: `sql\` limit ${limit}\``, for any object). An SQL fragment
 * is not a Placeholder, so it is passed as one. tests/unit/planned-limit.test.ts checks the SQL drizzle
 * writes with it, the rows it answers, and that SQLite plans such a statement once.
 */
export function plannedLimit(count: number | Placeholder): Placeholder {
  return sql`${count} + 0` as unknown as Placeholder;
}
