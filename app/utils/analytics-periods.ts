import { addDays, addMonths, daysBetween, isoWeek, localMidnight, monthKey, monthStart } from "./calendar";

/**
 * Periods and buckets for analytics (issue 15, docs/decisions/018-analytics.md): calendar days, ISO weeks
 * (Monday first) and months in the organization's time zone, each turned into the UTC instants where it
 * starts and ends (app/utils/calendar.ts), so that a DST change gives a 23- or 25-hour day and nothing is lost or counted twice.
 * Pure functions, shared by the server and the browser.
 */

/** docs/product.md §3's analytics KPIs. */
export const KPIS = ["new_users", "watch_time", "completions", "downloads"] as const;
export type Kpi = (typeof KPIS)[number];

export const GROUPS = ["day", "week", "month"] as const;
export type Grouping = (typeof GROUPS)[number];

export const PRESETS = ["7d", "30d", "90d", "12m", "custom"] as const;
export type Preset = (typeof PRESETS)[number];

/** The longest period one call may ask for, in days (two years and a leap day). */
export const MAX_PERIOD_DAYS = 731;

export interface Period {
  /** First local day, inclusive (YYYY-MM-DD). */
  from: string;
  /** Last local day, inclusive. */
  to: string;
}

export interface Bucket {
  /** `2026-03-29`, `2026-W13` or `2026-03`. */
  key: string;
  /** The bucket's first and last local day inside the period (weeks and months are clipped to it). */
  from: string;
  to: string;
  /** UTC milliseconds: the local midnight that starts `from`, and the one after `to`. */
  startMs: number;
  endMs: number;
}

// Day arithmetic, ISO weeks and local midnights live in the one calendar module (shared with the leaderboard);
// re-exported here for the analytics code and tests that import them from this module.
export { addDays, addMonths, daysBetween, isDate, isTimeZone, isoWeek, localDate, localMidnight } from "./calendar";

function bucketStart(date: string, group: Grouping) {
  if (group === "day") return { start: date, key: date };
  if (group === "week") return isoWeek(date);
  return { start: monthStart(date), key: monthKey(date) };
}

function nextStart(start: string, group: Grouping) {
  if (group === "day") return addDays(start, 1);
  if (group === "week") return addDays(start, 7);
  return addMonths(start, 1);
}

// The same periods are asked for again and again (a dashboard's presets end today); their buckets never
// change, so the last few hundred are kept. Callers must not change the returned buckets.
const knownBuckets = new Map<string, readonly Bucket[]>();

/** Every bucket of the period, empty ones included, in order. */
export function bucketsOf(period: Period, group: Grouping, timeZone: string): readonly Bucket[] {
  const key = `${period.from}|${period.to}|${group}|${timeZone}`;
  const known = knownBuckets.get(key);
  if (known) return known;
  const buckets = computeBuckets(period, group, timeZone);
  if (knownBuckets.size >= 500) knownBuckets.clear();
  knownBuckets.set(key, buckets);
  return buckets;
}

function computeBuckets(period: Period, group: Grouping, timeZone: string): readonly Bucket[] {
  const buckets: Bucket[] = [];
  const end = addDays(period.to, 1);
  let { start, key } = bucketStart(period.from, group);
  while (start < end) {
    const next = nextStart(start, group);
    const from = start < period.from ? period.from : start;
    const to = next < end ? addDays(next, -1) : period.to;
    buckets.push({ key, from, to, startMs: localMidnight(from, timeZone), endMs: localMidnight(addDays(to, 1), timeZone) });
    start = next;
    key = bucketStart(start, group).key;
  }
  return buckets;
}

/** The period of the same length that ends the day before this one starts. */
export function previousPeriod(period: Period): Period {
  const length = daysBetween(period.from, period.to) + 1;
  return { from: addDays(period.from, -length), to: addDays(period.from, -1) };
}

/** A preset's period ending today (in the zone); `custom` uses the given days. */
export function periodOf(preset: Exclude<Preset, "custom">, today: string): Period {
  switch (preset) {
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "30d":
      return { from: addDays(today, -29), to: today };
    case "90d":
      return { from: addDays(today, -89), to: today };
    case "12m":
      return { from: addDays(addMonths(today, -12), 1), to: today };
  }
}

/** The grouping that reads best for a period when none is chosen. */
export function defaultGrouping(period: Period): Grouping {
  const days = daysBetween(period.from, period.to) + 1;
  return days <= 31 ? "day" : days <= 120 ? "week" : "month";
}
