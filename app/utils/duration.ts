import type { Translate } from "./translate";

/**
 * A total running time as a translation key and its values (issue 18: "episode count and total
 * duration" on course cards): under a minute in seconds, under an hour in minutes, else hours and minutes.
 */
export function durationLabel(seconds: number): {
  key: "browse.duration.seconds" | "browse.duration.minutes" | "browse.duration.hours";
  values: Record<string, number>;
} {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return { key: "browse.duration.seconds", values: { count: s } };
  const minutes = Math.round(s / 60);
  if (minutes < 60) return { key: "browse.duration.minutes", values: { count: minutes } };
  return { key: "browse.duration.hours", values: { hours: Math.floor(minutes / 60), minutes: minutes % 60 } };
}

/** A clock reading of seconds: 4:05, or 1:02:09 past an hour. */
export function clock(seconds: number) {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** A length for people: "12 min" or "1 h 20 min" (at least a minute when there is anything at all). */
export function humanDuration(t: Translate, seconds: number) {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return t("player.minutes", { count: minutes });
  return t("player.hoursMinutes", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
