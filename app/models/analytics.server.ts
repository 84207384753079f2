import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { analyticsHourly, analyticsUserHourly, courses, groupMembers, materials, users, type AnalyticsMetric } from "../../db/tenant";
import {
  addDays,
  bucketsOf,
  localMidnight,
  previousPeriod,
  type Bucket,
  type Grouping,
  type Kpi,
  type Period,
} from "../utils/analytics-periods";
import { addToDay, courseSums, dailyRollupsIn, daySums } from "./analytics-daily.server";
import type { CourseCompleted, QuizAttemptEnded, WatchTimeCredited } from "./events.server";

/**
 * Analytics (docs/product.md §3 KPIs, §7 "Analytics"; docs/decisions/018-analytics.md). Facts are added up per UTC
 * hour when learning is recorded (the event hooks) and when a material is served; new users come from
 * users.created_at. A period's buckets are sums of whole hours, read by primary key.
 */

export { KPIS, type Kpi } from "../utils/analytics-periods";

/** Whose figures: the whole organization, or the members of the groups a group admin administers. */
export type AnalyticsScope = { kind: "organization" } | { kind: "groups"; groupIds: number[] };

const HOUR_MS = 3_600_000;
const p = sql.placeholder;
const hourOf = (at: Date) => Math.floor(at.getTime() / HOUR_MS);

// ---- Recording --------------------------------------------------------------------------------------

export function recordFact(
  tx: TenantConn,
  {
    metric,
    userId,
    courseId,
    at,
    value = 1,
  }: { metric: AnalyticsMetric; userId: number | null; courseId: number | null; at: Date; value?: number },
) {
  if (value === 0) return;
  const hour = hourOf(at);
  const course = courseId ?? 0;
  // The organization's total (course 0), and the course's own row.
  // Built once per connection (db/prepared.ts): every learning event adds facts.
  const addHourly = preparedOnce(tx, "analytics.addHourly", () =>
    tx
      .insert(analyticsHourly)
      .values({ metric: p("metric"), hour: p("hour"), courseId: p("courseId"), value: p("value") })
      .onConflictDoUpdate({
        target: [analyticsHourly.metric, analyticsHourly.hour, analyticsHourly.courseId],
        set: { value: sql`${analyticsHourly.value} + ${p("value")}` },
      })
      .prepare(),
  );
  const courseIds = course ? [0, course] : [0];
  for (const id of courseIds) addHourly.run({ metric, hour, courseId: id, value });
  addToDay(tx, { metric, hour, courseIds, value });
  if (userId == null) return;
  preparedOnce(tx, "analytics.addUserHourly", () =>
    tx
      .insert(analyticsUserHourly)
      .values({ userId: p("userId"), metric: p("metric"), hour: p("hour"), courseId: p("courseId"), value: p("value") })
      .onConflictDoUpdate({
        target: [analyticsUserHourly.userId, analyticsUserHourly.metric, analyticsUserHourly.hour, analyticsUserHourly.courseId],
        set: { value: sql`${analyticsUserHourly.value} + ${p("value")}` },
      })
      .prepare(),
  ).run({ userId, metric, hour, courseId: course, value });
}

/** courseCompleted: called once per person, course and completion cycle (a renewal counts again). */
export function recordCourseCompleted(tx: TenantConn, e: CourseCompleted) {
  recordFact(tx, { metric: "completions", userId: e.userId, courseId: e.courseId, at: e.at });
}

/** watchTimeCredited: the seconds a heartbeat was credited. */
export function recordWatchTime(tx: TenantConn, e: WatchTimeCredited) {
  recordFact(tx, { metric: "watch_seconds", userId: e.userId, courseId: e.courseId, at: e.at, value: e.seconds });
}

/** quizAttemptEnded: every graded attempt, and whether it passed (the course's quiz pass rate). */
export function recordQuizAttempt(tx: TenantConn, e: QuizAttemptEnded) {
  recordFact(tx, { metric: "quiz_attempts", userId: e.userId, courseId: e.courseId, at: e.at });
  recordFact(tx, { metric: "quiz_passes", userId: e.userId, courseId: e.courseId, at: e.at, value: e.passed ? 1 : 0 });
}

