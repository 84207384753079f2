import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { GROUP_RULE_FIELDS, GROUP_RULE_OPERATORS } from "../vocabulary";
import { courses } from "./courses";
import { users } from "./people";

/*
 * Groups of people and what they give (docs/product.md §3, docs/decisions/017-groups-and-import.md):
 * members and group admins, the courses a group may take, and the rules of rule groups.
 */

/** Groups of people (docs/product.md §3): members, and the members who administer the group. */
export const groups = sqliteTable("groups", {
  id: id(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  // --- Groups and import (issue 14, docs/decisions/017-groups-and-import.md) ---
  /** An uploaded image (files.kind = image) shown on the group's card. */
  coverFileId: integer("cover_file_id"),
  /** How the group's rules combine: every rule must hold ("all") or one is enough ("any"). */
  ruleMatch: text("rule_match", { enum: ["all", "any"] })
    .notNull()
    .default("all"),
  // --- end groups and import ---
  ...timestamps(),
});

export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    // --- Groups and import (issue 14): how the person became a member. "manual" members stay until
    // removed by hand; "rule" members come and go as the group's rules are recomputed. ---
    source: text("source", { enum: ["manual", "rule"] })
      .notNull()
      .default("manual"),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);

/** Which groups may take a course that is blocked by default or limited to its groups (docs/product.md §3, §4). */
export const groupCourses = sqliteTable(
  "group_courses",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.courseId] }), index("group_courses_course_idx").on(t.courseId)],
);

/**
 * Rule groups (docs/product.md §3 "rule, operator, value"): a person who matches the group's rules (all or any) is a
 * member. A rule about a course or another group names it by foreign key, so deleting the course or group
 * deletes the rule instead of leaving it pointing at nothing.
 */
export const groupRules = sqliteTable(
  "group_rules",
  {
    id: id(),
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    field: text("field", { enum: GROUP_RULE_FIELDS }).notNull(),
    operator: text("operator", { enum: GROUP_RULE_OPERATORS }).notNull(),
    value: text("value").notNull().default(""),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "cascade" }),
    otherGroupId: integer("other_group_id").references(() => groups.id, { onDelete: "cascade" }),
  },
  (t) => [index("group_rules_group_idx").on(t.groupId), index("group_rules_other_group_idx").on(t.otherGroupId)],
);

export type Group = typeof groups.$inferSelect;
export type GroupRule = typeof groupRules.$inferSelect;
