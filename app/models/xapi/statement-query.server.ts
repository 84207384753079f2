import { and, asc, desc, eq, gt, inArray, lt, lte, max, or, sql, type SQL } from "drizzle-orm";
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

/** A page of the statements `filters` select that `credential` may read (voided ones never). */
export function queryStatements(
  db: TenantConn,
  credential: XapiCredential,
  filters: StatementFilters,
  cursor: PageCursor | null = null,
): StatementPage | { error: string } {
  // What the filters select; a statement that refers to a selected one (a StatementRef, at any depth) is
  // selected too, as xAPI asks (2.0.0 §4.1.6.1 "Filter Conditions for StatementRefs"), voided ones included.
  const conditions: SQL[] = [];
  if (filters.agent !== undefined) {
    const key = agentKey(filters.agent);
    if (!key) return { error: "agent must be an Agent or identified Group with one identifier" };
    conditions.push(
      filters.relatedAgents
        ? inArray(
            xapiStatements.seq,
            db.select({ seq: xapiStatementAgents.seq }).from(xapiStatementAgents).where(eq(xapiStatementAgents.agentKey, key)),
          )
        : or(
            eq(xapiStatements.actorKey, key),
            and(eq(xapiStatements.objectKey, key), sql`${xapiStatements.objectType} in ('Agent', 'Group')`),
          )!,
    );
  }
  if (filters.verb !== undefined) conditions.push(eq(xapiStatements.verbId, filters.verb));
  if (filters.activity !== undefined)
    conditions.push(
      filters.relatedActivities
        ? inArray(
            xapiStatements.seq,
            db
              .select({ seq: xapiStatementActivities.seq })
              .from(xapiStatementActivities)
              .where(eq(xapiStatementActivities.activityId, filters.activity)),
          )
        : and(eq(xapiStatements.objectKey, filters.activity), eq(xapiStatements.objectType, "Activity"))!,
    );
  if (filters.registration !== undefined) conditions.push(eq(xapiStatements.registration, filters.registration.toLowerCase()));
  const selected = conditions.length ? [referringTo(and(...conditions)!)] : [];
  conditions.length = 0;
  conditions.push(eq(xapiStatements.voided, false), ...selected);
  if (filters.since !== undefined) conditions.push(gt(xapiStatements.stored, filters.since));
  if (filters.until !== undefined) conditions.push(lte(xapiStatements.stored, filters.until));
  conditions.push(...readableBy(credential));

  const mark = cursor?.mark ?? newestSeq(db);
  conditions.push(lte(xapiStatements.seq, mark));
  if (cursor) conditions.push(filters.ascending ? gt(xapiStatements.seq, cursor.after) : lt(xapiStatements.seq, cursor.after));
  const size = filters.limit && filters.limit > 0 ? Math.min(filters.limit, MAX_PAGE) : MAX_PAGE;
  const rows = db
    .select({ seq: xapiStatements.seq, json: xapiStatements.json })
    .from(xapiStatements)
    .where(and(...conditions))
    .orderBy(filters.ascending ? asc(xapiStatements.seq) : desc(xapiStatements.seq))
    .limit(size + 1)
    .all();
  const page = rows.slice(0, size);
  return {
    statements: page.map((r) => r.json),
    next: rows.length > size ? { after: page[page.length - 1].seq, mark } : null,
  };
}

/** The statements `filter` selects, and those that refer to them through StatementRefs, at any depth. */
function referringTo(filter: SQL): SQL {
  return sql`${xapiStatements.id} in (
    with recursive selected(id) as (
      select ${xapiStatements.id} from ${xapiStatements} where ${filter}
      union
      select s.id from xapi_statements s join selected on s.object_type = 'StatementRef' and s.object_key = selected.id
    )
    select id from selected
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
