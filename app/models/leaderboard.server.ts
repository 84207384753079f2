import { and, asc, desc, eq, gt, gte, sql, sum } from "drizzle-orm";
import { visibleCourses, visibleCoursesPrepared } from "../access/courses";
import type { Viewer } from "../access/viewer";
import type Database from "better-sqlite3";
import { connectionOf } from "../../db/connections";
import type { TenantConn } from "../../db/open";
import { plannedLimit } from "../../db/planned-limit";
import { preparedOnce } from "../../db/prepared";
import {
  badges,
  bookmarks,
  courses,
  learnerStats,
  levels,
  pointsHistogram,
  pointsLedger,
  pointsTotals,
  userBadges,
  users,
  watchTimeDaily,
  type BoardPeriod,
  type Level,
} from "../../db/tenant";
import { addDays, dayIn, monthKey, previousDay, weekKey } from "../utils/calendar";
import { ensureLeaderboard, lifetimePoints, type Settings } from "./points.server";
import { PERIODS, type Period } from "./forms/leaderboard";

/**
 * Reading the leaderboard: boards from the maintained totals (an index range), ranks from the histogram
 * of points values, the three widgets of docs/product.md §9 from windows of indexed rows. Opted-out learners are left
 * out of every list and every rank of others; they still see their own standing. What /leaderboard reads on
 * every view is prepared once per connection (db/prepared.ts): building the SQL cost more than running it.
 */

const p = sql.placeholder;
export { PERIODS, type Period };
export const WIDGETS = ["bookmarks", "watch-time", "streak"] as const;
export type Widget = (typeof WIDGETS)[number];

export interface Board {
  period: BoardPeriod;
  key: string;
}

/** The board of a period as of now (this month, this week, in the organization's time zone). */
export function currentBoard(settings: Settings, period: Period, now = new Date()): Board {
  const day = dayIn(settings.timeZone, now);
  if (period === "month") return { period, key: monthKey(day) };
  if (period === "week") return { period, key: weekKey(day) };
  return { period: "all", key: "" };
}

export function courseBoard(courseId: number): Board {
  return { period: "course", key: String(courseId) };
}

export function displayName(u: { firstName: string; lastName: string; id: number }) {
  return `${u.firstName} ${u.lastName}`.trim() || `#${u.id}`;
}

/** The courses the viewer sees (app/access/courses.ts), to choose a course board of (/leaderboard), by title; at most 200. */
export function boardCourseChoices(db: TenantConn, viewer: Viewer) {
  const visible = visibleCoursesPrepared(viewer);
  return preparedOnce(db, `leaderboard.courseChoices.${visible.key}`, () =>
    db
      .select({ id: courses.id, title: courses.title })
      .from(courses)
      .where(visible.where)
      .orderBy(asc(courses.title))
      .limit(plannedLimit(200))
      .prepare(),
  ).all(visible.params);
}

/** A person of this organization as the leaderboard names them, or undefined; who may see them is the caller's check. */
export function boardPerson(db: TenantConn, id: number) {
  // Prepared once per connection: GET /api/leaderboard/rank/{id} asks for one on every call.
  return preparedOnce(db, "leaderboard.person", () =>
    db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, p("id")))
      .prepare(),
  ).get({ id });
}

/** A course as a course board names it, if the viewer sees it, or undefined. */
export function boardCourse(db: TenantConn, viewer: Viewer, id: number) {
  return db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(and(eq(courses.id, id), visibleCourses(viewer)))
    .get();
}

/** 1 + the visible learners with more points on the board: a sum over distinct values above, not a sort. */
export function rankFor(db: TenantConn, board: Board, points: number) {
  const above = preparedOnce(db, "leaderboard.rank", () =>
    db
      .select({ n: sum(pointsHistogram.learners) })
      .from(pointsHistogram)
      .where(and(eq(pointsHistogram.period, p("period")), eq(pointsHistogram.key, p("key")), gt(pointsHistogram.points, p("points"))))
      .prepare(),
  ).get({ period: board.period, key: board.key, points });
  return 1 + Number(above?.n ?? 0);
}

export function boardSize(db: TenantConn, board: Board) {
  const row = preparedOnce(db, "leaderboard.size", () =>
    db
      .select({ n: sum(pointsHistogram.learners) })
      .from(pointsHistogram)
      .where(and(eq(pointsHistogram.period, p("period")), eq(pointsHistogram.key, p("key"))))
      .prepare(),
  ).get({ period: board.period, key: board.key });
  return Number(row?.n ?? 0);
}

