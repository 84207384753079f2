import { asc, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { analyticsUserHourly, badges, learnerStats, pointsLedger, pointsTotals, userBadges } from "../../../db/tenant";
import { iso } from "./account.server";

/*
 * The export's points section (../personal-data.server.ts): the leaderboard's counters, totals and ledger
 * of their points, their badges, and the facts analytics counts about them per hour.
 */

function statsOf(db: TenantConn, userId: number) {
  const s = db.select().from(learnerStats).where(eq(learnerStats.userId, userId)).get();
  return s
    ? {
        hidden_from_leaderboard: s.hidden,
        lessons_completed: s.lessonsCompleted,
        courses_completed: s.coursesCompleted,
        quizzes_passed: s.quizzesPassed,
        perfect_quizzes: s.perfectQuizzes,
        bookmarks: s.bookmarks,
        current_streak: s.currentStreak,
        longest_streak: s.longestStreak,
        last_active_day: s.lastActiveDay,
      }
    : null;
}

function ledgerOf(db: TenantConn, userId: number) {
  const totals = db
    .select()
    .from(pointsTotals)
    .where(eq(pointsTotals.userId, userId))
    .orderBy(asc(pointsTotals.period), asc(pointsTotals.key))
    .all();
  const awards = db
    .select()
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId))
    .orderBy(asc(pointsLedger.createdAt), asc(pointsLedger.id))
    .all();
  return {
    totals: totals.map((t) => ({ board: t.period, key: t.key, points: t.points })),
    awards: awards.map((a) => ({
      activity: a.activity,
      for: a.ref,
      course_id: a.courseId,
      points: a.points,
      day: a.day,
      awarded_at: iso(a.createdAt),
    })),
  };
}

/** Their badges, each with its public Open Badges assertion (/badges/assertions/{uid}). */
function badgesOf(db: TenantConn, userId: number, origin: string) {
  return db
    .select({ name: badges.name, description: badges.description, uid: userBadges.uid, awardedAt: userBadges.awardedAt })
    .from(userBadges)
    .innerJoin(badges, eq(badges.id, userBadges.badgeId))
    .where(eq(userBadges.userId, userId))
    .orderBy(asc(userBadges.awardedAt), asc(userBadges.id))
    .all()
    .map((b) => ({
      name: b.name,
      description: b.description,
      awarded_at: iso(b.awardedAt),
      assertion_url: `${origin}/badges/assertions/${b.uid}`,
    }));
}

/** What analytics counts about them, per UTC hour and course (0: no course), for their group admins' figures. */
function activityOf(db: TenantConn, userId: number) {
  return db
    .select()
    .from(analyticsUserHourly)
    .where(eq(analyticsUserHourly.userId, userId))
    .orderBy(asc(analyticsUserHourly.hour), asc(analyticsUserHourly.metric), asc(analyticsUserHourly.courseId))
    .all()
    .map((r) => ({ hour: new Date(r.hour * 3_600_000).toISOString(), metric: r.metric, course_id: r.courseId, value: r.value }));
}

/** The points section: leaderboard counters, totals, ledger, badges, and analytics' hourly facts. */
export function pointsData(db: TenantConn, userId: number, origin: string) {
  return {
    stats: statsOf(db, userId),
    ...ledgerOf(db, userId),
    badges: badgesOf(db, userId, origin),
    activity_by_hour: activityOf(db, userId),
  };
}
