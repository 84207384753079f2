import { and, eq, sql } from "drizzle-orm";
import type Database from "better-sqlite3";
import { connectionOf } from "../../db/connections";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { ANALYTICS_METRICS, analyticsDaily, analyticsRollup, courses, type AnalyticsMetric } from "../../db/tenant";
import { isTimeZone, localDate } from "../utils/calendar";
import type { JobContext } from "./clone.server";
import { hasPendingJobOfKind } from "./job.server";

/**
 * Daily rollups of the organization's analytics facts (docs/decisions/018-analytics.md, "Daily rollups"):
 * analytics_hourly stays the record; analytics_daily adds the same facts per local day of the organization's
 * zone and course, with a running total, so that a year grouped any way is a few hundred rows and a year per
 * course two index seeks per course. Both are written in the same transaction by recordFact; a
 * change of zone rebuilds the days from the hours (`rebuildDailyRollups`), and until the days are complete in
 * the organization's zone the readers use the hours (`dailyRollupsIn`).
 */

const HOUR_MS = 3_600_000;

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

/** The metrics' columns in analytics_daily (their running totals are `<column>_to_date`): every metric, one column each. */
const COLUMNS: readonly AnalyticsMetric[] = ANALYTICS_METRICS;
const TO_DATE = COLUMNS.map((c) => `${c}_to_date`);

/** Adds a fact to its day (in the rollups' zone), for the course and for the total (course 0). Inside recordFact's transaction. */
export function addToDay(
  tx: TenantConn,
  { metric, hour, courseIds, value }: { metric: AnalyticsMetric; hour: number; courseIds: number[]; value: number },
) {
  const { timeZone } = rollupState(tx);
  if (!timeZone) return; // never built: the first rebuild counts everything from the hours
  const day = dayOfHour(hour, timeZone);
  const sqlite = connectionOf(tx) as Database.Database;
  // A new day starts from the running totals of the day before it; a fact on an earlier day than the last
  // (a late or back-dated one) carries into every later day's running total.
  const upsert = preparedOnce(tx, `analyticsDaily.add.${metric}`, () =>
    sqlite.prepare<{ courseId: number; day: string; value: number }>(
      `insert into analytics_daily (course_id, day, ${COLUMNS.join(", ")}, ${TO_DATE.join(", ")})
       select :courseId, :day, ${COLUMNS.map((c) => (c === metric ? ":value" : "0")).join(", ")},
         ${TO_DATE.map((t, i) => `coalesce(p.${t}, 0)${COLUMNS[i] === metric ? " + :value" : ""}`).join(", ")}
       from (select 1) left join (select * from analytics_daily where course_id = :courseId and day < :day order by day desc limit 1) p
       where true
       on conflict (course_id, day) do update set ${metric} = ${metric} + :value, ${metric}_to_date = ${metric}_to_date + :value`,
    ),
  );
  const later = preparedOnce(tx, `analyticsDaily.carry.${metric}`, () =>
    sqlite.prepare<{ courseId: number; day: string; value: number }>(
      `update analytics_daily set ${metric}_to_date = ${metric}_to_date + :value where course_id = :courseId and day > :day`,
    ),
  );
  for (const courseId of courseIds) {
    upsert.run({ courseId, day, value });
    later.run({ courseId, day, value });
  }
}

/**
 * Recounts the days in `timeZone` from the hours, one course at a time, each in its own short transaction
 * so that learning goes on meanwhile: facts recorded during the rebuild already go to the new zone's days,
 * and a course rebuilt afterwards recounts them from its hours. `pause` runs every `every` courses (a job
 * lets requests through there). Returns the courses rebuilt (the total counts as one), or null when another
 * rebuild for another zone started meanwhile (that one finishes the work).
 */