export interface BoardEntry {
  rank: number;
  user_id: number;
  name: string;
  points: number;
}

/** One page of a board, best first; ties share a rank. */
export function boardPage(db: TenantConn, board: Board, { limit = 10, offset = 0 } = {}): BoardEntry[] {
  const rows = preparedOnce(db, "leaderboard.page", () =>
    db
      .select({ userId: pointsTotals.userId, points: pointsTotals.points, firstName: users.firstName, lastName: users.lastName })
      .from(pointsTotals)
      .innerJoin(users, eq(users.id, pointsTotals.userId))
      .where(and(eq(pointsTotals.period, p("period")), eq(pointsTotals.key, p("key")), eq(pointsTotals.hidden, false)))
      .orderBy(desc(pointsTotals.points), desc(pointsTotals.userId))
      .limit(plannedLimit(p("limit")))
      .offset(p("offset"))
      .prepare(),
  ).all({ period: board.period, key: board.key, limit, offset });
  const ranks = new Map<number, number>();
  return rows.map((r) => {
    if (!ranks.has(r.points)) ranks.set(r.points, rankFor(db, board, r.points));
    return {
      rank: ranks.get(r.points)!,
      user_id: r.userId,
      name: displayName({ id: r.userId, firstName: r.firstName, lastName: r.lastName }),
      points: r.points,
    };
  });
}

/** A learner's row of learner_stats (streaks, opt-out), if they have one. */
function statsOf(db: TenantConn, userId: number) {
  return preparedOnce(db, "leaderboard.stats", () =>
    db
      .select()
      .from(learnerStats)
      .where(eq(learnerStats.userId, p("userId")))
      .prepare(),
  ).get({ userId });
}

export function learnerHidden(db: TenantConn, userId: number) {
  return statsOf(db, userId)?.hidden ?? false;
}

/** A learner's points and rank on a board (rank among the visible learners, as if they were visible). */
export function standing(db: TenantConn, board: Board, userId: number) {
  const points =
    preparedOnce(db, "leaderboard.points", () =>
      db
        .select({ points: pointsTotals.points })
        .from(pointsTotals)
        .where(and(eq(pointsTotals.userId, p("userId")), eq(pointsTotals.period, p("period")), eq(pointsTotals.key, p("key"))))
        .prepare(),
    ).get({ userId, period: board.period, key: board.key })?.points ?? 0;
  return { user_id: userId, points, rank: rankFor(db, board, points), hidden: learnerHidden(db, userId) };
}

export function listLevels(db: TenantConn) {
  return preparedOnce(db, "leaderboard.levels", () => db.select().from(levels).orderBy(asc(levels.threshold)).prepare()).all();
}

/** The level a points total reaches, the next one, and the way there in percent. */
export function levelProgress(all: Level[], points: number) {
  let current: Level | null = null;
  let next: Level | null = null;
  for (const level of all) {
    if (level.threshold <= points) current = level;
    else if (!next) next = level;
  }
  const from = current?.threshold ?? 0;
  const percent = next ? Math.min(100, Math.max(0, Math.floor((100 * (points - from)) / (next.threshold - from)))) : 100;
  return { level: current, next, percent, toNext: next ? next.threshold - points : 0 };
}

export function levelView(l: Level | null) {
  return l ? { id: l.id, name: l.name, threshold: l.threshold, color: l.color } : null;
}

export function earnedBadges(db: TenantConn, userId: number) {
  return preparedOnce(db, "leaderboard.badges", () =>
    db
      .select({
        id: badges.id,
        name: badges.name,
        description: badges.description,
        color: badges.color,
        uid: userBadges.uid,
        awardedAt: userBadges.awardedAt,
      })
      .from(userBadges)
      .innerJoin(badges, eq(badges.id, userBadges.badgeId))
      .where(eq(userBadges.userId, p("userId")))
      .orderBy(desc(userBadges.awardedAt), desc(userBadges.id))
      .prepare(),
  ).all({ userId });
}

/** The current daily streak: the run of days ending today or yesterday; older runs have ended. */
export function currentStreak(
  settings: Settings,
  row: { currentStreak: number; lastActiveDay: string | null } | undefined,
  now = new Date(),
) {
  if (!row?.lastActiveDay) return 0;
  const today = dayIn(settings.timeZone, now);
  return row.lastActiveDay === today || row.lastActiveDay === previousDay(today) ? row.currentStreak : 0;
}

