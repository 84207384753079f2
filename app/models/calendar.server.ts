/**
 * Calendar days, months and ISO weeks in an organization's time zone (streaks and period boards count
 * the organization's days, not UTC's: a lesson at 00:30 in Copenhagen belongs to that Copenhagen day).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

export const DEFAULT_TIME_ZONE = "Europe/Copenhagen";

export function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function formatter(zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(zone, f);
  }
  return f;
}

/** `YYYY-MM-DD` of the moment in the zone. */
export function dayIn(zone: string, at: Date) {
  const parts = Object.fromEntries(formatter(zone).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The calendar day before a `YYYY-MM-DD` day (pure date arithmetic, no zone involved). */
export function previousDay(day: string) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function monthKey(day: string) {
  return day.slice(0, 7);
}

/** ISO 8601 week of a calendar day, e.g. `2026-W48` (weeks start on Monday). */
export function weekKey(day: string) {
  const d = new Date(`${day}T00:00:00Z`);
  const weekday = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - weekday + 3);
  const year = d.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  const week = 1 + Math.round(((d.getTime() - firstThursday.getTime()) / 86_400_000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}
