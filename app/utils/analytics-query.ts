import { z } from "zod";
import {
  GROUPS,
  MAX_PERIOD_DAYS,
  PRESETS,
  daysBetween,
  defaultGrouping,
  isDate,
  localDate,
  periodOf,
  type Grouping,
  type Period,
  type Preset,
} from "./analytics-periods";

/**
 * The query of every analytics page and call: `period` (a preset), or `from` and `to` (local days,
 * inclusive), `group` (day|week|month, chosen from the period's length when absent) and `compare`.
 */
const date = z.string().trim().refine(isDate, "analytics.errors.date");
const flag = z
  .enum(["true", "false", "1", "0", "on", "off", ""])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "on");

export const analyticsQuerySchema = z
  .object({
    period: z.enum(PRESETS).optional(),
    from: date.optional(),
    to: date.optional(),
    group: z.enum(GROUPS).optional(),
    compare: flag,
  })
  .superRefine((q, ctx) => {
    const custom = q.period === "custom" || (!q.period && (q.from || q.to));
    if (!custom) return;
    if (!q.from) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["from"], message: "validation.required" });
    if (!q.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["to"], message: "validation.required" });
    if (q.from && q.to && isDate(q.from) && isDate(q.to)) {
      if (q.from > q.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["to"], message: "analytics.errors.order" });
      else if (daysBetween(q.from, q.to) + 1 > MAX_PERIOD_DAYS) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["to"], message: "analytics.errors.tooLong" });
      }
    }
  });

export interface AnalyticsQuery {
  preset: Preset;
  period: Period;
  group: Grouping;
  compare: boolean;
}

/** Reads the query from a URL: the resolved period (presets end today in the zone), or zod's error. */
export function parseAnalyticsQuery(url: URL, timeZone: string, now = new Date()) {
  const raw = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ""));
  const result = analyticsQuerySchema.safeParse(raw);
  if (!result.success) return { ok: false as const, error: result.error, raw };
  const q = result.data;
  const custom = q.period === "custom" || (!q.period && Boolean(q.from));
  const preset: Preset = custom ? "custom" : (q.period ?? "30d");
  const period = preset === "custom" ? { from: q.from!, to: q.to! } : periodOf(preset, localDate(now.getTime(), timeZone));
  return {
    ok: true as const,
    query: { preset, period, group: q.group ?? defaultGrouping(period), compare: q.compare } satisfies AnalyticsQuery,
  };
}

/** The same query as URL parameters (links between pages, CSV downloads). */
export function analyticsSearch(query: AnalyticsQuery, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(
    query.preset === "custom" ? { period: "custom", from: query.period.from, to: query.period.to } : { period: query.preset },
  );
  params.set("group", query.group);
  if (query.compare) params.set("compare", "true");
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return `?${params}`;
}
