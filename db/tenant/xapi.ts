import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id } from "../columns";
import { users } from "./people";

/*
 * The organization's Learning Record Store (docs/decisions/043-learning-record-store.md): who may send and
 * read statements, the statements with the agents and activities each one names, and the documents
 * (state, activity and agent profiles) content keeps there.
 */

/** Who may use the LRS: `all` reads and writes everything; `write` writes and reads its own; `actor` only the agent it names. */
export const XAPI_SCOPES = ["all", "write", "actor"] as const;
export type XapiScope = (typeof XAPI_SCOPES)[number];
/** The versions of xAPI the LRS speaks. */
export const XAPI_VERSIONS = ["2.0.0", "1.0.3"] as const;
/** What a credential is for: a client an admin set up, a package launch's (made by the player), or the LMS's own statements. */
export const XAPI_CREDENTIAL_PURPOSES = ["client", "launch", "lms"] as const;

/**
 * HTTP Basic credentials of the LRS: the public key is the user name; the secret (256 random bits, shown
 * once) is kept as its SHA-256. `actor` (an Agent's JSON) and `registration` bound an `actor` credential;
 * `user_id` is who made it (null for those the player makes for a launch).
 */
export const xapiCredentials = sqliteTable(
  "xapi_credentials",
  {
    id: id(),
    name: text("name").notNull(),
    key: text("key").notNull(),
    secretHash: text("secret_hash").notNull(),
    scope: text("scope", { enum: XAPI_SCOPES }).notNull(),
    actor: text("actor"),
    actorKey: text("actor_key"),
    registration: text("registration"),
    /** The xAPI version the LRS names in replies to this credential's requests that name none (a client's default). */
    version: text("version", { enum: XAPI_VERSIONS }).notNull().default("2.0.0"),
    /** Only `client` credentials are listed for admins; the others are the LMS's to make and end. */
    purpose: text("purpose", { enum: XAPI_CREDENTIAL_PURPOSES }).notNull().default("client"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp" }),
    lastUsedAt: integer("last_used_at", { mode: "timestamp" }),
  },
  (t) => [
    uniqueIndex("xapi_credentials_key_unique").on(t.key),
    index("xapi_credentials_expires_idx").on(t.expiresAt),
    // The LRS screen lists the admins' own credentials among every launch's (issue 50): 85 against 0.3 ms at 200,000.
    index("xapi_credentials_purpose_created_idx").on(t.purpose, t.createdAt),
  ],
);

/**
 * Statements in the order they were stored (`seq`, which paging follows). `json` is the statement as
 * received with what the LRS added (id, stored, authority, timestamp, version); the other columns are what
 * queries filter on. `stored` and `timestamp` are milliseconds since 1970.
 */
export const xapiStatements = sqliteTable(
  "xapi_statements",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    stored: integer("stored").notNull(),
    timestamp: integer("timestamp").notNull(),
    version: text("version").notNull(),
    actorKey: text("actor_key").notNull(),
    verbId: text("verb_id").notNull(),
    objectType: text("object_type").notNull(),
    objectKey: text("object_key").notNull(),
    registration: text("registration"),
    voided: integer("voided", { mode: "boolean" }).notNull().default(false),
    credentialId: integer("credential_id").references(() => xapiCredentials.id, { onDelete: "set null" }),
    json: text("json").notNull(),
  },
  (t) => [
    uniqueIndex("xapi_statements_id_unique").on(t.id),
    index("xapi_statements_stored_idx").on(t.stored),
    index("xapi_statements_actor_idx").on(t.actorKey, t.seq),
    index("xapi_statements_verb_idx").on(t.verbId, t.seq),
    index("xapi_statements_object_idx").on(t.objectKey, t.seq),
    index("xapi_statements_registration_idx").on(t.registration, t.seq),
    index("xapi_statements_credential_idx").on(t.credentialId, t.seq),
    // The statements that refer to others (voiding ones, mostly): few, read whenever a filter selects (statement-query.server.ts).
    index("xapi_statements_refs_idx").on(t.seq).where(sql`${t.objectType} = 'StatementRef'`),
  ],
);

/** Every agent a statement names, and where (actor, object, authority, team, instructor, a sub-statement's): `related_agents`. */
export const xapiStatementAgents = sqliteTable(
  "xapi_statement_agents",
  {
    seq: integer("seq")
      .notNull()
      .references(() => xapiStatements.seq, { onDelete: "cascade" }),
    agentKey: text("agent_key").notNull(),
    role: text("role").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentKey, t.seq, t.role] }), index("xapi_statement_agents_seq_idx").on(t.seq)],
);

/** Every activity a statement names (its object, its context's activities, a sub-statement's): `related_activities`. */
export const xapiStatementActivities = sqliteTable(
  "xapi_statement_activities",
  {
    seq: integer("seq")
      .notNull()
      .references(() => xapiStatements.seq, { onDelete: "cascade" }),
    activityId: text("activity_id").notNull(),
    role: text("role").notNull(),
  },
  (t) => [primaryKey({ columns: [t.activityId, t.seq, t.role] }), index("xapi_statement_activities_seq_idx").on(t.seq)],
);

/** The kinds of document the LRS keeps. */
export const XAPI_DOCUMENT_KINDS = ["state", "activity-profile", "agent-profile"] as const;
export type XapiDocumentKind = (typeof XAPI_DOCUMENT_KINDS)[number];

/**
 * State, activity profiles and agent profiles. Unused parts of the key are empty strings, so the unique
 * index holds (SQLite treats nulls as distinct). `etag` is the body's SHA-1 in hex.
 */
export const xapiDocuments = sqliteTable(
  "xapi_documents",
  {
    id: id(),
    kind: text("kind", { enum: XAPI_DOCUMENT_KINDS }).notNull(),
    activityId: text("activity_id").notNull().default(""),
    agentKey: text("agent_key").notNull().default(""),
    registration: text("registration").notNull().default(""),
    documentId: text("document_id").notNull(),
    contentType: text("content_type").notNull(),
    body: blob("body", { mode: "buffer" }).notNull(),
    etag: text("etag").notNull(),
    updated: integer("updated").notNull(),
    /** The credential that last wrote it (null: the LMS, or a credential since deleted); a `write` credential reaches only its own. */
    credentialId: integer("credential_id").references(() => xapiCredentials.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("xapi_documents_key_unique").on(t.kind, t.activityId, t.agentKey, t.registration, t.documentId)],
);

/** Activities' definitions as the statements that defined them left them (`GET /xapi/activities`). */
export const xapiActivities = sqliteTable("xapi_activities", {
  id: text("id").primaryKey(),
  definition: text("definition").notNull(),
});

/** Attachments' files (under the organization's files, `xapi/attachments/<sha2>`), by their SHA-256. */
export const xapiAttachments = sqliteTable("xapi_attachments", {
  sha2: text("sha2").primaryKey(),
  contentType: text("content_type").notNull(),
  length: integer("length").notNull(),
  stored: integer("stored").notNull(),
});

export type XapiCredential = typeof xapiCredentials.$inferSelect;
