import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { personColumns } from "../auth-columns";
import { timestamps } from "../columns";
import { USER_ROLES } from "../vocabulary";

/*
 * The people of an organization (docs/product.md §3): their accounts and roles, and the organization's
 * defaults for new people. How they sign in is in sign-in.ts and sso.ts.
 */

export const users = sqliteTable(
  "users",
  {
    ...personColumns(),
    role: text("role", { enum: USER_ROLES }),
    /**
     * Watch time is credited up to this moment (ms) and never past the wall clock: one clock per person,
     * whatever the number of lessons or devices sending heartbeats.
     */
    watchCreditedUntil: integer("watch_credited_until"),
    /** When the lesson player's instructions were shown to this person (docs/product.md §7 "player-window"). */
    playerInstructionsShownAt: integer("player_instructions_shown_at", { mode: "timestamp" }),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    index("users_created_at_idx").on(t.createdAt),
    // The people list in name order (issue 50, app/models/user-list.server.ts): any page read along the index.
    index("users_name_idx").on(t.lastName, t.firstName),
  ],
);

/** The organization's defaults for new people (the users screen's "settings"): one row, id 1. */
export const userSettings = sqliteTable(
  "user_settings",
  {
    id: integer("id").primaryKey(),
    defaultLanguage: text("default_language"),
    /** Groups every new person joins (by hand, so they stay), as a JSON array of group ids. */
    defaultGroupIds: text("default_group_ids", { mode: "json" }).$type<number[]>().notNull().default(sql`'[]'`),
    /** Whether people added by a CSV import are mailed an invitation (after the import commits). */
    inviteImported: integer("invite_imported", { mode: "boolean" }).notNull().default(true),
    /** How many days the audit of what admins did is kept (issue 50; server/audit-retention.ts); null: for ever. */
    auditRetentionDays: integer("audit_retention_days").default(730),
    ...timestamps(),
  },
  (t) => [check("user_settings_single_row", sql`${t.id} = 1`)],
);

export type User = typeof users.$inferSelect;
