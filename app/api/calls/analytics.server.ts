import { z } from "zod";
import type { Kpi } from "~/models/analytics.server";
import { analyticsApiLoader } from "~/screens/analytics.server";
import { call, E, guarded, type ApiCall } from "../contract.server";

/** The organization's figures by day, week or month (docs/product.md §7 "Analytics", docs/decisions/018-analytics.md). */
const kpiReport = z
  .object({
    kpi: z.string(),
    from: z.string(),
    to: z.string(),
    group: z.string(),
    compare: z.unknown(),
    time_zone: z.string(),
    unit: z.enum(["minutes", "count"]),
    available: z.boolean(),
    total: z.number().nullable(),
    buckets: z.array(z.object({}).passthrough()),
    change: z.unknown(),
    previous: z.unknown(),
  })
  .passthrough();
const analyticsQuery = z.object({
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  period: z.string().optional(),
  group: z.enum(["day", "week", "month"]).optional(),
  compare: z.string().optional(),
  courses: z.enum(["true", "false"]).optional(),
});
const kpiExample = {
  kpi: "completions",
  from: "2026-04-01",
  to: "2026-04-30",
  group: "week",
  compare: true,
  time_zone: "Europe/Oslo",
  unit: "count",
  available: true,
  total: 42,
  buckets: [{ start: "2026-03-30", value: 9 }],
  change: 0.2,
  previous: { total: 35 },
  scope: "organization",
};

function analyticsCall(path: string, summary: string, kpi: Kpi | "overview"): ApiCall {
  return call({
    method: "GET",
    path,
    tag: "Analytics",
    summary,
    description:
      "Query: `from` and `to` (local days) or `period`, `group` (day|week|month), `compare`, and `courses=true` for the per-course breakdown. Group admins get their groups' members' figures.",
    access: "read:analytics",
    query: analyticsQuery,
    reply: kpiReport.extend({ scope: z.string(), courses: z.array(z.object({}).passthrough()).optional() }),
    errors: guarded(E.invalid),
    example: { query: { period: "90d", group: "week" }, reply: kpiExample },
    // The query is read by the analytics screen's own parser (app/screens/analytics.server.ts), as on the dashboard.
    ownInput: true,
    handler: analyticsApiLoader(kpi),
  });
}

export const analyticsCalls: ApiCall[] = [
  {
    ...analyticsCall("/api/analytics/users", "Every KPI at once", "overview"),
    reply: z.object({
      from: z.string(),
      to: z.string(),
      group: z.string(),
      compare: z.unknown(),
      time_zone: z.string(),
      scope: z.string(),
      kpis: z.record(kpiReport),
      courses: z.array(z.object({}).passthrough()).optional(),
    }),
    example: {
      query: { period: "90d", group: "week" },
      reply: {
        from: kpiExample.from,
        to: kpiExample.to,
        group: "week",
        compare: true,
        time_zone: "Europe/Oslo",
        scope: "organization",
        kpis: { completions: kpiExample },
      },
    },
  },
  analyticsCall("/api/analytics/users/new-users", "New users", "new_users"),
  analyticsCall("/api/analytics/courses/completions", "Course completions", "completions"),
  analyticsCall("/api/analytics/watch-time", "Watch time (minutes)", "watch_time"),
  analyticsCall("/api/analytics/materials-download", "Material downloads", "downloads"),
];
