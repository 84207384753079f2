import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

/**
 * One organization's own database (`<DATA_DIR>/org-<id>/db.sqlite`). Each feature adds its tables here
 * and by a new migration in migrations/tenant/.
 */

export const categories = sqliteTable("categories", {
  id: id(),
  name: text("name").notNull(),
  position: integer("position").notNull().default(0),
  ...timestamps(),
});

export const COURSE_TYPES = ["movie", "series", "download", "external_link"] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

export const courses = sqliteTable(
  "courses",
  {
    id: id(),
    title: text("title").notNull(),
    /** Rich text, sanitised with an allowlist when saved. */
    description: text("description").notNull().default(""),
    type: text("type", { enum: COURSE_TYPES }).notNull().default("movie"),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    blockDefaultAccess: integer("block_default_access", { mode: "boolean" }).notNull().default(false),
    /** The course that must be completed before this one opens (spec §4 "enforce order"). */
    prerequisiteCourseId: integer("prerequisite_course_id").references((): any => courses.id, {
      onDelete: "set null",
    }),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    allowCertificates: integer("allow_certificates", { mode: "boolean" }).notNull().default(false),
    allowQuizzes: integer("allow_quizzes", { mode: "boolean" }).notNull().default(false),
    forceGroups: integer("force_groups", { mode: "boolean" }).notNull().default(false),
    /** For external-link courses. */
    externalUrl: text("external_url"),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("courses_published_position_idx").on(t.published, t.position),
    index("courses_category_idx").on(t.categoryId),
    check("courses_type_check", sql`${t.type} in ('movie','series','download','external_link')`),
  ],
);

export type Course = typeof courses.$inferSelect;
export type NewCourse = typeof courses.$inferInsert;
