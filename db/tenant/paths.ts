import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { certificateTemplates } from "./certificates";
import { categories, courses } from "./courses";
import { badges } from "./leaderboard";
import { ASSIGNMENT_DUE_KINDS, ASSIGNMENT_TARGETS } from "./assignments";
import { groups } from "./groups";
import { users } from "./people";

/*
 * Learning paths (issue 49, docs/decisions/045-learning-paths.md): a program of courses a person is given,
 * follows and finishes. A path is made of ordered steps; a step is one course, or a choice of any N of its
 * courses, and may open only some days after the step before it is done. Its access rules are a course's
 * (blocked by default, open to some groups); its courses keep their own.
 */

export const PATH_STEP_KINDS = ["course", "choice"] as const;
export type PathStepKind = (typeof PATH_STEP_KINDS)[number];

export const learningPaths = sqliteTable(
  "learning_paths",
  {
    id: id(),
    title: text("title").notNull(),
    /** Rich text, sanitised with an allowlist when saved (as a course's). */
    description: text("description").notNull().default(""),
    coverFileId: integer("cover_file_id"),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    blockDefaultAccess: integer("block_default_access", { mode: "boolean" }).notNull().default(false),
    forceGroups: integer("force_groups", { mode: "boolean" }).notNull().default(false),
    /** Whether a learner who may see the path may enrol themselves (otherwise it is assigned). */
    selfEnrol: integer("self_enrol", { mode: "boolean" }).notNull().default(true),
    allowCertificates: integer("allow_certificates", { mode: "boolean" }).notNull().default(false),
    /** Points awarded when the path is done in place of the "path completed" activity's (0: the activity's). */
    points: integer("points").notNull().default(0),
    /** The template of its certificate; null: the organization's default. */
    certificateTemplateId: integer("certificate_template_id").references(() => certificateTemplates.id, { onDelete: "set null" }),
    /** A badge given when the path is done; null: none. */
    badgeId: integer("badge_id").references(() => badges.id, { onDelete: "set null" }),
    /** A completion of the path is valid this many months (1–120); null: for good. */
    validityMonths: integer("validity_months"),
    /** With a validity: its assigned holders are assigned the path again this many days before it expires. */
    reassignDaysBefore: integer("reassign_days_before").notNull().default(30),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("learning_paths_published_position_idx").on(t.published, t.position),
    check("learning_paths_points_check", sql`${t.points} >= 0`),
  ],
);

export const pathSteps = sqliteTable(
  "path_steps",
  {
    id: id(),
    pathId: integer("path_id")
      .notNull()
      .references(() => learningPaths.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    kind: text("kind", { enum: PATH_STEP_KINDS }).notNull().default("course"),
    /** A choice's title ("Two electives"); a course step shows its course's. */
    title: text("title").notNull().default(""),
    /** How many of a choice's courses make the step done (1 for a course step). */
    required: integer("required").notNull().default(1),
    /** Days after the step before it is done that this one opens (spaced learning); 0: at once. */
    delayDays: integer("delay_days").notNull().default(0),
  },
  (t) => [
    uniqueIndex("path_steps_path_position_unique").on(t.pathId, t.position),
    check("path_steps_kind_check", sql`${t.kind} in ('course','choice')`),
    check("path_steps_required_check", sql`${t.required} >= 1`),
    check("path_steps_delay_check", sql`${t.delayDays} between 0 and 365`),
  ],
);

export const pathStepCourses = sqliteTable(
  "path_step_courses",
  {
    stepId: integer("step_id")
      .notNull()
      .references(() => pathSteps.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.stepId, t.courseId] }), index("path_step_courses_course_idx").on(t.courseId)],
);

/** The groups a path is open to (as group_courses for a course). */
export const pathGroups = sqliteTable(
  "path_groups",
  {
    pathId: integer("path_id")
      .notNull()
      .references(() => learningPaths.id, { onDelete: "cascade" }),
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.pathId, t.groupId] }), index("path_groups_group_idx").on(t.groupId)],
);

