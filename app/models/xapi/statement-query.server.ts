import { and, asc, desc, eq, gt, inArray, lt, lte, max, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { xapiStatementActivities, xapiStatementAgents, xapiStatements, type XapiCredential } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { xapiReach } from "~/access/xapi";
import { agentKey } from "./agents";

/*
 * Reading statements (docs/decisions/043-learning-record-store.md, "Statements" and "Paging"): every filter
 * of GET /xapi/statements, answered in storing order from the index of the column it names, a page at a
 * time. A page after the first reads only statements stored up to the first page's mark, so statements
 * stored meanwhile neither shift nor repeat a page.
 */

/** The most statements a page holds, and how many when a request names no `limit` (or 0). */
export const MAX_PAGE = 500;

export interface StatementFilters {
  agent?: unknown;
  verb?: string;
  activity?: string;
  registration?: string;
  relatedActivities?: boolean;
  relatedAgents?: boolean;
  /** Milliseconds since 1970, of `stored`: `since` exclusive, `until` inclusive. */
  since?: number;
  until?: number;
  limit?: number;
  ascending?: boolean;
}

/** Where a later page starts: after `after`, among statements stored up to `mark` (both `seq`). */
export interface PageCursor {
  after: number;
  mark: number;
}

export interface StatementPage {
  /** The statements' stored JSON, in order. */
  statements: string[];
  /** The next page's cursor, when there are more. */
  next: PageCursor | null;
}

/**
 * The conditions the filters put on a statement itself (agent, verb, activity, registration), or an error.
 * Beside a more selective filter the verb is written `+verb_id`, which keeps SQLite from choosing the verb's
 * index: a common verb names a large part of the store, and walking it for one agent's statements took
 * 0.6 s with a million statements (`npm run bench`, scripts/bench/xapi.ts).
 */
function filterConditions(db: TenantConn, filters: StatementFilters, t: Statements = xapiStatements): SQL[] | { error: string } {
  const conditions: SQL[] = [];
  if (filters.agent !== undefined) {
    const key = agentKey(filters.agent);
    if (!key) return { error: "agent must be an Agent or identified Group with one identifier" };
    conditions.push(
      filters.relatedAgents
        ? inArray(t.seq, db.select({ seq: xapiStatementAgents.seq }).from(xapiStatementAgents).where(eq(xapiStatementAgents.agentKey, key)))
        : or(eq(t.actorKey, key), and(eq(t.objectKey, key), sql`${t.objectType} in ('Agent', 'Group')`))!,
    );
  }
  if (filters.activity !== undefined)
    conditions.push(
      filters.relatedActivities
        ? inArray(
            t.seq,
            db
              .select({ seq: xapiStatementActivities.seq })
              .from(xapiStatementActivities)
              .where(eq(xapiStatementActivities.activityId, filters.activity)),
          )
        : and(eq(t.objectKey, filters.activity), eq(t.objectType, "Activity"))!,
    );
  if (filters.registration !== undefined) conditions.push(eq(t.registration, filters.registration.toLowerCase()));
  if (filters.verb !== undefined) conditions.push(conditions.length ? sql`+${t.verbId} = ${filters.verb}` : eq(t.verbId, filters.verb));
  return conditions;
}

/**
 * A page of the statements `filters` select that `credential` may read (voided ones never), in `seq` order.
 * What the filters select directly is read from the index of the column they name, a page's worth; a
 * statement that refers to a selected one through a StatementRef (at any depth, a voiding one too) is selected
 * with it, as xAPI asks (2.0.0 §4.1.6.1 "Filter Conditions for StatementRefs"): those are read from the few
 * statements that refer to others (`xapi_statements_refs_idx`), and the two merged.
 */
export function queryStatements(
  db: TenantConn,
  credential: XapiCredential,
  filters: StatementFilters,
  cursor: PageCursor | null = null,
): StatementPage | { error: string } {
  const filter = filterConditions(db, filters);
  if ("error" in filter) return filter;
  const onTarget = filterConditions(db, filters, target) as SQL[];
  const common: SQL[] = [eq(xapiStatements.voided, false), ...readableBy(credential)];
  if (filters.since !== undefined) common.push(gt(xapiStatements.stored, filters.since));
  if (filters.until !== undefined) common.push(lte(xapiStatements.stored, filters.until));
  const mark = cursor?.mark ?? newestSeq(db);
  // A later page newest first needs one bound: the last one sent is below the mark (the token is signed).
  if (!cursor || filters.ascending) common.push(lte(xapiStatements.seq, mark));
  if (cursor) common.push(filters.ascending ? gt(xapiStatements.seq, cursor.after) : lt(xapiStatements.seq, cursor.after));
  const size = filters.limit && filters.limit > 0 ? Math.min(filters.limit, MAX_PAGE) : MAX_PAGE;
  const order = filters.ascending ? asc(xapiStatements.seq) : desc(xapiStatements.seq);
  const read = (where: SQL[]) =>
    db
      .select({ seq: xapiStatements.seq, json: xapiStatements.json })
      .from(xapiStatements)
      .where(and(...where))
      .orderBy(order)
      .limit(size + 1)
      .all();
  let rows = read([...filter, ...common]);
  if (filter.length) {
    const referring = read([sql`${xapiStatements.objectType} = 'StatementRef'`, referringTo(and(...onTarget)!), ...common]);
    if (referring.length) {
      const bySeq = new Map([...rows, ...referring].map((r) => [r.seq, r]));
      rows = [...bySeq.values()].sort((a, b) => (filters.ascending ? a.seq - b.seq : b.seq - a.seq)).slice(0, size + 1);
    }
  }
  const page = rows.slice(0, size);
  return {
    statements: page.map((r) => r.json),
    next: rows.length > size ? { after: page[page.length - 1].seq, mark } : null,
  };
}

/** The statement a reference leads to, in `referringTo`. */
const target = alias(xapiStatements, "target");
type Statements = typeof xapiStatements | typeof target;

/**
 * Of the statements that refer to others, those whose reference leads (through StatementRefs, at any depth)
 * to one `filter` selects, voided or not: the chain is followed from each referring statement, which are few.
 */
function referringTo(filter: SQL): SQL {
  return sql`exists (
    with recursive chain(id, depth) as (
      select ${xapiStatements.objectKey}, 1
      union
      select t.object_key, chain.depth + 1 from xapi_statements t join chain on t.id = chain.id
      where t.object_type = 'StatementRef' and chain.depth < 32
    )
    select 1 from chain join xapi_statements "target" on ${target.id} = chain.id where ${filter}
  )`;
}

/** The statements a credential may read (app/access/xapi.ts `xapiReach`), as conditions on `xapi_statements`. */
export function readableBy(credential: XapiCredential): SQL[] {
  const reach = xapiReach(credential);
  const conditions: SQL[] = [];
  if (reach.sentBy !== undefined) conditions.push(eq(xapiStatements.credentialId, reach.sentBy));
  if (reach.actorKey !== undefined) conditions.push(eq(xapiStatements.actorKey, reach.actorKey));
  if (reach.registration !== undefined) conditions.push(eq(xapiStatements.registration, reach.registration));
  return conditions;
}

/** The `seq` of the newest statement stored (0 for none): a first page's mark. */
export function newestSeq(db: TenantConn) {
  return (
    db
      .select({ seq: max(xapiStatements.seq) })
      .from(xapiStatements)
      .get()?.seq ?? 0
  );
}

/**
 * `X-Experience-API-Consistent-Through`: every statement stored up to now is readable (a write commits before
 * it is answered), so now, or the newest `stored` when that is later (it never goes back: statements.server.ts).
 */
export function consistentThrough(db: TenantConn, now = new Date()) {
  const newest =
    db
      .select({ stored: max(xapiStatements.stored) })
      .from(xapiStatements)
      .get()?.stored ?? 0;
  return new Date(Math.max(newest, now.getTime())).toISOString();
}
