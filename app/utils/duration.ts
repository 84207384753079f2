/**
 * A total running time as a translation key and its values (issue 18: "episode count and total
 * duration" on course cards): under a minute in seconds, under an hour in minutes, else hours and minutes.
 */
export function durationLabel(seconds: number): { key: "browse.duration.seconds" | "browse.duration.minutes" | "browse.duration.hours"; values: Record<string, number> } {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return { key: "browse.duration.seconds", values: { count: s } };
  const minutes = Math.round(s / 60);
  if (minutes < 60) return { key: "browse.duration.minutes", values: { count: minutes } };
  return { key: "browse.duration.hours", values: { hours: Math.floor(minutes / 60), minutes: minutes % 60 } };
}