/** What /profile and the top of /leaderboard show a learner about themselves. */
export function learnerSummary(db: TenantConn, userId: number, now = new Date()) {
  const settings = ensureLeaderboard(db);
  const points = lifetimePoints(db, userId);
  const progress = levelProgress(listLevels(db), points);
  const row = statsOf(db, userId);
  const all = currentBoard(settings, "all", now);
  return {
    points,
    level: levelView(progress.level),
    next_level: levelView(progress.next),
    percent: progress.percent,
    to_next: progress.toNext,
    rank: rankFor(db, all, standing(db, all, userId).points),
    hidden: row?.hidden ?? false,
    streak: currentStreak(settings, row, now),
    longest_streak: row?.longestStreak ?? 0,
    badges: earnedBadges(db, userId).map((b) => ({
      id: b.id,
      name: b.name,
      description: b.description,
      color: b.color,
      uid: b.uid,
      awarded_at: b.awardedAt.toISOString(),
    })),
  };
}

export interface WidgetEntry {
  rank: number;
  user_id: number;
  name: string;
  value: number;
}

function ranked(rows: Array<{ userId: number; firstName: string; lastName: string; value: number }>): WidgetEntry[] {
  let rank = 0;
  let last: number | null = null;
  return rows.map((r, i) => {
    if (r.value !== last) rank = i + 1;
    last = r.value;
    return { rank, user_id: r.userId, name: displayName({ id: r.userId, firstName: r.firstName, lastName: r.lastName }), value: r.value };
  });
}

/**
 * docs/product.md §9 widgets: most bookmarks in the last 30 days, most watch time (seconds) in the last 7 days,
 * longest current daily streak. Each aggregates an indexed window first (bookmarks by created_at, watch
 * time by day, streaks by length), then joins the few people in it: never a pass over all learners.
 */
export function widget(db: TenantConn, name: Widget, { limit = 10, now = new Date() } = {}): WidgetEntry[] {
  const settings = ensureLeaderboard(db);
  if (name === "bookmarks") {
    // The window starts on a whole minute, so that views within the minute share one count.
    const since = Math.floor(now.getTime() / 60_000) * 60 - 30 * 86_400;
    return windowTop(db, name, since, limit);
  }
  if (name === "watch-time") {
    // watch_time_daily counts UTC days (app/models/heartbeat.server.ts); seven of them, today included.
    const since = addDays(now.toISOString().slice(0, 10), -6);
    return windowTop(db, name, since, limit);
  }
  // Longest streaks first (index on hidden, current_streak); a streak counts while its last day is today or yesterday.
  const yesterday = previousDay(dayIn(settings.timeZone, now));
  return ranked(
    preparedOnce(db, "leaderboard.widget.streak", () =>
      db
        .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, value: learnerStats.currentStreak })
        .from(learnerStats)
        .innerJoin(users, eq(users.id, learnerStats.userId))
        .where(and(eq(learnerStats.hidden, false), gte(learnerStats.lastActiveDay, p("yesterday")), gt(learnerStats.currentStreak, 0)))
        .orderBy(desc(learnerStats.currentStreak), desc(learnerStats.lastActiveDay), desc(learnerStats.userId))
        .limit(plannedLimit(p("limit")))
        .prepare(),
    ).all({ yesterday, limit }),
  );
}

/** How long a window widget's ranking is kept before it is counted again (its names and opt-outs are read on every view). */
export const WIDGET_RECOUNT_MS = 60_000;
/** Candidates kept beyond the widget's length, so that learners opting out meanwhile leave it full. */
const WIDGET_SPARE = 20;
const keptWindows = new WeakMap<object, Map<string, { until: number; rows: Array<{ userId: number; value: number }> }>>();

/** The windows the bookmark and watch-time widgets rank: each learner's count since `:since`. */
const WINDOWS = {
  bookmarks: "select user_id, count(*) as value from bookmarks where created_at >= :since group by user_id",
  "watch-time": "select user_id, sum(seconds) as value from watch_time_daily where day >= :since group by user_id",
} as const;

/**
 * A window's ranking: the statement counted at most once a minute (`WIDGET_RECOUNT_MS`). Its LIMIT is
 * `:limit + 0` so that SQLite plans it once (db/planned-limit.ts).
 */
function windowRanking(window: string) {
  return `select w.user_id as userId, w.value as value from (${window}) w
         where not exists (select 1 from learner_stats s where s.user_id = w.user_id and s.hidden = 1)
         order by w.value desc, w.user_id asc limit :limit + 0`;
}

