import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { users } from "./people";

/*
 * ——— Reminders by e-mail and weekly digests (issue 34; app/models/reminders.server.ts,
 * docs/decisions/038-reminders.md) ———
 * Every reminder a person may get is recorded here under a unique key (person, assignment of a course or a
 * path, kind, the due day
 * it is for and, for overdue ones, the week of being overdue), claimed in a transaction before its mail is
 * sent: a key is never mailed twice, whatever restarts or crashes come between.
 */
export const REMINDER_KINDS = ["assigned", "before", "due", "overdue"] as const;
/**
 * sending: claimed, its mail under way (found so by a later run: the process stopped mid-send, and whether
 * it went out is unknown, so it is never sent again: `unknown`); sent; failed: the mail server refused or
 * could not be reached, tried again later while it still applies; skipped: a more timely mail said the same.
 */
/** What an assignment a reminder is for assigns: a course (`assignments`) or a learning path (`path_assignments`, issue 49). */
export const REMINDER_SUBJECTS = ["course", "path"] as const;
export const REMINDER_STATUSES = ["sending", "sent", "failed", "skipped", "unknown"] as const;

/** The organization's reminder settings: one row, id 1 (absent: every kind on, 3 days before). */
export const reminderSettings = sqliteTable(
  "reminder_settings",
  {
    id: integer("id").primaryKey(),
    onAssignment: integer("on_assignment", { mode: "boolean" }).notNull().default(true),
    beforeDue: integer("before_due", { mode: "boolean" }).notNull().default(true),
    /** How many days before the due day the "due soon" reminder goes. */
    daysBefore: integer("days_before").notNull().default(3),
    onDueDate: integer("on_due_date", { mode: "boolean" }).notNull().default(true),
    whileOverdue: integer("while_overdue", { mode: "boolean" }).notNull().default(true),
    /** The weekly digest of overdue people for organization and group admins. */
    weeklyDigest: integer("weekly_digest", { mode: "boolean" }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    check("reminder_settings_single_row", sql`${t.id} = 1`),
    check("reminder_settings_days_before", sql`${t.daysBefore} between 1 and 30`),
  ],
);

export const reminders = sqliteTable(
  "reminders",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * No foreign key: a reminder stays on record when its assignment is deleted (what was sent, and when),
     * and an index on this column, which a cascade would need, cost a run a fifth of its time (the
     * bench's 10,000 learners; docs/decisions/038-reminders.md). Assignment ids are never reused.
     */
    assignmentId: integer("assignment_id").notNull(),
    /** Which table `assignment_id` names: their ids are two sequences. */
    subject: text("subject", { enum: REMINDER_SUBJECTS }).notNull().default("course"),
    kind: text("kind", { enum: REMINDER_KINDS }).notNull(),
    /** The due day (YYYY-MM-DD) the reminder is for: a new due day (re-assigned) is a new cycle. */
    dueOn: text("due_on").notNull(),
    /** For `overdue`: the week of being overdue (1 from the day after the due day); 0 otherwise. */
    week: integer("week").notNull().default(0),
    status: text("status", { enum: REMINDER_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** A failed one is tried again from then. */
    retryAt: integer("retry_at", { mode: "timestamp" }),
    claimedAt: integer("claimed_at", { mode: "timestamp" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp" }),
  },
  (t) => [
    // Person first: a person's claims of one run sit on one page (each claim is a commit of its own), and
    // deleting a person (the cascade above) finds theirs by it.
    uniqueIndex("reminders_key_unique").on(t.userId, t.subject, t.assignmentId, t.kind, t.dueOn, t.week),
    // Only claims under way: a run looks for those left by a crash (a full index would change on every send).
    index("reminders_sending_idx").on(t.status).where(sql`status = 'sending'`),
  ],
);

/** The weekly digest of overdue people, one per admin and ISO week (the organization's), same claims. */
export const reminderDigests = sqliteTable(
  "reminder_digests",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `2026-W48`, in the organization's time zone. */
    week: text("week").notNull(),
    status: text("status", { enum: [...REMINDER_STATUSES, "empty"] as const }).notNull(),
    /** How many overdue people (and courses) it listed. */
    overdue: integer("overdue").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    retryAt: integer("retry_at", { mode: "timestamp" }),
    claimedAt: integer("claimed_at", { mode: "timestamp" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp" }),
  },
  (t) => [
    uniqueIndex("reminder_digests_user_week_unique").on(t.userId, t.week),
    index("reminder_digests_sending_idx").on(t.status).where(sql`status = 'sending'`),
  ],
);

/** People who turned reminders and digests off (one click in a reminder, or their profile settings). */
export const reminderOptOuts = sqliteTable("reminder_opt_outs", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  at: integer("at", { mode: "timestamp" }).notNull(),
});

export type ReminderSettings = typeof reminderSettings.$inferSelect;
export type Reminder = typeof reminders.$inferSelect;