/**
 * A stored file is being served by its signed address: when it is a course's material (or a download
 * course's file), that is one material download. The signed address carries no person, so downloads
 * count for the organization and its courses, not for groups. Returns whether it counted.
 */
export function recordFileServed(db: TenantConn, { fileId, at = new Date() }: { fileId: number; at?: Date }) {
  const material = db.select({ courseId: materials.courseId }).from(materials).where(eq(materials.fileId, fileId)).limit(1).get();
  const courseId =
    material?.courseId ??
    db
      .select({ id: courses.id })
      .from(courses)
      .where(and(eq(courses.fileId, fileId), eq(courses.type, "download")))
      .limit(1)
      .get()?.id;
  if (courseId == null) return false;
  db.transaction((tx) => recordFact(tx, { metric: "downloads", userId: null, courseId, at }));
  return true;
}

/** A Range request that does not start at byte 0 continues a download that was already counted. */
export function isDownloadStart(method: string, range: string | undefined) {
  if (method !== "GET") return false;
  return !range || /^bytes=0-/.test(range.trim());
}

// ---- Reading ----------------------------------------------------------------------------------------

type HourRow = { hour: number; value: number };

function memberIds(scope: Extract<AnalyticsScope, { kind: "groups" }>) {
  return sql`(select ${groupMembers.userId} from ${groupMembers} where ${inArray(groupMembers.groupId, scope.groupIds.length ? scope.groupIds : [-1])})`;
}

function metricHours(db: TenantConn, metric: AnalyticsMetric, fromHour: number, toHour: number, scope: AnalyticsScope): HourRow[] {
  if (scope.kind === "organization") {
    return db
      .select({ hour: analyticsHourly.hour, value: sql<number>`sum(${analyticsHourly.value})` })
      .from(analyticsHourly)
      .where(
        and(
          eq(analyticsHourly.metric, metric),
          eq(analyticsHourly.courseId, 0),
          gte(analyticsHourly.hour, fromHour),
          lt(analyticsHourly.hour, toHour),
        ),
      )
      .groupBy(analyticsHourly.hour)
      .all();
  }
  return db
    .select({ hour: analyticsUserHourly.hour, value: sql<number>`sum(${analyticsUserHourly.value})` })
    .from(analyticsUserHourly)
    .where(
      and(
        sql`${analyticsUserHourly.userId} in ${memberIds(scope)}`,
        eq(analyticsUserHourly.metric, metric),
        gte(analyticsUserHourly.hour, fromHour),
        lt(analyticsUserHourly.hour, toHour),
      ),
    )
    .groupBy(analyticsUserHourly.hour)
    .all();
}

function newUserHours(db: TenantConn, fromHour: number, toHour: number, scope: AnalyticsScope): HourRow[] {
  const hour = sql<number>`cast(${users.createdAt} / 3600 as integer)`;
  const inRange = and(sql`${users.createdAt} >= ${fromHour * 3600}`, sql`${users.createdAt} < ${toHour * 3600}`);
  return db
    .select({ hour, value: sql<number>`count(*)` })
    .from(users)
    .where(scope.kind === "organization" ? inRange : and(inRange, sql`${users.id} in ${memberIds(scope)}`))
    .groupBy(hour)
    .all();
}

/** Adds hourly rows into buckets (both sorted by time). */
function sumInto(buckets: readonly Bucket[], rows: HourRow[]) {
  const sums = buckets.map(() => 0);
  for (const row of rows) {
    const ms = row.hour * HOUR_MS;
    let lo = 0;
    let hi = buckets.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ms < buckets[mid].startMs) hi = mid - 1;
      else if (ms >= buckets[mid].endMs) lo = mid + 1;
      else {
        sums[mid] += Number(row.value);
        break;
      }
    }
  }
  return sums;
}

export interface Series {
  from: string;
  to: string;
  buckets: Array<{ key: string; from: string; to: string; value: number }>;
  total: number;
}

