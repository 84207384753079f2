import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./people";

/*
 * Analytics (issue 15, docs/decisions/018-analytics.md).
 * Facts maintained on write by the learning-event hooks and the file server, one row per UTC hour, so
 * that days, ISO weeks and months in any organization time zone are sums of whole hours and a year of
 * KPIs reads at most 8,760 rows per metric, whatever the number of learners or progress rows.
 */

export const ANALYTICS_METRICS = ["watch_seconds", "completions", "downloads", "quiz_attempts", "quiz_passes"] as const;
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number];

/**
 * The organization's facts per metric and UTC hour (unix seconds / 3600): one row per course, and a
 * total row (course 0) that every fact adds to, so a KPI series reads one row per hour however many
 * courses there are (the totals index).
 */
export const analyticsHourly = sqliteTable(
  "analytics_hourly",
  {
    metric: text("metric", { enum: ANALYTICS_METRICS }).notNull(),
    hour: integer("hour").notNull(),
    /** 0: the organization's total. No foreign key: a deleted course's history still counts in the totals. */
    courseId: integer("course_id").notNull().default(0),
    value: integer("value").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.metric, t.hour, t.courseId] }),
    index("analytics_hourly_totals_idx").on(t.metric, t.courseId, t.hour, t.value),
  ],
);

/**
 * The organization's facts per **local day** of its time zone and course (course 0: the total), rolled up
 * from analytics_hourly by the same writes (docs/decisions/018-analytics.md, "Daily rollups"): one row per
 * course and day with every metric, and each metric's running total up to and including the day, so a
 * period's sums per course are two index seeks (the totals at its last day minus those before its first),
 * however long the period. WITHOUT ROWID in the migration: the primary key is the table.
 */
export const analyticsDaily = sqliteTable(
  "analytics_daily",
  {
    courseId: integer("course_id").notNull().default(0),
    /** The local day (YYYY-MM-DD) in analytics_rollup.time_zone whose midnight-to-midnight holds the hours. */
    day: text("day").notNull(),
    completions: integer("completions").notNull().default(0),
    watchSeconds: integer("watch_seconds").notNull().default(0),
    downloads: integer("downloads").notNull().default(0),
    quizAttempts: integer("quiz_attempts").notNull().default(0),
    quizPasses: integer("quiz_passes").notNull().default(0),
    completionsToDate: integer("completions_to_date").notNull().default(0),
    watchSecondsToDate: integer("watch_seconds_to_date").notNull().default(0),
    downloadsToDate: integer("downloads_to_date").notNull().default(0),
    quizAttemptsToDate: integer("quiz_attempts_to_date").notNull().default(0),
    quizPassesToDate: integer("quiz_passes_to_date").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.day] })],
);

/**
 * The zone analytics_daily is counted in (one row), and whether it is complete in that zone: a change of
 * the organization's zone rebuilds it from analytics_hourly (a job, or `npm run analytics:rebuild`);
 * until then the readers add up the hourly facts instead.
 */
export const analyticsRollup = sqliteTable("analytics_rollup", {
  id: integer("id").primaryKey(),
  timeZone: text("time_zone"),
  ready: integer("ready", { mode: "boolean" }).notNull().default(false),
  builtAt: integer("built_at", { mode: "timestamp" }),
});

/** The same facts per person, for the figures of a group admin's groups. */
export const analyticsUserHourly = sqliteTable(
  "analytics_user_hourly",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    metric: text("metric", { enum: ANALYTICS_METRICS }).notNull(),
    hour: integer("hour").notNull(),
    courseId: integer("course_id").notNull().default(0),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.metric, t.hour, t.courseId] })],
);
