import { and, asc, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import {
  ACTIVITY_KINDS,
  badges,
  leaderboardActivities,
  leaderboardSettings,
  learnerStats,
  levels,
  pointsHistogram,
  pointsLedger,
  pointsTotals,
  type ActivityKind,
  type LeaderboardActivity,
} from "../../db/tenant";
import { dayIn, monthKey, weekKey } from "../utils/calendar";
import { currentBoard, type Period } from "./leaderboard.server";
import { ensureLeaderboard } from "./points.server";
import { activitySchema, badgeSchema, levelSchema } from "./forms/leaderboard";

export { activitySchema, badgeSchema, levelSchema };

/** Admins' side of the leaderboard: activities, levels, badges, the time zone, resets, and opting out. */

export type { LeaderboardActivity };

export function listActivities(db: TenantConn) {
  ensureLeaderboard(db);
  const rows = new Map(
    db
      .select()
      .from(leaderboardActivities)
      .all()
      .map((a) => [a.kind, a]),
  );
  return ACTIVITY_KINDS.map((kind) => rows.get(kind)).filter((a) => a !== undefined);
}

export function updateActivity(db: TenantConn, kind: ActivityKind, input: z.infer<typeof activitySchema>) {
  ensureLeaderboard(db);
  return db
    .update(leaderboardActivities)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(leaderboardActivities.kind, kind))
    .returning()
    .get();
}

export type LevelInput = z.infer<typeof levelSchema>;

/** A threshold belongs to one level; null when another level holds it. */
export function saveLevel(db: TenantConn, id: number | null, input: LevelInput) {
  ensureLeaderboard(db);
  const clash = db.select({ id: levels.id }).from(levels).where(eq(levels.threshold, input.threshold)).get();
  if (clash && clash.id !== id) return null;
  if (id === null) return db.insert(levels).values(input).returning().get();
  return (
    db
      .update(levels)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(levels.id, id))
      .returning()
      .get() ?? null
  );
}

export function getLevel(db: TenantConn, id: number) {
  return db.select().from(levels).where(eq(levels.id, id)).get();
}

export function deleteLevel(db: TenantConn, id: number) {
  return db.delete(levels).where(eq(levels.id, id)).run().changes > 0;
}

export type BadgeInput = z.infer<typeof badgeSchema>;

export function listBadges(db: TenantConn) {
  ensureLeaderboard(db);
  return db.select().from(badges).orderBy(asc(badges.rule), asc(badges.threshold)).all();
}

export function getBadge(db: TenantConn, id: number) {
  return db.select().from(badges).where(eq(badges.id, id)).get();
}

/**
 * A new badge reaches those who already qualify at once (counters are kept per learner), so a rule added
 * today does not wait for the next event.
 */
export function saveBadge(db: TenantConn, id: number | null, input: BadgeInput, now = new Date()) {
  ensureLeaderboard(db);
  return db.transaction((tx) => {
    const badge =
      id === null
        ? tx.insert(badges).values(input).returning().get()
        : tx
            .update(badges)
            .set({ ...input, updatedAt: now })
            .where(eq(badges.id, id))
            .returning()
            .get();
    if (!badge) return null;
    const counter = {
      lessons_completed: learnerStats.lessonsCompleted,
      courses_completed: learnerStats.coursesCompleted,
      quizzes_passed: learnerStats.quizzesPassed,
      perfect_quizzes: learnerStats.perfectQuizzes,
      streak_days: learnerStats.longestStreak,
      bookmarks: learnerStats.bookmarks,
    } as const;
    const at = Math.floor(now.getTime() / 1000);
    if (badge.rule === "points") {
      tx.run(sql`insert into user_badges (user_id, badge_id, uid, awarded_at)
        select user_id, ${badge.id}, lower(hex(randomblob(16))), ${at} from points_totals
        where period = 'life' and key = '' and points >= ${badge.threshold} on conflict do nothing`);
    } else {
      const column = counter[badge.rule];
      tx.run(sql`insert into user_badges (user_id, badge_id, uid, awarded_at)
        select ${learnerStats.userId}, ${badge.id}, lower(hex(randomblob(16))), ${at} from ${learnerStats}
        where ${column} >= ${badge.threshold} on conflict do nothing`);
    }
    return badge;
  });
}

