import crypto from "node:crypto";
import { and, eq, gt, type SQL } from "drizzle-orm";
import { xapiDocuments, type XapiDocumentKind } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";

/*
 * The LRS's documents: state, activity profiles and agent profiles (docs/decisions/043-learning-record-store.md,
 * "Documents"). A document is bytes with a content type and an ETag (its SHA-1, quoted); a POST of JSON merges
 * into JSON; If-Match and If-None-Match decide whether a write or a delete may happen.
 */

export interface DocumentPlace {
  kind: XapiDocumentKind;
  activityId?: string;
  agentKey?: string;
  registration?: string | null;
  /** Only the documents this credential wrote (a `write` credential's reach: app/access/xapi.ts `xapiDocumentReach`). */
  writtenBy?: number;
}
export interface DocumentKey extends DocumentPlace {
  documentId: string;
}
export interface Preconditions {
  ifMatch?: string | null;
  ifNoneMatch?: string | null;
}
export type DocumentOutcome = { ok: true; etag: string | null } | { ok: false; status: 400 | 403 | 409 | 412; message: string };

const place = (p: DocumentPlace): SQL[] => [
  eq(xapiDocuments.kind, p.kind),
  eq(xapiDocuments.activityId, p.activityId ?? ""),
  eq(xapiDocuments.agentKey, p.agentKey ?? ""),
  eq(xapiDocuments.registration, p.registration?.toLowerCase() ?? ""),
  ...(p.writtenBy !== undefined ? [eq(xapiDocuments.credentialId, p.writtenBy)] : []),
];
const at = (key: DocumentKey) => and(...place(key), eq(xapiDocuments.documentId, key.documentId));

/** The document at `key` (content type, bytes, ETag quoted, updated in ms), or null. */
export function getDocument(db: TenantConn, key: DocumentKey) {
  const row = db
    .select({ contentType: xapiDocuments.contentType, body: xapiDocuments.body, etag: xapiDocuments.etag, updated: xapiDocuments.updated })
    .from(xapiDocuments)
    .where(at(key))
    .get();
  return row ? { ...row, etag: `"${row.etag}"` } : null;
}

/** The ids of the documents at a place, changed after `since` (ms) when given. */
export function documentIds(db: TenantConn, where: DocumentPlace, since?: number) {
  const conditions = place(where);
  if (since !== undefined) conditions.push(gt(xapiDocuments.updated, since));
  return db
    .select({ id: xapiDocuments.documentId })
    .from(xapiDocuments)
    .where(and(...conditions))
    .orderBy(xapiDocuments.documentId)
    .all()
    .map((r) => r.id);
}

/** Whether `header` (a list of quoted ETags, or `*`) names `etag` (quoted), or any document when `*`; weak tags only when `weak`. */
function names(header: string, etag: string | null, weak = false) {
  const tags = header.split(",").map((t) => (weak ? t.trim().replace(/^W\//, "") : t.trim()));
  return etag !== null && (tags.includes("*") || tags.includes(etag));
}

/** 412 when If-Match or If-None-Match does not hold for the document as it is (`etag`, quoted, or null when there is none). */
function preconditionFailed({ ifMatch, ifNoneMatch }: Preconditions, etag: string | null) {
  if (ifMatch && !names(ifMatch, etag)) return true;
  if (ifNoneMatch && (ifNoneMatch.trim() === "*" ? etag !== null : names(ifNoneMatch, etag, true))) return true;
  return false;
}

const isJsonType = (type: string) => /^application\/json\b/i.test(type.trim());
function jsonObject(body: Buffer): Record<string, unknown> | null {
  try {
    const value = JSON.parse(body.toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Stores a document: a PUT replaces it, a POST merges a JSON object into the JSON object there (or stores it
 * when there is none). `requirePrecondition`, for a PUT without If-Match or If-None-Match: `existing`, 409 onto
 * an existing document; `always`, 409 onto an existing one and 400 onto none; `never`, none is asked for
 * (which applies where: app/xapi/document-resource.server.ts).
 */
export function writeDocument(
  db: TenantConn,
  key: DocumentKey,
  document: { contentType: string; body: Buffer },
  {
    method,
    preconditions = {},
    requirePrecondition,
    now = new Date(),
    credentialId = null,
  }: {
    method: "PUT" | "POST";
    preconditions?: Preconditions;
    requirePrecondition: "never" | "existing" | "always";
    now?: Date;
    /** Who writes it (null: the LMS). */
    credentialId?: number | null;
  },
): DocumentOutcome {
  return db.transaction((tx): DocumentOutcome => {
    const existing = getDocument(tx, key);
    // Within a credential's reach only: another's document at the same place is refused, never overwritten.
    if (key.writtenBy !== undefined && !existing && getDocument(tx, { ...key, writtenBy: undefined }))
      return { ok: false, status: 403, message: "Another client's document is there: this credential may not change it." };
    if (preconditionFailed(preconditions, existing?.etag ?? null))
      return { ok: false, status: 412, message: "The document's ETag does not match the request's precondition." };
    let { contentType, body } = document;
    if (method === "PUT" && requirePrecondition !== "never" && !preconditions.ifMatch && !preconditions.ifNoneMatch) {
      if (existing)
        return { ok: false, status: 409, message: "The document exists: send If-Match with its ETag (or If-None-Match: *) to replace it." };
      if (requirePrecondition === "always")
        return { ok: false, status: 400, message: "Send If-None-Match: * to create the document (or If-Match to replace one)." };
    }
    // A POST onto nothing stores what it sends, as a PUT would; onto a document, it merges JSON objects.
    if (method === "POST" && existing) {
      const given = isJsonType(contentType) ? jsonObject(body) : null;
      if (!given)
        return { ok: false, status: 400, message: "A POST onto a document must send a JSON object (Content-Type: application/json)." };
      const kept = isJsonType(existing.contentType) ? jsonObject(existing.body) : null;
      if (!kept) return { ok: false, status: 400, message: "The document there is not a JSON object: it cannot be merged into." };
      body = Buffer.from(JSON.stringify({ ...kept, ...given }));
      contentType = "application/json";
    }
    const etag = crypto.createHash("sha1").update(body).digest("hex");
    const values = { contentType, body, etag, updated: now.getTime(), credentialId };
    tx.insert(xapiDocuments)
      .values({
        kind: key.kind,
        activityId: key.activityId ?? "",
        agentKey: key.agentKey ?? "",
        registration: key.registration?.toLowerCase() ?? "",
        documentId: key.documentId,
        ...values,
      })
      .onConflictDoUpdate({
        target: [
          xapiDocuments.kind,
          xapiDocuments.activityId,
          xapiDocuments.agentKey,
          xapiDocuments.registration,
          xapiDocuments.documentId,
        ],
        set: values,
      })
      .run();
    return { ok: true, etag: `"${etag}"` };
  });
}

/** Deletes one document (412 when If-Match does not name it); deleting what is not there is done. */
export function deleteDocument(db: TenantConn, key: DocumentKey, preconditions: Preconditions = {}): DocumentOutcome {
  return db.transaction((tx): DocumentOutcome => {
    const existing = getDocument(tx, key);
    if (preconditionFailed(preconditions, existing?.etag ?? null))
      return { ok: false, status: 412, message: "The document's ETag does not match the request's precondition." };
    tx.delete(xapiDocuments).where(at(key)).run();
    return { ok: true, etag: null };
  });
}

/** Deletes every document at a place (the state of an activity and agent, and registration when given). */
export function deleteDocuments(db: TenantConn, where: DocumentPlace) {
  return db
    .delete(xapiDocuments)
    .where(and(...place(where)))
    .run().changes;
}
