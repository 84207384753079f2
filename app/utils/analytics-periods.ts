/**
 * Periods and buckets for analytics (issue 15, docs/decisions/018-analytics.md): calendar days, ISO weeks
 * (Monday first) and months in the organization's time zone, each turned into the UTC instants where it
 * starts and ends, so that a DST change gives a 23- or 25-hour day and nothing is lost or counted twice.
 * Pure functions, shared by the server and the browser.
 */

/** Spec §3's analytics KPIs. */
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

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDate(value: string) {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** Calendar arithmetic on local dates, through UTC so no time zone gets in the way. */
function toUtcDay(date: string) {
  const m = DATE.exec(date)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}
function fromUtcDay(ms: number) {
  return new Date(ms).toISOString().slice(0, 10);
}
export function addDays(date: string, days: number) {
  return fromUtcDay(toUtcDay(date) + days * DAY_MS);
}
export function daysBetween(from: string, to: string) {
  return Math.round((toUtcDay(to) - toUtcDay(from)) / DAY_MS);
}
export function addMonths(date: string, months: number) {
  const d = new Date(toUtcDay(date));
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return fromUtcDay(target.getTime());
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(ms: number, timeZone: string) {
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const { type, value } of f.formatToParts(new Date(ms))) if (type !== "literal") p[type] = Number(value);
  return p;
}

/** The zone's offset from UTC at an instant, in ms (Copenhagen in summer: +7,200,000). */
function offsetAt(ms: number, timeZone: string) {
  const p = partsIn(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

// Asking Intl for a zone's offset costs tens of microseconds; a year of weeks asks hundreds of times, and
// every request asks again for the same days. The answers never change, so they are kept (bounded).
const midnights = new Map<string, number>();

/** The UTC instant of local midnight starting `date` in the zone. */
export function localMidnight(date: string, timeZone: string) {
  const key = `${timeZone}|${date}`;
  const known = midnights.get(key);
  if (known !== undefined) return known;
  const wall = toUtcDay(date);
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  if (midnights.size >= 50_000) midnights.clear();
  midnights.set(key, guess);
  return guess;
}

/** The local date (YYYY-MM-DD) of an instant in the zone. */
export function localDate(ms: number, timeZone: string) {
  const p = partsIn(ms, timeZone);
  return `${String(p.year).padStart(4, "0")}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

export function isTimeZone(value: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** ISO 8601 week: the Monday it starts on, and its `YYYY-Www` name (week-numbering year). */
export function isoWeek(date: string) {
  const day = toUtcDay(date);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const monday = day - weekday * DAY_MS;
  const thursday = monday + 3 * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { start: fromUtcDay(monday), key: `${year}-W${String(week).padStart(2, "0")}` };
}

function bucketStart(date: string, group: Grouping) {
  if (group === "day") return { start: date, key: date };
  if (group === "week") return isoWeek(date);
  return { start: `${date.slice(0, 7)}-01`, key: date.slice(0, 7) };
}

function nextStart(start: string, group: Grouping) {
  if (group === "day") return addDays(start, 1);
  if (group === "week") return addDays(start, 7);
  return addMonths(start, 1);
}

/** Every bucket of the period, empty ones included, in order. */
export function bucketsOf(period: Period, group: Grouping, timeZone: string): Bucket[] {
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
