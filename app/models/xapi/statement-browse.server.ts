import { and, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { xapiStatements } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";

/*
 * The organization's statements as its admins read them (the LRS screen, its CSV and GET /api/xapi/statements;
 * docs/decisions/043-learning-record-store.md, "Readers"): every statement, voided ones marked, newest first, a
 * page at a time after a `seq`; filtered by actor, verb, activity and time on the columns the LRS indexes.
 */

export interface BrowseFilters {
  /** An e-mail address (the actor's mbox) or an agent key as the LRS keeps it (`account:…`, `openid:…`). */
  actor?: string;
  verb?: string;
  activity?: string;
  /** Milliseconds since 1970 of `stored`: from (inclusive) and until (exclusive). */
  from?: number;
  until?: number;
}

export interface BrowsedStatement {
  id: string;
  stored: Date;
  actor: string;
  verb: string;
  object: string;
  objectType: string;
  /** The result's scaled score (0–1), success and completion, when it gives them. */
  score: number | null;
  success: boolean | null;
  completion: boolean | null;
  voided: boolean;
}

export const BROWSE_PAGE = 50;

/** The agent key an actor filter names: an e-mail address as its mbox, anything else as given. */
export function actorKeyOf(actor: string) {
  const value = actor.trim();
  return /^[^\s@:]+@[^\s@]+$/.test(value) ? `mbox:mailto:${value.toLowerCase()}` : value;
}

function conditions(filters: BrowseFilters): SQL[] {
  const where: SQL[] = [];
  if (filters.actor) where.push(eq(xapiStatements.actorKey, actorKeyOf(filters.actor)));
  if (filters.verb) where.push(eq(xapiStatements.verbId, filters.verb));
  if (filters.activity) where.push(and(eq(xapiStatements.objectKey, filters.activity), eq(xapiStatements.objectType, "Activity"))!);
  if (filters.from !== undefined) where.push(sql`${xapiStatements.stored} >= ${filters.from}`);
  if (filters.until !== undefined) where.push(lt(xapiStatements.stored, filters.until));
  return where;
}

type Json = Record<string, unknown>;
const first = (map: unknown) =>
  map && typeof map === "object" ? Object.values(map as Json).find((v) => typeof v === "string") : undefined;

/** Who an Agent or Group is, for a person reading: its name, else its identifier. */
function nameOf(agent: Json | undefined): string {
  if (!agent) return "";
  if (typeof agent.name === "string") return agent.name;
  if (typeof agent.mbox === "string") return agent.mbox.replace(/^mailto:/i, "");
  const account = agent.account as Json | undefined;
  if (account) return `${String(account.name)} (${String(account.homePage)})`;
  return String(agent.openid ?? agent.mbox_sha1sum ?? "");
}

/** A stored statement as a row of the screen and the CSV. */
export function browsedStatement(json: string, voided: boolean): BrowsedStatement {
  const s = JSON.parse(json) as Json;
  const verb = s.verb as Json;
  const object = s.object as Json;
  const objectType = (object.objectType as string | undefined) ?? "Activity";
  const definition = object.definition as Json | undefined;
  const objectName =
    objectType === "Activity"
      ? (first(definition?.name) ?? String(object.id))
      : objectType === "Agent" || objectType === "Group"
        ? nameOf(object)
        : String(object.id ?? objectType);
  const result = s.result as Json | undefined;
  const score = (result?.score as Json | undefined)?.scaled;
  return {
    id: String(s.id),
    stored: new Date(String(s.stored)),
    actor: nameOf(s.actor as Json),
    verb: first(verb.display) ?? String(verb.id),
    object: objectName,
    objectType,
    score: typeof score === "number" ? score : null,
    success: typeof result?.success === "boolean" ? result.success : null,
    completion: typeof result?.completion === "boolean" ? result.completion : null,
    voided,
  };
}

/** A page of statements, newest first, stored before `before` (a `seq`), and the `seq` the next page starts before. */
export function browseStatements(db: TenantConn, filters: BrowseFilters, before?: number, size = BROWSE_PAGE) {
  const where = conditions(filters);
  if (before !== undefined) where.push(lt(xapiStatements.seq, before));
  const rows = db
    .select({ seq: xapiStatements.seq, json: xapiStatements.json, voided: xapiStatements.voided })
    .from(xapiStatements)
    .where(and(...where))
    .orderBy(desc(xapiStatements.seq))
    .limit(size + 1)
    .all();
  const page = rows.slice(0, size);
  return {
    statements: page.map((r) => browsedStatement(r.json, r.voided)),
    next: rows.length > size ? page[page.length - 1].seq : null,
  };
}

/** The next `chunk` statements the filters select, oldest first, stored after `after` (a `seq`), with the last one's `seq`. */
export function statementsAfter(db: TenantConn, filters: BrowseFilters, after: number, chunk = 500) {
  const rows = db
    .select({ seq: xapiStatements.seq, json: xapiStatements.json, voided: xapiStatements.voided })
    .from(xapiStatements)
    .where(and(...conditions(filters), gt(xapiStatements.seq, after)))
    .orderBy(xapiStatements.seq)
    .limit(chunk)
    .all();
  return { statements: rows.map((r) => browsedStatement(r.json, r.voided)), last: rows.length === chunk ? rows[chunk - 1].seq : null };
}

/** One statement's JSON as stored (voided or not), for an admin, or null. */
export function storedStatement(db: TenantConn, id: string) {
  return (
    db
      .select({ json: xapiStatements.json, voided: xapiStatements.voided })
      .from(xapiStatements)
      .where(eq(xapiStatements.id, id.toLowerCase()))
      .get() ?? null
  );
}

/**
 * The verbs the organization's statements use (for the filter's choices), at most `limit`: one index seek a
 * verb (`xapi_statements_verb_idx`), never a walk of every statement's entry.
 */
export function verbsUsed(db: TenantConn, limit = 200) {
  const rows = db.all<{ verb: string | null }>(sql`
    with recursive verbs(verb, n) as (
      select min(${xapiStatements.verbId}), 1 from ${xapiStatements}
      union all
      select (select min(${xapiStatements.verbId}) from ${xapiStatements} where ${xapiStatements.verbId} > verbs.verb), n + 1
      from verbs where verbs.verb is not null and n < ${limit}
    )
    select verb from verbs where verb is not null`);
  return rows.map((r) => r.verb!);
}

/** The statements of one person (an agent key), oldest first, as stored: for their own data export. */
export function statementsOf(db: TenantConn, actorKey: string) {
  return db
    .select({ json: xapiStatements.json })
    .from(xapiStatements)
    .where(eq(xapiStatements.actorKey, actorKey))
    .orderBy(xapiStatements.seq)
    .all()
    .map((r) => JSON.parse(r.json) as unknown);
}
