import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { ACTIVITY_KINDS, BADGE_RULES } from "../vocabulary";
import { users } from "./people";

/* Leaderboard: points, levels, badges (issue 13, docs/decisions/016-leaderboard.md). */

/** One row (id 1): the organization's calendar for streaks and weekly/monthly boards. */
export const leaderboardSettings = sqliteTable("leaderboard_settings", {
  id: integer("id").primaryKey(),
  /** IANA time zone; streaks count calendar days here (the spec's Danish default). */
  timeZone: text("time_zone").notNull().default("Europe/Copenhagen"),
  /** Boards count from these moments on, per period (an admin's reset); null = never reset. */
  resetAllAt: integer("reset_all_at", { mode: "timestamp" }),
  resetMonthAt: integer("reset_month_at", { mode: "timestamp" }),
  resetWeekAt: integer("reset_week_at", { mode: "timestamp" }),
  ...timestamps(),
});

/** Points per activity, editable by admins; a switched-off activity awards nothing. */
export const leaderboardActivities = sqliteTable(
  "leaderboard_activities",
  {
    kind: text("kind", { enum: ACTIVITY_KINDS }).primaryKey(),
    points: integer("points").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** At most this many awards of the activity per learner and calendar day; null = no cap. */
    dailyCap: integer("daily_cap"),
    ...timestamps(),
  },
  (t) => [check("leaderboard_activities_points_check", sql`${t.points} between 0 and 100000`)],
);

/**
 * The append-only points ledger. (user, activity, ref) is unique, so a repeated event (the same completion
 * posted 50 times, a bookmark toggled off and on) awards once. Totals below are maintained from it.
 */
export const pointsLedger = sqliteTable(
  "points_ledger",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activity: text("activity", { enum: ACTIVITY_KINDS }).notNull(),
    /** What earned it, e.g. `lesson:12`, `quiz:3`, `day:2026-11-23`. */
    ref: text("ref").notNull(),
    courseId: integer("course_id"),
    points: integer("points").notNull(),
    /** Calendar day in the organization's time zone (daily caps). */
    day: text("day").notNull(),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [
    uniqueIndex("points_ledger_award_unique").on(t.userId, t.activity, t.ref),
    index("points_ledger_user_activity_day_idx").on(t.userId, t.activity, t.day),
    index("points_ledger_created_idx").on(t.createdAt),
  ],
);

export const BOARD_PERIODS = ["life", "all", "month", "week", "course"] as const;
export type BoardPeriod = (typeof BOARD_PERIODS)[number];

/**
 * Maintained sums of the ledger per learner and board: `life` (never reset; levels), `all` (the all-time
 * board, resettable), `month` (key `2026-11`), `week` (key `2026-W47`), `course` (key = course id).
 */
export const pointsTotals = sqliteTable(
  "points_totals",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    period: text("period", { enum: BOARD_PERIODS }).notNull(),
    key: text("key").notNull(),
    points: integer("points").notNull().default(0),
    /** Copy of the learner's opt-out, so a board reads one index range without a join. */
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.period, t.key] }),
    index("points_totals_board_idx").on(t.period, t.key, t.hidden, t.points, t.userId),
  ],
);

/**
 * How many visible learners hold each points value on each board. A rank is 1 + the learners above, read
 * from the few distinct values above one's own instead of counting everyone (cheap at 100,000 learners).
 */
export const pointsHistogram = sqliteTable(
  "points_histogram",
  {
    period: text("period", { enum: BOARD_PERIODS }).notNull(),
    key: text("key").notNull(),
    points: integer("points").notNull(),
    learners: integer("learners").notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.key, t.points] })],
);

/** Per learner: opt-out, counters the badge rules read, and the daily streak. */
export const learnerStats = sqliteTable(
  "learner_stats",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
    lessonsCompleted: integer("lessons_completed").notNull().default(0),
    coursesCompleted: integer("courses_completed").notNull().default(0),
    quizzesPassed: integer("quizzes_passed").notNull().default(0),
    perfectQuizzes: integer("perfect_quizzes").notNull().default(0),
    bookmarks: integer("bookmarks").notNull().default(0),
    currentStreak: integer("current_streak").notNull().default(0),
    longestStreak: integer("longest_streak").notNull().default(0),
    /** Last calendar day (organization's time zone) with learning activity. */
    lastActiveDay: text("last_active_day"),
  },
  (t) => [index("learner_stats_streak_idx").on(t.hidden, t.currentStreak, t.lastActiveDay)],
);

/** Named thresholds of lifetime points, each shown with a badge image (docs/product.md §3 "leaderboard levels"). */
export const levels = sqliteTable(
  "levels",
  {
    id: id(),
    name: text("name").notNull(),
    threshold: integer("threshold").notNull(),
    /** The badge's colour (#rrggbb); the image is drawn from it and the level's initial. */
    color: text("color").notNull().default("#6366f1"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("levels_threshold_unique").on(t.threshold)],
);

/** Milestones: a badge is earned when the learner's counter for `rule` reaches `threshold`. */
export const badges = sqliteTable(
  "badges",
  {
    id: id(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    rule: text("rule", { enum: BADGE_RULES }).notNull(),
    threshold: integer("threshold").notNull(),
    color: text("color").notNull().default("#f59e0b"),
    ...timestamps(),
  },
  (t) => [index("badges_rule_threshold_idx").on(t.rule, t.threshold)],
);

export const userBadges = sqliteTable(
  "user_badges",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    badgeId: integer("badge_id")
      .notNull()
      .references(() => badges.id, { onDelete: "cascade" }),
    /** Random, public: the Open Badges assertion lives at /badges/assertions/{uid}. */
    uid: text("uid").notNull(),
    awardedAt: integer("awarded_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [uniqueIndex("user_badges_user_badge_unique").on(t.userId, t.badgeId), uniqueIndex("user_badges_uid_unique").on(t.uid)],
);

export type Level = typeof levels.$inferSelect;
export type Badge = typeof badges.$inferSelect;
export type LeaderboardActivity = typeof leaderboardActivities.$inferSelect;
