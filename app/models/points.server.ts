import { randomBytes } from "node:crypto";
import { and, count, eq, gt, lte, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import {
  badges,
  leaderboardActivities,
  leaderboardSettings,
  learnerStats,
  levels,
  pointsHistogram,
  pointsLedger,
  pointsTotals,
  userBadges,
  type ActivityKind,
  type BadgeRule,
  type BoardPeriod,
} from "../../db/tenant";
import { DEFAULT_TIME_ZONE, dayIn, monthKey, previousDay, weekKey } from "../utils/calendar";
import type { Bookmarked, CourseCompleted, LessonCompleted, QuizAttemptEnded, WatchTimeCredited } from "./events.server";

/**
 * Points, streaks and badges (issue 13, docs/decisions/016-leaderboard.md). Everything here runs inside
 * the transaction that records the learning event (app/models/events.server.ts), so a rolled-back event
 * awards nothing. The ledger row's unique (user, activity, ref) makes every award happen once.
 */

export const DEFAULT_ACTIVITIES: Record<ActivityKind, { points: number; dailyCap: number | null }> = {
  lesson_completed: { points: 10, dailyCap: null },
  course_completed: { points: 50, dailyCap: null },
  quiz_passed: { points: 20, dailyCap: null },
  quiz_first_try: { points: 10, dailyCap: null },
  quiz_perfect: { points: 15, dailyCap: null },
  streak_day: { points: 5, dailyCap: null },
  bookmark: { points: 2, dailyCap: 5 },
  path_completed: { points: 100, dailyCap: null },
};

export const DEFAULT_LEVELS = [
  { name: "Beginner", threshold: 0, color: "#64748b" },
  { name: "Explorer", threshold: 100, color: "#0ea5e9" },
  { name: "Achiever", threshold: 300, color: "#22c55e" },
  { name: "Expert", threshold: 700, color: "#a855f7" },
  { name: "Master", threshold: 1500, color: "#f59e0b" },
];

export const DEFAULT_BADGES: Array<{ name: string; description: string; rule: BadgeRule; threshold: number; color: string }> = [
  { name: "First steps", description: "Completed a first lesson.", rule: "lessons_completed", threshold: 1, color: "#0ea5e9" },
  { name: "Course finisher", description: "Completed a first course.", rule: "courses_completed", threshold: 1, color: "#22c55e" },
  { name: "Five courses", description: "Completed five courses.", rule: "courses_completed", threshold: 5, color: "#16a34a" },
  { name: "Perfect score", description: "Scored 100% on a quiz.", rule: "perfect_quizzes", threshold: 1, color: "#f59e0b" },
  { name: "Week streak", description: "Learned seven days in a row.", rule: "streak_days", threshold: 7, color: "#ef4444" },
];

export type Settings = typeof leaderboardSettings.$inferSelect;

/**
 * The organization's leaderboard settings, creating them (with default activities, levels and badges)
 * the first time anything asks. Cheap afterwards: one primary-key read.
 */
export function ensureLeaderboard(db: TenantConn): Settings {
  const existing = queries(db).settings.get();
  if (existing) return existing;
  return db.transaction((tx) => {
    const again = tx.select().from(leaderboardSettings).where(eq(leaderboardSettings.id, 1)).get();
    if (again) return again;
    const settings = tx.insert(leaderboardSettings).values({ id: 1, timeZone: DEFAULT_TIME_ZONE }).returning().get();
    for (const [kind, a] of Object.entries(DEFAULT_ACTIVITIES)) {
      tx.insert(leaderboardActivities)
        .values({ kind: kind as ActivityKind, points: a.points, dailyCap: a.dailyCap })
        .onConflictDoNothing()
        .run();
    }
    if (!tx.select({ id: levels.id }).from(levels).limit(1).get()) tx.insert(levels).values(DEFAULT_LEVELS).run();
    if (!tx.select({ id: badges.id }).from(badges).limit(1).get()) tx.insert(badges).values(DEFAULT_BADGES).run();
    return settings;
  });
}

const p = sql.placeholder;

/**
 * The queries every learning event runs, built once per connection (db/prepared.ts): building their SQL
 * on each call cost far more than running them (thousands of events when the demo is seeded). None of
 * these tables has a JavaScript default or $onUpdate that preparing would freeze.
 */
function prepare(db: TenantConn) {
  const histogramRow = and(
    eq(pointsHistogram.period, p("period")),
    eq(pointsHistogram.key, p("key")),
    eq(pointsHistogram.points, p("points")),
  );
  return {
    settings: db.select().from(leaderboardSettings).where(eq(leaderboardSettings.id, 1)).prepare(),
    activity: db
      .select()
      .from(leaderboardActivities)
      .where(eq(leaderboardActivities.kind, p("kind")))
      .prepare(),
    awardedToday: db
      .select({ n: count() })
      .from(pointsLedger)
      .where(
        and(
          eq(pointsLedger.userId, p("userId")),
          eq(pointsLedger.activity, p("activity")),
          eq(pointsLedger.day, p("day")),
          gt(pointsLedger.points, 0),
        ),
      )
      .prepare(),
    record: db
      .insert(pointsLedger)
      .values({
        userId: p("userId"),
        activity: p("activity"),
        ref: p("ref"),
        courseId: p("courseId"),
        points: p("points"),
        day: p("day"),
        createdAt: p("at"),
      })
      .onConflictDoNothing()
      .prepare(),
    stats: db
      .select()
      .from(learnerStats)
      .where(eq(learnerStats.userId, p("userId")))
      .prepare(),
    newStats: db
      .insert(learnerStats)
      .values({ userId: p("userId") })
      .returning()
      .prepare(),
    streak: db
      .update(learnerStats)
      .set({ currentStreak: sql`${p("current")}`, longestStreak: sql`${p("longest")}`, lastActiveDay: sql`${p("day")}` })
      .where(eq(learnerStats.userId, p("userId")))
      .prepare(),
    total: db
      .select({ points: pointsTotals.points })
      .from(pointsTotals)
      .where(and(eq(pointsTotals.userId, p("userId")), eq(pointsTotals.period, p("period")), eq(pointsTotals.key, p("key"))))
      .prepare(),
    setTotal: db
      .insert(pointsTotals)
      .values({ userId: p("userId"), period: p("period"), key: p("key"), points: p("points"), hidden: p("hidden") })
      .onConflictDoUpdate({
        target: [pointsTotals.userId, pointsTotals.period, pointsTotals.key],
        set: { points: sql`excluded.points`, hidden: sql`excluded.hidden` },
      })
      .prepare(),
    histogramLeave: db
      .update(pointsHistogram)
      .set({ learners: sql`${pointsHistogram.learners} - 1` })
      .where(histogramRow)
      .prepare(),
    histogramDropEmpty: db
      .delete(pointsHistogram)
      .where(and(histogramRow, lte(pointsHistogram.learners, 0)))
      .prepare(),
    histogramJoin: db
      .insert(pointsHistogram)
      .values({ period: p("period"), key: p("key"), points: p("points"), learners: 1 })
      .onConflictDoUpdate({
        target: [pointsHistogram.period, pointsHistogram.key, pointsHistogram.points],
        set: { learners: sql`${pointsHistogram.learners} + 1` },
      })
      .prepare(),
    dueBadges: db
      .select({ id: badges.id })
      .from(badges)
      .where(and(eq(badges.rule, p("rule")), lte(badges.threshold, p("value"))))
      .prepare(),
    giveBadge: db
      .insert(userBadges)
      .values({ userId: p("userId"), badgeId: p("badgeId"), uid: p("uid"), awardedAt: p("at") })
      .onConflictDoNothing()
      .prepare(),
  };
}

function queries(db: TenantConn) {
  return preparedOnce(db, "points", () => prepare(db));
}

function periodKeys(day: string): Array<[BoardPeriod, string]> {
  return [
    ["life", ""],
    ["all", ""],
    ["month", monthKey(day)],
    ["week", weekKey(day)],
  ];
}

function stats(tx: TenantConn, userId: number) {
  const q = queries(tx);
  return q.stats.get({ userId }) ?? q.newStats.get({ userId })!;
}

/** Moves one learner from one points value to another in a board's histogram (visible learners only). */
function moveInHistogram(tx: TenantConn, period: BoardPeriod, key: string, from: number | null, to: number | null) {
  const q = queries(tx);
  if (from !== null) {
    q.histogramLeave.run({ period, key, points: from });
    q.histogramDropEmpty.run({ period, key, points: from });
  }
  if (to !== null) q.histogramJoin.run({ period, key, points: to });
}

function addToTotal(tx: TenantConn, userId: number, period: BoardPeriod, key: string, points: number, hidden: boolean) {
  const q = queries(tx);
  const row = q.total.get({ userId, period, key });
  const next = (row?.points ?? 0) + points;
  q.setTotal.run({ userId, period, key, points: next, hidden });
  if (!hidden) moveInHistogram(tx, period, key, row ? row.points : null, next);
}

export interface AwardInput {
  userId: number;
  activity: ActivityKind;
  ref: string;
  courseId?: number | null;
  at: Date;
  /** Points in place of the activity's own (a learning path's), when the activity is on. */
  points?: number;
}

/**
 * Records an activity once per (user, activity, ref) and returns the points it earned (0 when the
 * activity is switched off, the day's cap is reached, or it was recorded before — then `first` is false).
 * The row is written even at 0 points: it is what makes a repeat a repeat.
 */
export function award(tx: TenantConn, input: AwardInput): { first: boolean; points: number } {
  const settings = ensureLeaderboard(tx);
  const day = dayIn(settings.timeZone, input.at);
  const q = queries(tx);
  const activity = q.activity.get({ kind: input.activity });
  let points = activity && activity.enabled ? (input.points ?? activity.points) : 0;
  if (points > 0 && activity?.dailyCap != null) {
    const today = q.awardedToday.get({ userId: input.userId, activity: input.activity, day })?.n ?? 0;
    if (today >= activity.dailyCap) points = 0;
  }
  const inserted = q.record.run({
    userId: input.userId,
    activity: input.activity,
    ref: input.ref,
    courseId: input.courseId ?? null,
    points,
    day,
    at: input.at,
  });
  if (inserted.changes === 0) return { first: false, points: 0 };
  if (points > 0) {
    const hidden = stats(tx, input.userId).hidden;
    for (const [period, key] of periodKeys(day)) addToTotal(tx, input.userId, period, key, points, hidden);
    if (input.courseId) addToTotal(tx, input.userId, "course", String(input.courseId), points, hidden);
    awardBadges(tx, input.userId, "points", lifetimePoints(tx, input.userId), input.at);
  }
  return { first: true, points };
}

export function lifetimePoints(db: TenantConn, userId: number) {
  return queries(db).total.get({ userId, period: "life", key: "" })?.points ?? 0;
}

/** Gives every badge of a rule whose threshold the learner's counter has reached (once each). */
function awardBadges(tx: TenantConn, userId: number, rule: BadgeRule, value: number, at: Date) {
  const q = queries(tx);
  for (const badge of q.dueBadges.all({ rule, value })) {
    q.giveBadge.run({ userId, badgeId: badge.id, uid: randomBytes(16).toString("hex"), at });
  }
}

type Counter = "lessonsCompleted" | "coursesCompleted" | "quizzesPassed" | "perfectQuizzes" | "bookmarks";
const COUNTER_RULE: Record<Counter, BadgeRule> = {
  lessonsCompleted: "lessons_completed",
  coursesCompleted: "courses_completed",
  quizzesPassed: "quizzes_passed",
  perfectQuizzes: "perfect_quizzes",
  bookmarks: "bookmarks",
};

function bump(tx: TenantConn, userId: number, counter: Counter, at: Date) {
  const row = stats(tx, userId);
  const value = row[counter] + 1;
  tx.update(learnerStats)
    .set({ [counter]: value })
    .where(eq(learnerStats.userId, userId))
    .run();
  awardBadges(tx, userId, COUNTER_RULE[counter], value, at);
}

/**
 * A day with learning activity: extends the daily streak when yesterday (in the organization's time
 * zone) had activity too, or starts a new one; a continued streak earns the streak points once a day.
 */
export function recordActiveDay(tx: TenantConn, userId: number, at: Date) {
  const settings = ensureLeaderboard(tx);
  const day = dayIn(settings.timeZone, at);
  const row = stats(tx, userId);
  if (row.lastActiveDay !== null && row.lastActiveDay >= day) return;
  const current = row.lastActiveDay === previousDay(day) ? row.currentStreak + 1 : 1;
  const longest = Math.max(row.longestStreak, current);
  queries(tx).streak.run({ current, longest, day, userId });
  awardBadges(tx, userId, "streak_days", longest, at);
  if (current >= 2) award(tx, { userId, activity: "streak_day", ref: `day:${day}`, at });
}

/* The learning events (called from app/models/events.server.ts, inside the recording transaction). */

export function pointsForLessonCompleted(tx: TenantConn, e: LessonCompleted) {
  recordActiveDay(tx, e.userId, e.at);
  if (award(tx, { userId: e.userId, activity: "lesson_completed", ref: `lesson:${e.lessonId}`, courseId: e.courseId, at: e.at }).first) {
    bump(tx, e.userId, "lessonsCompleted", e.at);
  }
}

export function pointsForCourseCompleted(tx: TenantConn, e: CourseCompleted) {
  recordActiveDay(tx, e.userId, e.at);
  if (award(tx, { userId: e.userId, activity: "course_completed", ref: `course:${e.courseId}`, courseId: e.courseId, at: e.at }).first) {
    bump(tx, e.userId, "coursesCompleted", e.at);
  }
}

/** A passed quiz earns once per quiz; a first-try pass and a perfect score earn a bonus each. */
export function pointsForQuizAttempt(tx: TenantConn, e: QuizAttemptEnded) {
  recordActiveDay(tx, e.userId, e.at);
  if (!e.passed) return;
  const ref = `quiz:${e.quizId}`;
  if (award(tx, { userId: e.userId, activity: "quiz_passed", ref, courseId: e.courseId, at: e.at }).first)
    bump(tx, e.userId, "quizzesPassed", e.at);
  if (e.attemptNumber === 1) award(tx, { userId: e.userId, activity: "quiz_first_try", ref, courseId: e.courseId, at: e.at });
  if (e.score >= 100 && award(tx, { userId: e.userId, activity: "quiz_perfect", ref, courseId: e.courseId, at: e.at }).first) {
    bump(tx, e.userId, "perfectQuizzes", e.at);
  }
}

/** A bookmark earns once per course, however often it is removed and added again; capped per day. */
export function pointsForBookmark(tx: TenantConn, e: Bookmarked) {
  if (award(tx, { userId: e.userId, activity: "bookmark", ref: `course:${e.courseId}`, at: e.at }).first)
    bump(tx, e.userId, "bookmarks", e.at);
}

export function pointsForWatchTime(tx: TenantConn, e: WatchTimeCredited) {
  recordActiveDay(tx, e.userId, e.at);
}