export function deleteBadge(db: TenantConn, id: number) {
  return db.delete(badges).where(eq(badges.id, id)).run().changes > 0;
}

/**
 * Starts a period's board afresh (the all-time board, or this month's or week's). The ledger is never
 * touched: the board counts the ledger from the reset on, and levels keep counting everything.
 */
export function resetBoard(db: TenantConn, period: Period, now = new Date()) {
  const settings = ensureLeaderboard(db);
  const board = currentBoard(settings, period, now);
  db.transaction((tx) => {
    tx.delete(pointsTotals)
      .where(and(eq(pointsTotals.period, board.period), eq(pointsTotals.key, board.key)))
      .run();
    tx.delete(pointsHistogram)
      .where(and(eq(pointsHistogram.period, board.period), eq(pointsHistogram.key, board.key)))
      .run();
    const column = period === "all" ? "resetAllAt" : period === "month" ? "resetMonthAt" : "resetWeekAt";
    tx.update(leaderboardSettings)
      .set({ [column]: now })
      .where(eq(leaderboardSettings.id, 1))
      .run();
  });
  return board;
}

/**
 * Opting out of (or back into) public ranking: the learner keeps earning, but leaves every board's
 * histogram and listing, so others neither see them nor count them in their ranks.
 */
export function setHidden(db: TenantConn, userId: number, hidden: boolean) {
  db.transaction((tx) => {
    const row = tx.select().from(learnerStats).where(eq(learnerStats.userId, userId)).get();
    if ((row?.hidden ?? false) === hidden) return;
    tx.insert(learnerStats).values({ userId, hidden }).onConflictDoUpdate({ target: learnerStats.userId, set: { hidden } }).run();
    const totals = tx.select().from(pointsTotals).where(eq(pointsTotals.userId, userId)).all();
    for (const t of totals) {
      const bucket = and(eq(pointsHistogram.period, t.period), eq(pointsHistogram.key, t.key), eq(pointsHistogram.points, t.points));
      if (hidden) {
        tx.update(pointsHistogram)
          .set({ learners: sql`${pointsHistogram.learners} - 1` })
          .where(bucket)
          .run();
        tx.delete(pointsHistogram)
          .where(and(bucket, sql`${pointsHistogram.learners} <= 0`))
          .run();
      } else {
        tx.insert(pointsHistogram)
          .values({ period: t.period, key: t.key, points: t.points, learners: 1 })
          .onConflictDoUpdate({
            target: [pointsHistogram.period, pointsHistogram.key, pointsHistogram.points],
            set: { learners: sql`${pointsHistogram.learners} + 1` },
          })
          .run();
      }
    }
    tx.update(pointsTotals).set({ hidden }).where(eq(pointsTotals.userId, userId)).run();
  });
}

/**
 * Every total recomputed from the ledger alone (the check that the maintained totals and histogram
 * equal the sum of the ledger): `period|key|user` → points.
 */
export function totalsFromLedger(db: TenantConn) {
  const settings = ensureLeaderboard(db);
  const out = new Map<string, number>();
  const add = (k: string, p: number) => out.set(k, (out.get(k) ?? 0) + p);
  const rows = db.select().from(pointsLedger).where(gte(pointsLedger.points, 1)).all();
  const since = (d: Date | null) => (d ? d.getTime() : -Infinity);
  // A month's or week's reset clears that one board: earlier entries of the same month (week) drop out.
  const cleared = (reset: Date | null, key: (day: string) => string, entryKey: string, t: number) =>
    reset !== null && key(dayIn(settings.timeZone, reset)) === entryKey && t < reset.getTime();
  for (const r of rows) {
    const day = dayIn(settings.timeZone, r.createdAt);
    const t = r.createdAt.getTime();
    add(`life||${r.userId}`, r.points);
    if (t >= since(settings.resetAllAt)) add(`all||${r.userId}`, r.points);
    if (!cleared(settings.resetMonthAt, monthKey, monthKey(day), t)) add(`month|${monthKey(day)}|${r.userId}`, r.points);
    if (!cleared(settings.resetWeekAt, weekKey, weekKey(day), t)) add(`week|${weekKey(day)}|${r.userId}`, r.points);
    if (r.courseId) add(`course|${r.courseId}|${r.userId}`, r.points);
  }
  return out;
}