/**
 * The statements that count every learner's bookmarks and watch time for the widgets, at most once a
 * minute: the one read of others' rows of those tables that a signed-in learner's kept leaderboard does not
 * follow (tests/integration/learner-page-cache.test.ts).
 */
export const WINDOW_RANKINGS = Object.values(WINDOWS).map(windowRanking);

/**
 * The top of a window widget (bookmarks in 30 days, watch time in 7). Counting the window adds up every
 * learner's rows in it — tens of thousands in a large organization, far more than a page view may cost —
 * so the ranking is counted at most once a minute per organization (per database connection) and each
 * view reads only its candidates' names and opt-outs: a learner who opts out or is deleted leaves at once,
 * a renamed one shows the new name at once; only the figures may be up to a minute old. The learner's own
 * figure (`widgetValue`) is always counted live.
 */
function windowTop(db: TenantConn, name: keyof typeof WINDOWS, since: number | string, limit: number): WidgetEntry[] {
  const sqlite = connectionOf(db) as Database.Database;
  let kept = keptWindows.get(sqlite);
  if (!kept) keptWindows.set(sqlite, (kept = new Map()));
  const key = `${name}|${since}|${limit}`;
  let entry = kept.get(key);
  if (!entry || entry.until <= Date.now()) {
    const rows = preparedOnce(db, `leaderboard.window.${name}`, () =>
      sqlite.prepare<{ since: number | string; limit: number }, { userId: number; value: number }>(windowRanking(WINDOWS[name])),
    ).all({ since, limit: limit + WIDGET_SPARE });
    if (kept.size > 32) kept.clear();
    kept.set(key, (entry = { until: Date.now() + WIDGET_RECOUNT_MS, rows }));
  }
  if (entry.rows.length === 0) return [];
  const people = new Map(
    preparedOnce(db, "leaderboard.windowPeople", () =>
      sqlite.prepare<{ ids: string }, { userId: number; firstName: string; lastName: string }>(
        `select u.id as userId, u.first_name as firstName, u.last_name as lastName from users u
         where u.id in (select value from json_each(:ids))
         and not exists (select 1 from learner_stats s where s.user_id = u.id and s.hidden = 1)`,
      ),
    )
      .all({ ids: JSON.stringify(entry.rows.map((r) => r.userId)) })
      .map((p) => [p.userId, p]),
  );
  return ranked(
    entry.rows
      .filter((r) => people.has(r.userId))
      .slice(0, limit)
      .map((r) => ({ ...people.get(r.userId)!, value: r.value })),
  );
}

/** One learner's own widget value (shown to them even when outside the top, or hidden). */
export function widgetValue(db: TenantConn, name: Widget, userId: number, now = new Date()) {
  const settings = ensureLeaderboard(db);
  if (name === "bookmarks") {
    const since = new Date(now.getTime() - 30 * 86_400_000);
    return (
      preparedOnce(db, "leaderboard.ownBookmarks", () =>
        db
          .select({ n: sql<number>`count(*)` })
          .from(bookmarks)
          .where(and(eq(bookmarks.userId, p("userId")), gte(bookmarks.createdAt, p("since"))))
          .prepare(),
      ).get({ userId, since: Math.floor(since.getTime() / 1000) })?.n ?? 0
    );
  }
  if (name === "watch-time") return watchSeconds(db, userId, 7, now);
  return currentStreak(settings, statsOf(db, userId), now);
}

/** Seconds watched in the last `days` UTC days (today included); all time when `days` is null. */
export function watchSeconds(db: TenantConn, userId: number, days: number | null, now = new Date()) {
  const since = days === null ? "" : addDays(now.toISOString().slice(0, 10), -(days - 1));
  const row = preparedOnce(db, "leaderboard.watchSeconds", () =>
    db
      .select({ n: sum(watchTimeDaily.seconds) })
      .from(watchTimeDaily)
      .where(and(eq(watchTimeDaily.userId, p("userId")), gte(watchTimeDaily.day, p("since"))))
      .prepare(),
  ).get({ userId, since });
  return Number(row?.n ?? 0);
}

/** Ledger entries of one learner, newest first (their points history). */
export function ledgerOf(db: TenantConn, userId: number, { limit = 20 } = {}) {
  return db
    .select()
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId), gt(pointsLedger.points, 0)))
    .orderBy(desc(pointsLedger.createdAt), desc(pointsLedger.id))
    .limit(limit)
    .all();
}
