import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { courses } from "./courses";
import { groups } from "./groups";
import { users } from "./people";

/*
 * ——— Compliance assignments (issue 34; app/models/assignment.server.ts) ———
 * An assignment says "this course, for this person or for the members of this group (by hand or by its
 * rules), due on a fixed local day or N days after each person was assigned or joined". Its people are
 * materialized in `assignment_people`, one row per person: rows are added when the assignment is made and
 * when someone joins the group later, and are kept (marked `left_at`) when they leave, so history stays.
 */
export const ASSIGNMENT_TARGETS = ["person", "group"] as const;
export const ASSIGNMENT_DUE_KINDS = ["date", "days"] as const;

export const assignments = sqliteTable(
  "assignments",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    target: text("target", { enum: ASSIGNMENT_TARGETS }).notNull(),
    /** The person, for `target = person` (their assignment goes when they do). */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The group, for `target = group`; null once the group was deleted (its people keep their rows). */
    groupId: integer("group_id").references(() => groups.id, { onDelete: "set null" }),
    /** `date`: due on `due_date`; `days`: due `due_days` days after each person's assignment (or joining). */
    dueKind: text("due_kind", { enum: ASSIGNMENT_DUE_KINDS }).notNull(),
    /** A local day (YYYY-MM-DD) in the organization's time zone. */
    dueDate: text("due_date"),
    dueDays: integer("due_days"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    index("assignments_group_idx").on(t.groupId),
    index("assignments_user_idx").on(t.userId),
    index("assignments_course_idx").on(t.courseId),
    check(
      "assignments_target_check",
      sql`(${t.target} = 'person' and ${t.groupId} is null) or (${t.target} = 'group' and ${t.userId} is null)`,
    ),
    check(
      "assignments_due_check",
      sql`(${t.dueKind} = 'date' and ${t.dueDate} is not null and ${t.dueDays} is null) or (${t.dueKind} = 'days' and ${t.dueDays} between 0 and 3650 and ${t.dueDate} is null)`,
    ),
  ],
);

export const assignmentPeople = sqliteTable(
  "assignment_people",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** When the person was assigned: the assignment's creation, or their joining the group. */
    assignedAt: integer("assigned_at", { mode: "timestamp" }).notNull(),
    /** The local day (YYYY-MM-DD, organization's time zone) by the end of which the course is due. */
    dueOn: text("due_on").notNull(),
    /** When the course was completed (a completion before the assignment counts too); null while open. */
    completedAt: integer("completed_at", { mode: "timestamp" }),
    /** When the person left the group; their row is kept as history and no longer counts as open. */
    leftAt: integer("left_at", { mode: "timestamp" }),
    /**
     * The person's cycle of this assignment: 1, then one more each time recertification assigns the course
     * again before their completion expires (app/models/recertification.server.ts). Keys per-cycle work
     * such as reminders; the earlier cycle's completion stays in course_completion_history and certificates.
     */
    cycle: integer("cycle").notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.userId] }),
    index("assignment_people_user_idx").on(t.userId, t.dueOn),
    index("assignment_people_due_idx").on(t.assignmentId, t.dueOn),
  ],
);

export type Assignment = typeof assignments.$inferSelect;
export type AssignmentPerson = typeof assignmentPeople.$inferSelect;

/**
 * ——— Recertification (issue 34; app/models/recertification.server.ts) ———
 * Each time a person was assigned a course again because their completion was about to expire: once per
 * person, course and expiry day (the key), so the background job never re-assigns twice for one expiry,
 * however often it runs or is interrupted.
 */
export const recertifications = sqliteTable(
  "recertifications",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** The expiry day (course_completions.expires_on) this re-assignment was for. */
    expiresOn: text("expires_on").notNull(),
    /** The completion cycle that was expiring. */
    cycle: integer("cycle").notNull(),
    reassignedAt: integer("reassigned_at", { mode: "timestamp" }).notNull(),
    /** The new due day given to the person's assignments: the expiry day. */
    dueOn: text("due_on").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId, t.expiresOn] })],
);

export type Recertification = typeof recertifications.$inferSelect;
