import { index, integer, real, sqliteTable, text, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { lessons } from "./courses";
import { users } from "./people";
import { xapiCredentials } from "./xapi";

/*
 * xAPI and cmi5 packages as lessons (issue 48, docs/decisions/044-xapi-cmi5-packages.md): a lesson's package,
 * each learner's registrations of it (a retake or a review starts a new one; the old ones stay), each AU's
 * state in a registration, and each launch (a cmi5 session) with its one-use fetch token and its credential.
 */

export const PACKAGE_KINDS = ["xapi", "cmi5"] as const;
export type PackageKindColumn = (typeof PACKAGE_KINDS)[number];

/**
 * The package of a lesson: its kind, title and structure (app/models/packages/: a cmi5 course, or an xAPI
 * package's activities), and the folder its files were unpacked into under `<organization folder>/scorm/`
 * (none for a bare cmi5.xml, whose AUs live elsewhere).
 */
export const contentPackages = sqliteTable(
  "content_packages",
  {
    id: id(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PACKAGE_KINDS }).notNull(),
    title: text("title").notNull(),
    folder: text("folder"),
    structure: text("structure", { mode: "json" }).$type<unknown>().notNull(),
    fileCount: integer("file_count").notNull(),
    unpackedBytes: integer("unpacked_bytes").notNull(),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("content_packages_lesson_unique").on(t.lessonId)],
);

/** A learner's registration of a package lesson (cmi5's registration; an xAPI package's too). */
export const packageRegistrations = sqliteTable(
  "package_registrations",
  {
    id: id(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    registration: text("registration").notNull(),
    startedAt: integer("started_at", { mode: "timestamp" }).notNull(),
    /** When the course (cmi5) or package (xAPI) was satisfied in this registration. */
    satisfiedAt: integer("satisfied_at", { mode: "timestamp" }),
    /** Set when a newer registration took its place (a retake): kept as history. */
    closedAt: integer("closed_at", { mode: "timestamp" }),
  },
  (t) => [
    uniqueIndex("package_registrations_registration_unique").on(t.registration),
    index("package_registrations_learner_idx").on(t.userId, t.lessonId),
  ],
);

/** An AU's state in a registration: what its statements (and the LMS) recorded, and when it met its moveOn. */
export const cmi5AuStates = sqliteTable(
  "cmi5_au_states",
  {
    registrationId: integer("registration_id")
      .notNull()
      .references(() => packageRegistrations.id, { onDelete: "cascade" }),
    /** The AU's id in the course structure (its publisher id). */
    auId: text("au_id").notNull(),
    completed: integer("completed", { mode: "boolean" }).notNull().default(false),
    passed: integer("passed", { mode: "boolean" }).notNull().default(false),
    failed: integer("failed", { mode: "boolean" }).notNull().default(false),
    score: real("score"),
    waivedReason: text("waived_reason"),
    satisfiedAt: integer("satisfied_at", { mode: "timestamp" }),
  },
  (t) => [primaryKey({ columns: [t.registrationId, t.auId] })],
);

export const LAUNCH_MODES = ["Normal", "Browse", "Review"] as const;
export const LAUNCH_ENDS = ["terminated", "abandoned"] as const;

/**
 * A launch of an AU (a cmi5 session) or of an xAPI package: its session id, mode, credential (scope `actor`,
 * bound to the learner and the registration, ending with the launch), the one-use fetch token as its hash,
 * the cmi5 verbs the AU has sent, and how it ended.
 */
export const packageLaunches = sqliteTable(
  "package_launches",
  {
    id: id(),
    registrationId: integer("registration_id")
      .notNull()
      .references(() => packageRegistrations.id, { onDelete: "cascade" }),
    auId: text("au_id").notNull(),
    sessionId: text("session_id").notNull(),
    launchMode: text("launch_mode", { enum: LAUNCH_MODES }).notNull(),
    credentialId: integer("credential_id").references(() => xapiCredentials.id, { onDelete: "set null" }),
    fetchTokenHash: text("fetch_token_hash"),
    fetchedAt: integer("fetched_at", { mode: "timestamp" }),
    /** When the AU read the learner's preferences (cmi5 §11: before its initialized statement, which waits for it). */
    preferencesReadAt: integer("preferences_read_at", { mode: "timestamp" }),
    sent: text("sent", { mode: "json" }).$type<string[]>().notNull().default([]),
    launchedAt: integer("launched_at", { mode: "timestamp" }).notNull(),
    lastStatementAt: integer("last_statement_at", { mode: "timestamp" }),
    endedAt: integer("ended_at", { mode: "timestamp" }),
    endedBy: text("ended_by", { enum: LAUNCH_ENDS }),
  },
  (t) => [
    uniqueIndex("package_launches_session_unique").on(t.sessionId),
    uniqueIndex("package_launches_fetch_unique").on(t.fetchTokenHash),
    uniqueIndex("package_launches_credential_unique").on(t.credentialId),
    index("package_launches_registration_idx").on(t.registrationId, t.auId),
  ],
);

export type ContentPackage = typeof contentPackages.$inferSelect;
export type PackageRegistration = typeof packageRegistrations.$inferSelect;
export type PackageLaunch = typeof packageLaunches.$inferSelect;
