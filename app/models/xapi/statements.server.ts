import crypto from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import { xapiStatements, type XapiCredential } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { xapiMayVoid, xapiSendRefusal } from "~/access/xapi";
import { rememberDefinitions } from "./activities.server";
import { insertIndexRows, insertStatementRow } from "./statement-rows.server";
import { sameStatement } from "./statement-compare";
import { readableBy } from "./statement-query.server";
import { commitParts, discardStaged, stageParts, type OrganizationFiles } from "./attachment-files.server";
import type { AttachmentPart } from "./multipart";
import { agentKey } from "./agents";
import { feedLessonResult, type LessonFeed } from "./lesson-results.server";
import { statement as statementSchema, timestampMs, UUID, type Statement } from "./statement-schema";

/*
 * Storing statements (docs/decisions/043-learning-record-store.md, "Statements", "Voiding and immutability"):
 * a batch is checked whole, then stored in one transaction with the rows its filters read, or refused whole.
 */

export type XapiVersion = "2.0.0" | "1.0.3";
export const VOIDED = "http://adlnet.gov/expapi/verbs/voided";

export type StoreOutcome = { ok: true; ids: string[] } | { ok: false; status: 400 | 403 | 409; message: string };

export interface StoreOptions {
  version: XapiVersion;
  /** The Agent the LRS names as every statement's authority (the credential's, as the dispatcher builds it). */
  authority: object;
  /** A PUT's `statementId`: the one statement must carry it or no id. */
  putId?: string;
  /** The parts sent with the statements (already matched to them: attachments.ts), and where their files go. */
  attachments?: { parts: AttachmentPart[]; files: OrganizationFiles };
  /** The organization whose learners' lesson results the statements feed (lesson-results.server.ts); left out, none. */
  learning?: LessonFeed;
  /** What the statements of a package's launch also answer to (app/models/packages/tracking.server.ts); left out, nothing. */
  launches?: StatementHook;
  now?: Date;
}

/**
 * Rules and records beside the LRS's own for the statements of some credentials (a package launch's: cmi5's
 * session rules, the AU's state, satisfaction), run in the statements' transaction: `check` may refuse the
 * batch (as sent, in order), `stored` follows each statement stored (not one sent again).
 */
export interface StatementHook {
  check(tx: TenantConn, credential: XapiCredential, statements: Record<string, unknown>[]): string | null;
  stored(tx: TenantConn, credential: XapiCredential, statement: Record<string, unknown>, stored: Date): void;
}

/** A checked statement (`statement`, and `raw`: the object as received, its keys in their order), with its index rows. */
type Row = {
  statement: Statement;
  raw: Record<string, unknown>;
  /** The statement exactly as sent (without the id the LRS gives one that came without), for a launch's rules. */
  received: Record<string, unknown>;
  actorKey: string;
  agents: [string, string][];
  activities: [string, string][];
};

/** A refusal met while writing: the transaction is rolled back, and the outcome returned. */
class Refusal extends Error {
  constructor(readonly outcome: StoreOutcome & { ok: false }) {
    super(outcome.message);
  }
}

/** Checks and stores `input` (one statement or many); nothing is stored unless all of them can be. */
export function storeStatements(db: TenantConn, credential: XapiCredential, input: unknown, options: StoreOptions): StoreOutcome {
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) return { ok: false, status: 400, message: "No statements." };
  const rows: Row[] = [];
  for (const [i, raw] of list.entries()) {
    const parsed = statementSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, status: 400, message: `Statement ${i}: ${issue.path.join(".") || "statement"} ${issue.message}.` };
    }
    const problem = checkStatement(parsed.data, credential, options);
    if (problem) return { ok: false, ...problem };
    rows.push({
      ...indexRows(parsed.data),
      raw: withArrays({ ...(raw as Record<string, unknown>), id: parsed.data.id }),
      received: raw as Record<string, unknown>,
    });
  }
  const ids = rows.map((r) => r.statement.id!);
  if (new Set(ids).size !== ids.length) return { ok: false, status: 400, message: "The same statement id twice in one batch." };
  const staged = options.attachments ? stageParts(options.attachments.files, options.attachments.parts) : [];
  try {
    return db.transaction((tx) => {
      const outcome = writeRows(tx, credential, rows, options);
      commitParts(tx, staged, options.now);
      return outcome;
    });
  } catch (error) {
    if (error instanceof Refusal) return error.outcome;
    throw error;
  } finally {
    discardStaged(staged);
  }
}

