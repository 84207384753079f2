import { and, eq, gt, sql } from "drizzle-orm";
import type Database from "better-sqlite3";
import { connectionOf } from "../../db/connections";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { analyticsDaily, analyticsRollup, courses, type AnalyticsMetric } from "../../db/tenant";
import { isTimeZone, localDate } from "../utils/calendar";
import type { JobContext } from "./clone.server";
import { hasPendingJobOfKind } from "./job.server";

/**
 * Daily rollups of the organization's analytics facts (docs/decisions/018-analytics.md, "Daily rollups"):
 * analytics_hourly stays the record; analytics_daily adds the same facts per local day of the organization's
 * zone and course, with a running total, so that a year grouped any way is a few hundred rows and a year per
 * course two index seeks per course and metric. Both are written in the same transaction by recordFact; a
 * change of zone rebuilds the days from the hours (`rebuildDailyRollups`), and until the days are complete in
 * the organization's zone the readers use the hours (`dailyRollupsIn`).
 */

const HOUR_MS = 3_600_000;
const p = sql.placeholder;

// The local day of an hour's start, kept per zone: a year has 8,760 hours, and each costs an Intl call.
const days = new Map<string, string>();
function dayOfHour(hour: number, timeZone: string) {
  const key = `${timeZone}|${hour}`;
  let day = days.get(key);
  if (day === undefined) {
    day = localDate(hour * HOUR_MS, timeZone);
    if (days.size >= 100_000) days.clear();
    days.set(key, day);
  }
  return day;
}

/** The zone the days are counted in, and whether they are complete in it (the one row of analytics_rollup). */
export function rollupState(db: TenantConn) {
  const row = preparedOnce(db, "analyticsDaily.state", () =>
    db
      .select({ timeZone: analyticsRollup.timeZone, ready: analyticsRollup.ready })
      .from(analyticsRollup)
      .where(eq(analyticsRollup.id, 1))
      .prepare(),
  ).get();
  return { timeZone: row?.timeZone ?? null, ready: row?.ready ?? false };
}

/** Whether the days can answer for this zone (complete and counted in it); otherwise read the hours. */
export function dailyRollupsIn(db: TenantConn, timeZone: string) {
  const state = rollupState(db);
  return state.ready && state.timeZone === timeZone;
}

/** Adds a fact to its day (in the rollups' zone), for the course and for the total (course 0). Inside recordFact's transaction. */
export function addToDay(
  tx: TenantConn,
  { metric, hour, courseIds, value }: { metric: AnalyticsMetric; hour: number; courseIds: number[]; value: number },
) {
  const { timeZone } = rollupState(tx);
  if (!timeZone) return; // never built: the first rebuild counts everything from the hours
  const day = dayOfHour(hour, timeZone);
  // A new day starts from the running total of the day before it; a fact on an earlier day than the last
  // (a late or back-dated one) carries into every later day's running total.
  const upsert = preparedOnce(tx, "analyticsDaily.add", () =>
    tx
      .insert(analyticsDaily)
      .values({
        metric: p("metric"),
        courseId: p("courseId"),
        day: p("day"),
        value: p("value"),
        toDate: sql`${p("value")} + coalesce((select d.to_date from ${analyticsDaily} d where d.metric = ${p("metric")} and d.course_id = ${p("courseId")} and d.day < ${p("day")} order by d.day desc limit 1), 0)`,
      })
      .onConflictDoUpdate({
        target: [analyticsDaily.metric, analyticsDaily.courseId, analyticsDaily.day],
        set: { value: sql`${analyticsDaily.value} + ${p("value")}`, toDate: sql`${analyticsDaily.toDate} + ${p("value")}` },
      })
      .prepare(),
  );
  const later = preparedOnce(tx, "analyticsDaily.carry", () =>
    tx
      .update(analyticsDaily)
      .set({ toDate: sql`${analyticsDaily.toDate} + ${p("value")}` })
      .where(and(eq(analyticsDaily.metric, p("metric")), eq(analyticsDaily.courseId, p("courseId")), gt(analyticsDaily.day, p("day"))))
      .prepare(),
  );
  for (const courseId of courseIds) {
    upsert.run({ metric, courseId, day, value });
    later.run({ metric, courseId, day, value });
  }
}

/**
 * Recounts the days in `timeZone` from the hours, one (metric, course) at a time, each in its own short
 * transaction so that learning goes on meanwhile: facts recorded during the rebuild already go to the new
 * zone's days, and a (metric, course) rebuilt afterwards recounts them from its hours. `pause` runs between
 * steps (a job lets requests through there). Returns the (metric, course) pairs rebuilt, or null when
 * another rebuild for another zone started meanwhile (that one finishes the work).
 */
