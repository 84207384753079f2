import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { courses, lessons } from "./courses";
import { users } from "./people";

/*
 * What learners did (docs/product.md §7): their place in each lesson, their completions of courses (and
 * earlier ones), watch time per day, bookmarks and ratings.
 */

/** A learner's place in one lesson (docs/product.md §7 "lesson-progresses"). */
export const lessonProgress = sqliteTable(
  "lesson_progress",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    positionSeconds: integer("position_seconds").notNull().default(0),
    /** Seconds actually watched: each heartbeat adds at most the wall-clock time since the previous one. */
    watchedSeconds: integer("watched_seconds").notNull().default(0),
    lastHeartbeatAt: integer("last_heartbeat_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("lesson_progress_user_lesson_unique").on(t.userId, t.lessonId),
    index("lesson_progress_user_course_idx").on(t.userId, t.courseId),
    // A course's learners (issue 50: app/models/course-learner-list.server.ts): who has progress in it, and each
    // one's completed lessons and last activity, read from the course's own range without the table.
    index("lesson_progress_course_user_idx").on(t.courseId, t.userId, t.lessonId, t.completedAt, t.updatedAt),
  ],
);

/**
 * A person's completion of a course: one row per person and course, holding their latest completion. A
 * course with a validity (courses.validity_months) gives it an expiry day; completing it again after a
 * renewal was opened (app/models/completion-cycle.server.ts) moves the earlier completion to
 * `course_completion_history` and counts the cycle up (docs/decisions/035-recertification.md).
 */
export const courseCompletions = sqliteTable(
  "course_completions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    completedAt: integer("completed_at", { mode: "timestamp" }).notNull(),
    /** Which completion this is: 1 for the first, 2 after one renewal, … */
    cycle: integer("cycle").notNull().default(1),
    /** The last local day (YYYY-MM-DD, organization's zone) the completion is valid on; null: for good. */
    expiresOn: text("expires_on"),
    /** Set while a renewal is open (re-assigned, or taken again after expiry): lessons count again from then. */
    renewalStartedAt: integer("renewal_started_at", { mode: "timestamp" }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.courseId] }),
    index("course_completions_expiry_idx").on(t.expiresOn),
    index("course_completions_course_expiry_idx").on(t.courseId, t.expiresOn),
  ],
);

/** Earlier completions of a course, moved here when the person completed it again (their history). */
export const courseCompletionHistory = sqliteTable(
  "course_completion_history",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    cycle: integer("cycle").notNull(),
    completedAt: integer("completed_at", { mode: "timestamp" }).notNull(),
    expiresOn: text("expires_on"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId, t.cycle] })],
);

/** Watch time per learner and day, for analytics and the leaderboard (docs/product.md §3 KPIs, §9 widgets). */
export const watchTimeDaily = sqliteTable(
  "watch_time_daily",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    seconds: integer("seconds").notNull().default(0),
  },
  // day first: the leaderboard's "most watch time in 7 days" widget reads a window of days.
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("watch_time_daily_day_idx").on(t.day, t.userId, t.seconds)],
);

export const bookmarks = sqliteTable(
  "bookmarks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  },
  // created_at: the leaderboard's "most bookmarks in 30 days" widget reads a window, not the table.
  (t) => [primaryKey({ columns: [t.userId, t.courseId] }), index("bookmarks_created_user_idx").on(t.createdAt, t.userId)],
);

export const ratings = sqliteTable(
  "ratings",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    stars: integer("stars").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.courseId] }),
    check("ratings_stars_check", sql`${t.stars} between 1 and 5`),
    index("ratings_course_idx").on(t.courseId),
  ],
);

export type LessonProgress = typeof lessonProgress.$inferSelect;
export type CourseCompletion = typeof courseCompletions.$inferSelect;