/** The statement with each context activity list an array (xAPI: a single Activity there is stored as a list of one), a sub-statement's too. */
function withArrays(statement: Record<string, unknown>): Record<string, unknown> {
  const out = { ...statement };
  const context = statement.context as Record<string, unknown> | undefined;
  const lists = context?.contextActivities as Record<string, unknown> | undefined;
  if (context && lists)
    out.context = {
      ...context,
      contextActivities: Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
    };
  const object = statement.object as Record<string, unknown>;
  if (object?.objectType === "SubStatement") out.object = withArrays(object);
  return out;
}

/** What the schema cannot see: the version's own properties, a PUT's id, an actor credential's reach, voiding. */
function checkStatement(statement: Statement, credential: XapiCredential, { version, putId }: StoreOptions) {
  if (version === "1.0.3") {
    const sub = statement.object as Statement;
    if ([statement.context, sub.context].some((c) => c?.contextAgents || c?.contextGroups))
      return { status: 400 as const, message: "contextAgents and contextGroups are xAPI 2.0 properties." };
    if (statement.version !== undefined && !statement.version.startsWith("1.0"))
      return { status: 400 as const, message: "An xAPI 1.0.3 request's statements are of version 1.0." };
  }
  if (putId !== undefined) {
    if (!UUID.test(putId)) return { status: 400 as const, message: "statementId must be a UUID." };
    if (statement.id !== undefined && statement.id.toLowerCase() !== putId.toLowerCase())
      return { status: 400 as const, message: "The statement's id differs from statementId." };
    statement.id = putId;
  }
  statement.id = (statement.id ?? crypto.randomUUID()).toLowerCase();
  const refusal = xapiSendRefusal(credential, {
    actorKey: agentKey(statement.actor),
    registration: statement.context?.registration?.toLowerCase() ?? null,
  });
  if (refusal) return { status: 403 as const, message: refusal };
  if (statement.verb.id === VOIDED) {
    if ((statement.object as { objectType?: string }).objectType !== "StatementRef")
      return { status: 400 as const, message: "A voiding statement's object must be a StatementRef." };
    // What the credential may void once its target is read is checked in writeRows.
    if (!xapiMayVoid(credential, undefined)) return { status: 403 as const, message: "This credential may not void statements." };
  }
  return null;
}

/** The key a statement is filtered by its actor: an Agent's or identified Group's identifier, else its members'. */
function actorKeyOf(actor: Statement["actor"]) {
  const key = agentKey(actor);
  if (key) return key;
  const members = ((actor as { member?: unknown[] }).member ?? []).map((m) => agentKey(m) ?? "").sort();
  return `group:${members.join(",")}`;
}

function indexRows(statement: Statement): Omit<Row, "raw" | "received"> {
  const agents: [string, string][] = [];
  const activities: [string, string][] = [];
  const addAgent = (who: unknown, role: string) => {
    const key = agentKey(who);
    if (key) agents.push([key, role]);
    for (const member of (who as { member?: unknown[] } | undefined)?.member ?? []) {
      const memberKey = agentKey(member);
      if (memberKey) agents.push([memberKey, `${role}-member`]);
    }
  };
  const walk = (s: Pick<Statement, "actor" | "object" | "context">, prefix: string) => {
    addAgent(s.actor, `${prefix}actor`);
    const object = s.object as { objectType?: string; id?: string };
    if ((object.objectType ?? "Activity") === "Activity") activities.push([object.id!, `${prefix}object`]);
    else if (object.objectType === "Agent" || object.objectType === "Group") addAgent(object, `${prefix}object`);
    else if (object.objectType === "SubStatement") walk(object as unknown as Statement, "sub-");
    addAgent(s.context?.instructor, `${prefix}instructor`);
    addAgent(s.context?.team, `${prefix}team`);
    for (const c of s.context?.contextAgents ?? []) addAgent(c.agent, `${prefix}context-agent`);
    for (const c of s.context?.contextGroups ?? []) addAgent(c.group, `${prefix}context-group`);
    for (const [kind, list] of Object.entries(s.context?.contextActivities ?? {}))
      for (const a of Array.isArray(list) ? list : [list]) activities.push([a.id, `${prefix}${kind}`]);
  };
  walk(statement, "");
  return { statement, actorKey: actorKeyOf(statement.actor), agents: unique(agents), activities: unique(activities) };
}

const unique = (pairs: [string, string][]) => [...new Map(pairs.map((p) => [p.join("\u0000"), p])).values()];