export const PATH_ENROLMENT_SOURCES = ["self", "assigned"] as const;

/** A person on a path: enrolled by themselves or by an assignment, done once every step is. */
export const pathEnrolments = sqliteTable(
  "path_enrolments",
  {
    pathId: integer("path_id")
      .notNull()
      .references(() => learningPaths.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    source: text("source", { enum: PATH_ENROLMENT_SOURCES }).notNull().default("self"),
    enrolledAt: integer("enrolled_at", { mode: "timestamp" }).notNull(),
    completedAt: integer("completed_at", { mode: "timestamp" }),
    /** Which completion this is: 1 for the first, 2 after one renewal (recertification), … */
    cycle: integer("cycle").notNull().default(1),
    /** The last local day (YYYY-MM-DD) the completion is valid on; null: for good. */
    expiresOn: text("expires_on"),
  },
  (t) => [
    primaryKey({ columns: [t.pathId, t.userId] }),
    index("path_enrolments_user_idx").on(t.userId),
    // The completions coming up for re-assignment, per path (app/models/paths/recertification.server.ts).
    index("path_enrolments_expiry_idx").on(t.pathId, t.expiresOn).where(sql`expires_on is not null`),
  ],
);

/*
 * ——— A path assigned (issue 49), as a course is (db/tenant/assignments.ts): to a person or a group's members, due
 * on a local day or N days after each person was assigned or joined. Its people are materialized in
 * `path_assignment_people`, one row each, kept (marked `left_at`) when they leave the group; each is enrolled on
 * the path (`path_enrolments.source = assigned` when the assignment brought them).
 */
export const pathAssignments = sqliteTable(
  "path_assignments",
  {
    id: id(),
    pathId: integer("path_id")
      .notNull()
      .references(() => learningPaths.id, { onDelete: "cascade" }),
    target: text("target", { enum: ASSIGNMENT_TARGETS }).notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => groups.id, { onDelete: "set null" }),
    dueKind: text("due_kind", { enum: ASSIGNMENT_DUE_KINDS }).notNull(),
    dueDate: text("due_date"),
    dueDays: integer("due_days"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    index("path_assignments_path_idx").on(t.pathId),
    index("path_assignments_group_idx").on(t.groupId),
    index("path_assignments_user_idx").on(t.userId),
    check(
      "path_assignments_target_check",
      sql`(${t.target} = 'person' and ${t.groupId} is null) or (${t.target} = 'group' and ${t.userId} is null)`,
    ),
    check(
      "path_assignments_due_check",
      sql`(${t.dueKind} = 'date' and ${t.dueDate} is not null and ${t.dueDays} is null) or (${t.dueKind} = 'days' and ${t.dueDays} between 0 and 3650 and ${t.dueDate} is null)`,
    ),
  ],
);

export const pathAssignmentPeople = sqliteTable(
  "path_assignment_people",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => pathAssignments.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    assignedAt: integer("assigned_at", { mode: "timestamp" }).notNull(),
    /** The local day (YYYY-MM-DD, organization's zone) by the end of which the path is due. */
    dueOn: text("due_on").notNull(),
    /** When the path was done (a completion before the assignment counts too); null while open. */
    completedAt: integer("completed_at", { mode: "timestamp" }),
    leftAt: integer("left_at", { mode: "timestamp" }),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.userId] }),
    index("path_assignment_people_user_idx").on(t.userId, t.dueOn),
    index("path_assignment_people_due_idx").on(t.assignmentId, t.dueOn),
  ],
);

export type LearningPath = typeof learningPaths.$inferSelect;
export type PathAssignment = typeof pathAssignments.$inferSelect;
export type PathStep = typeof pathSteps.$inferSelect;
export type PathEnrolment = typeof pathEnrolments.$inferSelect;
