/**
 * The one calendar of Lectern: local days, ISO weeks (Monday first, named by their week-numbering year)
 * and months in an organization's time zone (`organizations.time_zone`, IANA, Danish by default), and the
 * UTC instants where they start. Analytics buckets (app/utils/analytics-periods.ts) and the leaderboard's
 * streak days and weekly/monthly boards (app/models/points.server.ts, leaderboard*.server.ts) both count
 * with it, so "this week" is the same week everywhere. Pure functions, usable on the server and in the
 * browser; days are `YYYY-MM-DD` strings, and day arithmetic goes through UTC so no zone gets in the way.
 */

export const DEFAULT_TIME_ZONE = "Europe/Copenhagen";

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written `YYYY-MM-DD` (no 2026-02-30). */
export function isDate(value: string) {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

const validZones = new Map<string, boolean>();

/** Whether Intl knows the IANA zone (`Europe/Copenhagen`, `UTC`). */
export function isTimeZone(value: string) {
  const known = validZones.get(value);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    ok = value.length > 0;
  } catch {
    ok = false;
  }
  if (validZones.size < 1_000) validZones.set(value, ok);
  return ok;
}

// ---- Day arithmetic (no zone) -------------------------------------------------------------------------

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

/** The calendar day before. */
export function previousDay(date: string) {
  return addDays(date, -1);
}

export function daysBetween(from: string, to: string) {
  return Math.round((toUtcDay(to) - toUtcDay(from)) / DAY_MS);
}

/** The same day of another month, or that month's last day (2026-03-31 minus one month: 2026-02-28). */
export function addMonths(date: string, months: number) {
  const d = new Date(toUtcDay(date));
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return fromUtcDay(target.getTime());
}

/** `2026-03` for any day of March 2026. */
export function monthKey(date: string) {
  return date.slice(0, 7);
}

/** The first day of the day's month. */
export function monthStart(date: string) {
  return `${date.slice(0, 7)}-01`;
}

/** ISO 8601 week of a day: the Monday it starts on, and its `YYYY-Www` name (week-numbering year). */
export function isoWeek(date: string) {
  const day = toUtcDay(date);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const monday = day - weekday * DAY_MS;
  const thursday = monday + 3 * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { start: fromUtcDay(monday), key: `${year}-W${String(week).padStart(2, "0")}` };
}

/** `2026-W48`: the ISO week a day belongs to. */
export function weekKey(date: string) {
  return isoWeek(date).key;
}

// ---- Days in a zone --------------------------------------------------------------------------------------

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

/** The UTC instant (ms) of the local midnight that starts `date` in the zone. */
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

/**
 * The last local day worked out per zone, with the minute it was for. Zones' offsets have been whole
 * minutes since 1972, so a local day turns only on a minute: every instant of that minute has the same day.
 * Pages ask for "today" several times a request (the leaderboard's board, streak and widgets), and
 * `formatToParts` is the costly part of each.
 */
const lastDay = new Map<string, { minute: number; day: string }>();
const MINUTE_MS = 60_000;
/** From this instant on (1972-01-01) every zone's offset is whole minutes. */
const WHOLE_MINUTE_OFFSETS_MS = Date.UTC(1972, 0, 1);

/** The local day (YYYY-MM-DD) of an instant (UTC ms) in the zone. */
export function localDate(ms: number, timeZone: string) {
  const minute = Math.floor(ms / MINUTE_MS);
  const kept = lastDay.get(timeZone);
  if (kept?.minute === minute) return kept.day;
  const p = partsIn(ms, timeZone);
  const day = `${String(p.year).padStart(4, "0")}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
  if (ms >= WHOLE_MINUTE_OFFSETS_MS) lastDay.set(timeZone, { minute, day });
  return day;
}

/** The local day of a moment in the zone; an unknown zone counts in the default one (never throws). */
export function dayIn(zone: string, at: Date) {
  return localDate(at.getTime(), isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE);
}

/** The UTC instants [start, end) of the local day, ISO week or month that holds `date`. */
export function rangeOf(date: string, unit: "day" | "week" | "month", timeZone: string) {
  const start = unit === "day" ? date : unit === "week" ? isoWeek(date).start : monthStart(date);
  const next = unit === "day" ? addDays(start, 1) : unit === "week" ? addDays(start, 7) : addMonths(start, 1);
  return { start, startMs: localMidnight(start, timeZone), endMs: localMidnight(next, timeZone) };
}