export async function rebuildDailyRollups(
  db: TenantConn,
  timeZone: string,
  { pause = () => {}, every = 20 }: { pause?: () => Promise<void> | void; every?: number } = {},
) {
  if (!isTimeZone(timeZone)) throw new Error(`unknown time zone: ${timeZone}`);
  db.insert(analyticsRollup)
    .values({ id: 1, timeZone, ready: false, builtAt: null })
    .onConflictDoUpdate({ target: analyticsRollup.id, set: { timeZone, ready: false, builtAt: null } })
    .run();
  const sqlite = connectionOf(db) as Database.Database;
  // Every course with facts, by seeks of the totals index (metric, course_id, …): no scan of the hours.
  const next = sqlite.prepare<[string, number], { metric: string; courseId: number }>(
    "select metric, course_id as courseId from analytics_hourly indexed by analytics_hourly_totals_idx where (metric, course_id) > (?, ?) order by metric, course_id limit 1",
  );
  const courseIds = new Set<number>();
  let key: { metric: string; courseId: number } | undefined = { metric: "", courseId: -1 };
  while ((key = next.get(key.metric, key.courseId))) courseIds.add(key.courseId);
  const hours = sqlite.prepare<[number], { metric: AnalyticsMetric; hour: number; value: number }>(
    // One seek of the totals index (metric, course_id, …) per metric: the metrics are listed for that.
    `select metric, hour, value from analytics_hourly indexed by analytics_hourly_totals_idx where course_id = ? and metric in (${COLUMNS.map((c) => `'${c}'`).join(", ")})`,
  );
  const clear = sqlite.prepare<[number]>("delete from analytics_daily where course_id = ?");
  const insert = sqlite.prepare(
    `insert into analytics_daily (course_id, day, ${COLUMNS.join(", ")}, ${TO_DATE.join(", ")}) values (${new Array(2 + 2 * COLUMNS.length).fill("?").join(", ")})`,
  );
  const rebuildOne = sqlite.transaction((courseId: number) => {
    clear.run(courseId);
    const byDay = new Map<string, number[]>();
    for (const row of hours.all(courseId)) {
      const day = dayOfHour(row.hour, timeZone);
      let values = byDay.get(day);
      if (!values) byDay.set(day, (values = COLUMNS.map(() => 0)));
      values[COLUMNS.indexOf(row.metric)] += row.value;
    }
    const toDate = COLUMNS.map(() => 0);
    for (const day of [...byDay.keys()].sort()) {
      const values = byDay.get(day)!;
      values.forEach((v, i) => (toDate[i] += v));
      insert.run(courseId, day, ...values, ...toDate);
    }
  });
  let done = 0;
  for (const courseId of courseIds) {
    if (rollupState(db).timeZone !== timeZone) return null;
    rebuildOne(courseId);
    if (++done % every === 0) await pause();
  }
  const finished = db
    .update(analyticsRollup)
    .set({ ready: true, builtAt: new Date() })
    .where(and(eq(analyticsRollup.id, 1), eq(analyticsRollup.timeZone, timeZone)))
    .run();
  return finished.changes ? done : null;
}

/** Sums of the organization's total (course 0) per range of local days [from, to], in order. */
export function daySums(db: TenantConn, metric: AnalyticsMetric, ranges: ReadonlyArray<readonly [string, string]>): number[] {
  const json = JSON.stringify(ranges);
  const column = sql.raw(COLUMNS.includes(metric) ? metric : "null");
  const rows = db.all<{ i: number; v: number }>(
    sql`select b.key as i, (select coalesce(sum(d.${column}), 0) from ${analyticsDaily} d where d.course_id = 0 and d.day >= json_extract(b.value, '$[0]') and d.day <= json_extract(b.value, '$[1]')) as v from json_each(${json}) as b order by b.key`,
  );
  const sums = ranges.map(() => 0);
  for (const row of rows) sums[Number(row.i)] = Number(row.v);
  return sums;
}

/**
 * Every existing course's sums of each metric over the local days [from, to]: the running totals at the
 * last day minus those before the first, two seeks per course. Courses without any fact in the period are
 * left out.
 */
export function courseSums(db: TenantConn, from: string, to: string) {
  const sums = sql.raw(COLUMNS.map((c) => `coalesce(t.${c}_to_date, 0) - coalesce(f.${c}_to_date, 0) as ${c}`).join(", "));
  const rows = db.all<{ courseId: number; title: string } & Record<AnalyticsMetric, number>>(
    sql`select c.id as courseId, c.title as title, ${sums}
      from ${courses} c
      left join ${analyticsDaily} t on t.course_id = c.id and t.day = (select max(day) from ${analyticsDaily} where course_id = c.id and day <= ${to})
      left join ${analyticsDaily} f on f.course_id = c.id and f.day = (select max(day) from ${analyticsDaily} where course_id = c.id and day < ${from})`,
  );
  return rows.filter((r) => COLUMNS.some((c) => r[c] !== 0));
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
  if (!isTimeZone(timeZone)) return { courses: 0 };
  const rebuilt = await rebuildDailyRollups(db, timeZone, { pause });
  return { time_zone: timeZone, courses: rebuilt ?? 0, superseded: rebuilt === null };
}
