import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { loginThrottleColumns, resetTokenColumns, sessionColumns } from "../auth-columns";
import { id } from "../columns";
import { users } from "./people";

/*
 * How people prove who they are (docs/decisions/007-authentication.md): sessions, password-reset and
 * sign-in codes, failed sign-ins (db/auth-columns.ts), and API tokens for scripts and apps.
 */

export const sessions = sqliteTable(
  "sessions",
  {
    ...sessionColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("sessions_token_hash_unique").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    ...resetTokenColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  // The user's recent tokens are counted before each requested mail (app/models/auth/tokens.server.ts).
  (t) => [
    uniqueIndex("password_resets_token_hash_unique").on(t.tokenHash),
    index("password_resets_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * When each person was last active (issue 50: the people list's "last active" filter and sort, a person's page):
 * moved when they sign in and as their sessions are used (app/models/auth/session.server.ts, at most every few
 * minutes). Kept apart from `users`, whose updates move the learner pages' versions, and from `sessions`, which are
 * deleted when a person signs out.
 */
export const userActivity = sqliteTable(
  "user_activity",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    lastActiveAt: integer("last_active_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [index("user_activity_last_active_idx").on(t.lastActiveAt)],
);

/** Single-use sign-in codes, exchanged by POST /api/auth/magic-link or the /auth/magic page. */
export const magicLinks = sqliteTable(
  "magic_links",
  {
    ...resetTokenColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("magic_links_token_hash_unique").on(t.tokenHash), index("magic_links_user_created_idx").on(t.userId, t.createdAt)],
);

/** Failed sign-ins per account and client (db/auth-columns.ts); rows a day old are swept away. */
export const loginThrottle = sqliteTable(
  "login_throttle",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...loginThrottleColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.client] }), index("login_throttle_last_failure_idx").on(t.lastFailureAt)],
);

/**
 * API tokens for scripts and apps: a name, a subset of the creator's capabilities (JSON array), an
 * expiry. Stored as SHA-256. `user_id` is the person whose rights bound the token; null for tokens a
 * super-admin made for the organization.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    capabilities: text("capabilities", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp" }),
  },
  (t) => [uniqueIndex("api_tokens_token_hash_unique").on(t.tokenHash)],
);

export type Session = typeof sessions.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