export interface KpiReport {
  kpi: Kpi;
  group: Grouping;
  /** Null where the scope cannot see the figure (downloads have no person, so no group figures). */
  current: Series | null;
  previous: Series | null;
  change: { absolute: number; percent: number | null } | null;
}

/**
 * The organization's sums per bucket, added up by SQLite: one index range per bucket (the covering index
 * of analytics_hourly; users_created_at_idx for new users), so a year of weeks returns 53 numbers rather
 * than 8,760 hourly rows. A bucket holds the hours whose start lies inside it, as sumInto does.
 */
function organizationSums(db: TenantConn, kpi: Kpi, buckets: readonly Bucket[], timeZone: string): number[] {
  // The daily rollups, when complete in this zone: a bucket is a range of local days (a year: 365 rows).
  if (kpi !== "new_users" && dailyRollupsIn(db, timeZone)) {
    return daySums(
      db,
      kpi === "watch_time" ? "watch_seconds" : kpi,
      buckets.map((b) => [b.from, b.to] as const),
    );
  }
  const ranges = JSON.stringify(buckets.map((b) => [Math.ceil(b.startMs / HOUR_MS), Math.ceil(b.endMs / HOUR_MS)]));
  const from = sql`json_extract(b.value, '$[0]')`;
  const to = sql`json_extract(b.value, '$[1]')`;
  const inner =
    kpi === "new_users"
      ? sql`(select count(*) from ${users} where ${users.createdAt} >= ${from} * 3600 and ${users.createdAt} < ${to} * 3600)`
      : sql`(select coalesce(sum(${analyticsHourly.value}), 0) from ${analyticsHourly} where ${analyticsHourly.metric} = ${kpi === "watch_time" ? "watch_seconds" : kpi} and ${analyticsHourly.courseId} = 0 and ${analyticsHourly.hour} >= ${from} and ${analyticsHourly.hour} < ${to})`;
  const rows = db.all<{ i: number; v: number }>(sql`select b.key as i, ${inner} as v from json_each(${ranges}) as b order by b.key`);
  const sums = buckets.map(() => 0);
  for (const row of rows) sums[Number(row.i)] = Number(row.v);
  return sums;
}

function seriesOf(db: TenantConn, kpi: Kpi, period: Period, group: Grouping, timeZone: string, scope: AnalyticsScope): Series {
  const buckets = bucketsOf(period, group, timeZone);
  let sums: number[];
  if (scope.kind === "organization") sums = organizationSums(db, kpi, buckets, timeZone);
  else {
    const fromHour = Math.floor(buckets[0].startMs / HOUR_MS);
    const toHour = Math.floor(buckets[buckets.length - 1].endMs / HOUR_MS);
    const rows =
      kpi === "new_users"
        ? newUserHours(db, fromHour, toHour, scope)
        : metricHours(db, kpi === "watch_time" ? "watch_seconds" : kpi, fromHour, toHour, scope);
    sums = sumInto(buckets, rows);
  }
  // Watch time is kept in seconds and shown in whole minutes (docs/product.md §3 "watch time in minutes").
  const shown = kpi === "watch_time" ? (s: number) => Math.round(s / 60) : (s: number) => s;
  const totalRaw = sums.reduce((a, b) => a + b, 0);
  return {
    from: period.from,
    to: period.to,
    buckets: buckets.map((b, i) => ({ key: b.key, from: b.from, to: b.to, value: shown(sums[i]) })),
    total: shown(totalRaw),
  };
}

export function changeOf(current: number, previous: number) {
  return { absolute: current - previous, percent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10 };
}

/**
 * One KPI over a period, grouped by day, ISO week or month in the organization's time zone, with the
 * previous period of the same length (always for the change; as buckets too when `compare` is on).
 */
export function kpiReport(
  db: TenantConn,
  {
    kpi,
    period,
    group,
    timeZone,
    scope,
    compare = false,
  }: { kpi: Kpi; period: Period; group: Grouping; timeZone: string; scope: AnalyticsScope; compare?: boolean },
): KpiReport {
  if (kpi === "downloads" && scope.kind === "groups") return { kpi, group, current: null, previous: null, change: null };
  const current = seriesOf(db, kpi, period, group, timeZone, scope);
  const previous = seriesOf(db, kpi, previousPeriod(period), compare ? group : "month", timeZone, scope);
  return {
    kpi,
    group,
    current,
    previous: compare ? previous : null,
    change: changeOf(current.total, previous.total),
  };
}