export async function rebuildDailyRollups(
  db: TenantConn,
  timeZone: string,
  { pause = () => {}, every = 50 }: { pause?: () => Promise<void> | void; every?: number } = {},
) {
  if (!isTimeZone(timeZone)) throw new Error(`unknown time zone: ${timeZone}`);
  db.insert(analyticsRollup)
    .values({ id: 1, timeZone, ready: false, builtAt: null })
    .onConflictDoUpdate({ target: analyticsRollup.id, set: { timeZone, ready: false, builtAt: null } })
    .run();
  const sqlite = connectionOf(db) as Database.Database;
  // The next (metric, course) after the last one, by a seek of the totals index: no scan of the hours.
  const next = sqlite.prepare<[string, number], { metric: string; courseId: number }>(
    "select metric, course_id as courseId from analytics_hourly indexed by analytics_hourly_totals_idx where (metric, course_id) > (?, ?) order by metric, course_id limit 1",
  );
  const hours = sqlite.prepare<[string, number], { hour: number; value: number }>(
    "select hour, value from analytics_hourly indexed by analytics_hourly_totals_idx where metric = ? and course_id = ? order by hour",
  );
  const clear = sqlite.prepare<[string, number]>("delete from analytics_daily where metric = ? and course_id = ?");
  const insert = sqlite.prepare<[string, number, string, number, number]>(
    "insert into analytics_daily (metric, course_id, day, value, to_date) values (?, ?, ?, ?, ?)",
  );
  const stillOurs = () => rollupState(db).timeZone === timeZone;
  const rebuildOne = sqlite.transaction((metric: string, courseId: number) => {
    clear.run(metric, courseId);
    let day: string | null = null;
    let value = 0;
    let toDate = 0;
    for (const row of hours.all(metric, courseId)) {
      const d = dayOfHour(row.hour, timeZone);
      if (d !== day) {
        if (day !== null) insert.run(metric, courseId, day, value, toDate);
        day = d;
        value = 0;
      }
      value += row.value;
      toDate += row.value;
    }
    if (day !== null) insert.run(metric, courseId, day, value, toDate);
  });
  let pairs = 0;
  let key: { metric: string; courseId: number } | undefined = { metric: "", courseId: -1 };
  while ((key = next.get(key.metric, key.courseId))) {
    if (!stillOurs()) return null;
    rebuildOne(key.metric, key.courseId);
    pairs++;
    if (pairs % every === 0) await pause();
  }
  const done = db
    .update(analyticsRollup)
    .set({ ready: true, builtAt: new Date() })
    .where(and(eq(analyticsRollup.id, 1), eq(analyticsRollup.timeZone, timeZone)))
    .run();
  return done.changes ? pairs : null;
}

/** Sums of the organization's total (course 0) per range of local days [from, to], in order. */
export function daySums(db: TenantConn, metric: AnalyticsMetric, ranges: ReadonlyArray<readonly [string, string]>): number[] {
  const json = JSON.stringify(ranges);
  const rows = db.all<{ i: number; v: number }>(
    sql`select b.key as i, (select coalesce(sum(d.value), 0) from ${analyticsDaily} d where d.metric = ${metric} and d.course_id = 0 and d.day >= json_extract(b.value, '$[0]') and d.day <= json_extract(b.value, '$[1]')) as v from json_each(${json}) as b order by b.key`,
  );
  const sums = ranges.map(() => 0);
  for (const row of rows) sums[Number(row.i)] = Number(row.v);
  return sums;
}

/**
 * Every existing course's sums of the given metrics over the local days [from, to]: the running total at
 * the last day minus the one before the first, two seeks per course and metric. Courses without any fact
 * in the period are left out.
 */
export function courseSums(db: TenantConn, metrics: readonly AnalyticsMetric[], from: string, to: string) {
  const rows = db.all<{ courseId: number; title: string; metric: AnalyticsMetric; value: number }>(
    sql`select c.id as courseId, c.title as title, m.value as metric,
      coalesce((select d.to_date from ${analyticsDaily} d where d.metric = m.value and d.course_id = c.id and d.day <= ${to} order by d.day desc limit 1), 0)
      - coalesce((select d.to_date from ${analyticsDaily} d where d.metric = m.value and d.course_id = c.id and d.day < ${from} order by d.day desc limit 1), 0) as value
      from ${courses} c, json_each(${JSON.stringify(metrics)}) m`,
  );
  return rows.filter((r) => r.value !== 0);
}

export const REBUILD_JOB = "analytics.rebuild";

/**
 * Whether the days need a rebuild in the organization's zone that nobody has asked for yet: never built
 * (an upgraded database, a restored backup), or built in another zone (the organization's zone changed).
 * The caller queues REBUILD_JOB; meanwhile the readers add up the hours.
 */
export function needsRebuild(db: TenantConn, timeZone: string) {
  const state = rollupState(db);
  if (state.timeZone === timeZone && state.ready) return false;
  return !hasPendingJobOfKind(db, REBUILD_JOB);
}

/** The job: the days recounted in the zone it was queued for (the organization's at that moment). */
export async function rebuildAnalyticsJob({ db, job, pause }: JobContext) {
  const timeZone = String(job.payload.time_zone ?? "");
  if (!isTimeZone(timeZone)) return { pairs: 0 };
  const pairs = await rebuildDailyRollups(db, timeZone, { pause });
  return { time_zone: timeZone, pairs: pairs ?? 0, superseded: pairs === null };
}
