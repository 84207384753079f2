import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { COURSE_TYPES, LESSON_KINDS } from "../vocabulary";
import { files } from "./files";

/*
 * The catalogue (docs/product.md §3): categories, courses, their lessons, materials and links, and the
 * carousels that show them.
 */

export const categories = sqliteTable("categories", {
  id: id(),
  name: text("name").notNull(),
  position: integer("position").notNull().default(0),
  /** Learner home and browsing (issue 18): an image of the file library shown on /categories. */
  coverFileId: integer("cover_file_id"),
  ...timestamps(),
});

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
    /** The course that must be completed before this one opens (docs/product.md §4 "enforce order"). */
    prerequisiteCourseId: integer("prerequisite_course_id").references((): AnySQLiteColumn => courses.id, {
      onDelete: "set null",
    }),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    allowCertificates: integer("allow_certificates", { mode: "boolean" }).notNull().default(false),
    allowQuizzes: integer("allow_quizzes", { mode: "boolean" }).notNull().default(false),
    forceGroups: integer("force_groups", { mode: "boolean" }).notNull().default(false),
    /** For external-link courses. */
    externalUrl: text("external_url"),
    /** For download courses: the file to download (docs/product.md §1 "download (a file such as a PDF)"). */
    fileId: integer("file_id"),
    coverFileId: integer("cover_file_id"),
    /** Lessons can require all earlier lessons to be seen (docs/product.md §4). */
    sequentialLessons: integer("sequential_lessons", { mode: "boolean" }).notNull().default(false),
    position: integer("position").notNull().default(0),
    // ——— Recertification (issue 34; app/models/recertification.server.ts, docs/decisions/035-recertification.md) ———
    /** A completion of this course is valid this many months (1–120); null: for good. */
    validityMonths: integer("validity_months"),
    /** Its holders are assigned the course again this many days (1–365) before their completion expires. */
    reassignDaysBefore: integer("reassign_days_before").notNull().default(30),
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

/** A course's lessons (episodes), in order (docs/product.md §3 Lesson: text, image, quiz, video, interactive/scorm). */
export const lessons = sqliteTable(
  "lessons",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    kind: text("kind", { enum: LESSON_KINDS }).notNull().default("text"),
    /** Rich text (text lessons, and the introduction of any lesson), sanitised when saved. */
    body: text("body").notNull().default(""),
    /** An uploaded image or video. */
    fileId: integer("file_id").references(() => files.id, { onDelete: "set null" }),
    /** A video hosted elsewhere. */
    videoUrl: text("video_url"),
    durationSeconds: integer("duration_seconds"),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("lessons_course_position_idx").on(t.courseId, t.position)],
);

/** Files attached to a course for learners to download (docs/product.md §3 "materials"). */
export const materials = sqliteTable(
  "materials",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("materials_course_idx").on(t.courseId, t.position)],
);

export const links = sqliteTable(
  "links",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    url: text("url").notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("links_course_idx").on(t.courseId, t.position)],
);

export const carousels = sqliteTable("carousels", {
  id: id(),
  title: text("title").notNull(),
  published: integer("published", { mode: "boolean" }).notNull().default(false),
  position: integer("position").notNull().default(0),
  /** Learner home and browsing (issue 18): an image of the file library shown on /carousels. */
  coverFileId: integer("cover_file_id"),
  ...timestamps(),
});

export const carouselCourses = sqliteTable(
  "carousel_courses",
  {
    carouselId: integer("carousel_id")
      .notNull()
      .references(() => carousels.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.carouselId, t.courseId] })],
);

export type Category = typeof categories.$inferSelect;
export type Lesson = typeof lessons.$inferSelect;
export type Material = typeof materials.$inferSelect;
export type Link = typeof links.$inferSelect;
export type Carousel = typeof carousels.$inferSelect;
