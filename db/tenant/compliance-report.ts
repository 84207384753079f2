import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/*
 * ——— Compliance report (issue 34; app/models/compliance.server.ts, docs/decisions/037-compliance-report.md) ———
 * What the report counts, kept current by triggers (migration `compliance_triggers`) on every write to
 * assignment_people, assignments, group_members, lesson_progress, courses and users, whichever code makes it,
 * so the report reads a few hundred counters instead of scanning every person's assignments.
 */

/**
 * One row per person and course they are **currently assigned**: at least one of their assignment_people
 * rows of the course has no `left_at` (their own assignment, a group they are still in, or a group since
 * deleted). Rows of groups they left are history and are not counted here.
 */
export const compliancePeople = sqliteTable(
  "compliance_people",
  {
    courseId: integer("course_id").notNull(),
    userId: integer("user_id").notNull(),
    /** Every current assignment row of the course is done. */
    done: integer("done", { mode: "boolean" }).notNull(),
    /** The earliest due day (YYYY-MM-DD, organization's zone) of the open rows; when done, the latest of all. */
    dueOn: text("due_on").notNull(),
    /** The person has lesson progress in the course (the assignment model's "started"). */
    started: integer("started", { mode: "boolean" }).notNull().default(false),
    /** The latest completion among the rows, when any. */
    completedAt: integer("completed_at", { mode: "timestamp" }),
    /** The day the person's completion expires (recertification); null while completions do not expire. */
    expiresOn: text("expires_on"),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.userId] }),
    index("compliance_people_course_idx").on(t.courseId, t.done, t.dueOn, t.userId),
    index("compliance_people_due_idx").on(t.done, t.dueOn, t.courseId, t.userId),
    index("compliance_people_user_idx").on(t.userId),
  ],
);

/**
 * compliance_people counted per group (0: everyone; otherwise the group's current members) and course, by
 * what does not change as days pass: assigned, done, and open with lesson progress (started). The report's
 * other numbers are these less the overdue ones (compliance_counts), so a report reads one row per group and
 * course plus the counters of past due days. Rows whose `assigned` reaches 0 are removed.
 */
export const complianceTotals = sqliteTable(
  "compliance_totals",
  {
    groupId: integer("group_id").notNull(),
    courseId: integer("course_id").notNull(),
    assigned: integer("assigned").notNull(),
    done: integer("done").notNull(),
    started: integer("started").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.courseId] })],
);

/**
 * compliance_people counted by what decides a state on a given day: per group (as compliance_totals), done or
 * not, the due day (open rows; '' when done), course, started (open rows) and the expiry day ('' when none).
 * In this order a group's overdue people on any day are one range of its keys (open, due before the day), and
 * the expiry index makes those expiring soon another; nothing goes stale as days pass. Rows whose count
 * reaches 0 are removed.
 */
export const complianceCounts = sqliteTable(
  "compliance_counts",
  {
    groupId: integer("group_id").notNull(),
    done: integer("done", { mode: "boolean" }).notNull(),
    dueOn: text("due_on").notNull(),
    courseId: integer("course_id").notNull(),
    started: integer("started", { mode: "boolean" }).notNull(),
    expiresOn: text("expires_on").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.done, t.dueOn, t.courseId, t.started, t.expiresOn] }),
    index("compliance_counts_expiry_idx").on(t.groupId, t.expiresOn, t.courseId, t.n),
  ],
);