export interface CourseRow {
  course_id: number;
  title: string;
  completions: number;
  watch_minutes: number;
  downloads: number | null;
  quiz_attempts: number;
  quiz_passes: number;
  /** Passed attempts out of graded attempts, in percent; null without attempts. */
  quiz_pass_rate: number | null;
}

/** Per course over a period: completions, watch time, downloads and quiz pass rate. */
export function courseBreakdown(
  db: TenantConn,
  { period, timeZone, scope }: { period: Period; timeZone: string; scope: AnalyticsScope },
): CourseRow[] {
  const fromHour = Math.floor(localMidnight(period.from, timeZone) / HOUR_MS);
  const toHour = Math.floor(localMidnight(addDays(period.to, 1), timeZone) / HOUR_MS);
  const metrics: AnalyticsMetric[] = ["completions", "watch_seconds", "downloads", "quiz_attempts", "quiz_passes"];
  if (scope.kind === "organization" && dailyRollupsIn(db, timeZone)) {
    // Two seeks per course and metric in the daily rollups' running totals, whatever the period's length.
    return courseSums(db, period.from, period.to)
      .map((r) => courseRow(r.courseId, r.title, r, scope))
      .sort(byCompletions);
  }
  const rows =
    scope.kind === "organization"
      ? db
          .select({ courseId: analyticsHourly.courseId, metric: analyticsHourly.metric, value: sql<number>`sum(${analyticsHourly.value})` })
          .from(analyticsHourly)
          .where(
            and(
              inArray(analyticsHourly.metric, metrics),
              gte(analyticsHourly.hour, fromHour),
              lt(analyticsHourly.hour, toHour),
              sql`${analyticsHourly.courseId} > 0`,
            ),
          )
          .groupBy(analyticsHourly.courseId, analyticsHourly.metric)
          .all()
      : db
          .select({
            courseId: analyticsUserHourly.courseId,
            metric: analyticsUserHourly.metric,
            value: sql<number>`sum(${analyticsUserHourly.value})`,
          })
          .from(analyticsUserHourly)
          .where(
            and(
              sql`${analyticsUserHourly.userId} in ${memberIds(scope)}`,
              inArray(analyticsUserHourly.metric, metrics),
              gte(analyticsUserHourly.hour, fromHour),
              lt(analyticsUserHourly.hour, toHour),
            ),
          )
          .groupBy(analyticsUserHourly.courseId, analyticsUserHourly.metric)
          .all();
  const byCourse = new Map<number, Record<string, number>>();
  for (const r of rows) {
    if (!r.courseId) continue;
    const entry = byCourse.get(r.courseId) ?? {};
    entry[r.metric] = Number(r.value);
    byCourse.set(r.courseId, entry);
  }
  if (byCourse.size === 0) return [];
  const titles = db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(inArray(courses.id, [...byCourse.keys()]))
    .all();
  return titles.map(({ id, title }) => courseRow(id, title, byCourse.get(id)!, scope)).sort(byCompletions);
}

function courseRow(id: number, title: string, m: Partial<Record<AnalyticsMetric, number>>, scope: AnalyticsScope): CourseRow {
  const attempts = m.quiz_attempts ?? 0;
  const passes = m.quiz_passes ?? 0;
  return {
    course_id: id,
    title,
    completions: m.completions ?? 0,
    watch_minutes: Math.round((m.watch_seconds ?? 0) / 60),
    downloads: scope.kind === "groups" ? null : (m.downloads ?? 0),
    quiz_attempts: attempts,
    quiz_passes: passes,
    quiz_pass_rate: attempts ? Math.round((passes / attempts) * 1000) / 10 : null,
  };
}

const byCompletions = (a: CourseRow, b: CourseRow) =>
  b.completions - a.completions || b.watch_minutes - a.watch_minutes || a.title.localeCompare(b.title);
