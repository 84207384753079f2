import crypto from "node:crypto";
import { and, asc, inArray, ne } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { xapiDocuments, type User } from "../../../db/tenant";
import { originOf } from "../xapi/lesson-activity.server";
import { statementsOf } from "../xapi/statement-browse.server";

/*
 * The export's xAPI section (../personal-data.server.ts; docs/decisions/043-learning-record-store.md): the
 * statements of the organization's LRS whose actor is the person, and the documents (state, agent profiles)
 * content keeps there for them. The LRS keeps an agent's key as it was sent (../xapi/agents.ts `agentKey`) and
 * compares keys as strings, so the person is each of the keys below, as ../xapi/lesson-results.server.ts
 * `personOfAgent` recognises them (an `mbox` sent with capitals in it is kept so, and is not among them).
 */

/**
 * The agent keys that name the person: their e-mail as `mbox` (stored lower-case, as users' e-mails are), its
 * `mbox_sha1sum` (xAPI: the SHA-1 of the `mailto:` IRI), and an `account` of each of the organization's
 * origins, with or without a trailing slash, named by their id.
 */
export function agentKeysOf(person: Pick<User, "id" | "email">, origins: string[]) {
  const mbox = `mailto:${person.email.toLowerCase()}`;
  const keys = [`mbox:${mbox}`, `mbox_sha1sum:${crypto.createHash("sha1").update(mbox).digest("hex")}`];
  for (const origin of origins) {
    const home = originOf(origin);
    if (home) keys.push(`account:${home}|${person.id}`, `account:${home}/|${person.id}`);
  }
  return [...new Set(keys)];
}

/** A document's body as the export writes it: JSON as JSON, text as text, anything else in base64. */
function bodyOf(contentType: string, body: Buffer) {
  if (/^application\/json\b/i.test(contentType)) {
    try {
      return { json: JSON.parse(body.toString("utf8")) as unknown };
    } catch {
      // Sent as JSON without being JSON: kept as the text it is, below.
    }
  }
  if (/^text\/|^application\/json\b/i.test(contentType)) return { text: body.toString("utf8") };
  return { base64: body.toString("base64") };
}

/**
 * The state and agent-profile documents kept for the person's agents (activity profiles name no agent). No
 * index leads with the agent: this reads the documents table through, once a download.
 */
function documentsOf(db: TenantConn, keys: string[]) {
  return db
    .select()
    .from(xapiDocuments)
    .where(and(inArray(xapiDocuments.agentKey, keys), ne(xapiDocuments.kind, "activity-profile")))
    .orderBy(asc(xapiDocuments.kind), asc(xapiDocuments.activityId), asc(xapiDocuments.documentId), asc(xapiDocuments.id))
    .all()
    .map((d) => ({
      kind: d.kind,
      agent: d.agentKey,
      activity_id: d.activityId || null,
      registration: d.registration || null,
      document_id: d.documentId,
      content_type: d.contentType,
      updated: new Date(d.updated).toISOString(),
      ...bodyOf(d.contentType, d.body),
    }));
}

const storedAt = (statement: unknown) => String((statement as { stored?: unknown }).stored ?? "");

/** Their statements, oldest stored first, as the LRS keeps them, and their documents. */
export function xapiData(db: TenantConn, person: Pick<User, "id" | "email">, origins: string[]) {
  const agents = agentKeysOf(person, origins);
  const statements = agents.flatMap((key) => statementsOf(db, key));
  statements.sort((a, b) => Date.parse(storedAt(a)) - Date.parse(storedAt(b)));
  return { agents, statements, documents: documentsOf(db, agents) };
}