function writeRows(
  tx: TenantConn,
  credential: XapiCredential,
  rows: Row[],
  { version, authority, learning, launches, now = new Date() }: StoreOptions,
): StoreOutcome {
  const existing = new Map(
    tx
      .select({
        id: xapiStatements.id,
        json: xapiStatements.json,
        verbId: xapiStatements.verbId,
        credentialId: xapiStatements.credentialId,
      })
      .from(xapiStatements)
      .where(inArray(xapiStatements.id, [...rows.map((r) => r.statement.id!), ...rows.flatMap((r) => voidedTarget(r.statement) ?? [])]))
      .all()
      .map((r) => [r.id, r]),
  );
  // A statement sent again is not checked again: it changes nothing.
  const refused = launches?.check(
    tx,
    credential,
    rows.filter((r) => !existing.has(r.statement.id!)).map((r) => r.received),
  );
  // A valid statement a launch's rules refuse is forbidden (403), as cmi5's LMS test suite has it; 400 is for invalid ones.
  if (refused) throw new Refusal({ ok: false, status: 403, message: refused });
  const last = tx.select({ stored: xapiStatements.stored }).from(xapiStatements).orderBy(desc(xapiStatements.seq)).limit(1).get();
  const stored = Math.max(now.getTime(), last?.stored ?? 0);
  const ids: string[] = [];
  const authorityRows = [agentKey(authority), ...((authority as { member?: unknown[] }).member ?? []).map(agentKey)].flatMap(
    (key): [string, string][] => (key ? [[key, "authority"]] : []),
  );
  for (const row of rows) {
    const { statement } = row;
    const target = voidedTarget(statement);
    if (target && existing.get(target)?.verbId === VOIDED)
      throw new Refusal({ ok: false, status: 400, message: "A voiding statement cannot be voided." });
    if (target && existing.has(target) && !xapiMayVoid(credential, existing.get(target)!.credentialId))
      throw new Refusal({ ok: false, status: 403, message: "This credential may only void statements it sent." });
    const before = existing.get(statement.id!);
    if (before) {
      // What the LRS filled in (and a timestamp, when the statement sent again names none) is not compared.
      const ignore = ["stored", "authority", "version", ...(statement.timestamp === undefined ? ["timestamp"] : [])];
      if (!sameStatement(JSON.parse(before.json), row.raw, ignore))
        throw new Refusal({ ok: false, status: 409, message: `Statement ${statement.id} is already stored, with other content.` });
      ids.push(statement.id!);
      continue;
    }
    const full = {
      ...row.raw,
      timestamp: statement.timestamp ?? new Date(stored).toISOString(),
      stored: new Date(stored).toISOString(),
      authority,
      version: statement.version ?? (version === "2.0.0" ? "2.0.0" : "1.0.0"),
    };
    const object = statement.object as { objectType?: string; id?: string };
    const seq = insertStatementRow(tx, {
      id: statement.id!,
      stored,
      timestamp: timestampMs(full.timestamp),
      version: full.version,
      actorKey: row.actorKey,
      verbId: statement.verb.id,
      objectType: object.objectType ?? "Activity",
      objectKey: object.objectType === "StatementRef" ? object.id!.toLowerCase() : (object.id ?? agentKey(object) ?? ""),
      registration: statement.context?.registration?.toLowerCase() ?? null,
      credentialId: credential.id,
      json: JSON.stringify(full),
    });
    insertIndexRows(tx, seq, unique([...row.agents, ...authorityRows]), row.activities);
    rememberDefinitions(tx, full);
    // A lesson completed, passed or failed feeds the learner's progress, in this transaction (decision 043, 10).
    if (learning) feedLessonResult(tx, statement, learning, new Date(stored));
    launches?.stored(tx, credential, full, new Date(stored));
    ids.push(statement.id!);
  }
  // Voided once the whole batch is in: a target may come after its voiding statement.
  const voiding = new Set(rows.filter((r) => r.statement.verb.id === VOIDED).map((r) => r.statement.id!));
  for (const target of rows.map((r) => voidedTarget(r.statement)).filter((t): t is string => t !== null)) {
    if (voiding.has(target)) throw new Refusal({ ok: false, status: 400, message: "A voiding statement cannot be voided." });
    tx.update(xapiStatements).set({ voided: true }).where(eq(xapiStatements.id, target)).run();
  }
  return { ok: true, ids };
}

const voidedTarget = (statement: Statement) =>
  statement.verb.id === VOIDED ? (statement.object as { id: string }).id.toLowerCase() : null;

/** A statement by id as stored (its `json`), if `credential` may read it, or null; a voided one only when asked for as voided. */
export function statementById(db: TenantConn, credential: XapiCredential, id: string, { voided = false } = {}) {
  const row = db
    .select({ json: xapiStatements.json, voided: xapiStatements.voided })
    .from(xapiStatements)
    .where(and(eq(xapiStatements.id, id.toLowerCase()), ...readableBy(credential)))
    .get();
  if (!row || row.voided !== voided) return null;
  return row.json;
}
