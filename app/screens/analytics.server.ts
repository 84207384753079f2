import type { AppLoadContext } from "@remix-run/node";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";
import type { TFunction } from "i18next";
import type { ZodError } from "zod";
import { courseBreakdown, kpiReport, KPIS, type AnalyticsScope, type Kpi, type KpiReport } from "../models/analytics.server";
import type { TenantDb } from "../models/database.server";
import type { Organization } from "../models/organization.server";
import { alignTimeZoneOnce } from "../models/time-zone.server";
import { needsRebuild, REBUILD_JOB } from "../models/analytics-daily.server";
import { analyticsSearch, parseAnalyticsQuery, type AnalyticsQuery } from "../utils/analytics-query";
import { apiError, apiNotFound, apiOk, apiT, issueMessage } from "../utils/api.server";
import { requireApiAuth, requireCapability } from "../kernel/auth.server";
import { requireOrganization } from "../utils/tenant.server";
import { DEFAULT_DATE_LOCALE, isLanguage } from "../utils/i18n";

/**
 * What the analytics pages, the dashboard overview, the CSV downloads and the /api calls share
 * (issue 15): who sees which figures, reading the query, and building the reports.
 */

/** Organization admins (and super-admins) see the organization; group admins their groups' members. */
export function analyticsScopeFor(_db: TenantDb, auth: Viewer): AnalyticsScope {
  const groupIds = manageableGroupIds(auth);
  return groupIds === null ? { kind: "organization" } : { kind: "groups", groupIds: [...groupIds] };
}

const DATE_LOCALES = { en: "en-GB", pl: "pl-PL", da: DEFAULT_DATE_LOCALE, no: "nb-NO", sv: "sv-SE" } as const;

/** docs/product.md §1: dates are Danish unless the person chose a language of their own. */
export function dateLocaleFor(auth: Viewer | null) {
  const chosen = auth?.person?.language;
  return isLanguage(chosen) ? DATE_LOCALES[chosen] : DEFAULT_DATE_LOCALE;
}

export function analyticsFieldErrors(error: ZodError, t: TFunction) {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (fields[key] ??= []).push(issue.message.startsWith("analytics.") ? t(issue.message) : issueMessage(issue, t));
  }
  return fields;
}

/**
 * The organization with its time zone brought into line with the leaderboard's older setting, once per
 * open database (app/models/time-zone.server.ts): the one zone analytics and the leaderboard count in.
 */
function withTimeZone(context: AppLoadContext, organization: Organization, db: TenantDb): Organization {
  const { timeZone, adopted } = alignTimeZoneOnce(context.platform.db, db, organization);
  if (adopted) context.platform.organizations.invalidate();
  // The daily rollups follow the zone: a job recounts them when they are not (yet) in it; until it is
  // done, the reports add up the hourly facts (docs/decisions/018-analytics.md, "Daily rollups").
  if (needsRebuild(db, timeZone)) context.platform.jobs.enqueue(organization.id, db, REBUILD_JOB, { time_zone: timeZone });
  return timeZone === organization.timeZone ? organization : { ...organization, timeZone };
}

export interface AnalyticsData {
  query: AnalyticsQuery;
  timeZone: string;
  search: string;
  reports: Record<Kpi, KpiReport>;
}

/** The reports of every KPI, or of the listed ones only (a one-KPI /api call builds just its own). */
export function buildReports(
  db: TenantDb,
  organization: Organization,
  scope: AnalyticsScope,
  query: AnalyticsQuery,
  kpis: readonly Kpi[] = KPIS,
) {
  const timeZone = organization.timeZone;
  const reports = Object.fromEntries(
    kpis.map((kpi) => [kpi, kpiReport(db, { kpi, period: query.period, group: query.group, compare: query.compare, timeZone, scope })]),
  ) as Record<Kpi, KpiReport>;
  return { query, timeZone, search: analyticsSearch(query), reports } satisfies AnalyticsData;
}

export function buildCourses(db: TenantDb, organization: Organization, scope: AnalyticsScope, query: AnalyticsQuery) {
  return courseBreakdown(db, { period: query.period, timeZone: organization.timeZone, scope });
}

/** The /api form of one report (docs/product.md §7 "Analytics"): snake_case, with the query it answers. */
export function reportPayload(report: KpiReport, query: AnalyticsQuery, timeZone: string) {
  return {
    kpi: report.kpi,
    from: query.period.from,
    to: query.period.to,
    group: query.group,
    compare: query.compare,
    time_zone: timeZone,
    unit: report.kpi === "watch_time" ? "minutes" : "count",
    available: report.current !== null,
    total: report.current?.total ?? null,
    buckets: report.current?.buckets ?? [],
    change: report.change,
    previous: report.previous,
  };
}

/** Parses the query of an /api call, or throws the 422 envelope. */
export async function requireApiQuery(request: Request, context: AppLoadContext, organization: Organization) {
  const parsed = parseAnalyticsQuery(new URL(request.url), organization.timeZone);
  if (parsed.ok) return parsed.query;
  const t = await apiT(request, context);
  throw apiError(422, { message: t("api.invalid"), code: "invalid", fields: analyticsFieldErrors(parsed.error, t) });
}

/**
 * The loader of one KPI's /api call; `overview` answers all four (GET /api/analytics/users). With
 * `courses=true` the reply adds the per-course breakdown of the period.
 */
export function analyticsApiLoader(kpi: Kpi | "overview") {
  return async ({ request, context }: { request: Request; context: AppLoadContext }) => {
    if (!context.organization || !context.db) return apiNotFound(request, context);
    const auth = await requireApiAuth(request, context, { capability: "read:analytics" });
    const organization = withTimeZone(context, context.organization, context.db);
    const query = await requireApiQuery(request, context, organization);
    const scope = analyticsScopeFor(context.db, auth);
    const { reports, timeZone } = buildReports(context.db, organization, scope, query, kpi === "overview" ? KPIS : [kpi]);
    const withCourses = /^(true|1)$/.test(new URL(request.url).searchParams.get("courses") ?? "");
    const courses = withCourses ? buildCourses(context.db, organization, scope, query) : undefined;
    if (kpi === "overview") {
      return apiOk({
        from: query.period.from,
        to: query.period.to,
        group: query.group,
        compare: query.compare,
        time_zone: timeZone,
        scope: scope.kind,
        kpis: Object.fromEntries(KPIS.map((k) => [k, reportPayload(reports[k], query, timeZone)])),
        courses,
      });
    }
    return apiOk({ ...reportPayload(reports[kpi], query, timeZone), scope: scope.kind, ...(courses ? { courses } : {}) });
  };
}

/**
 * The data of the dashboard overview and the analytics page. A query that does not parse shows its
 * errors above the default period (the last 30 days) rather than failing the page.
 */
/** Courses per page of the analytics page's table (the CSV download has them all). */
export const COURSES_PER_PAGE = 25;

export async function loadAnalytics(request: Request, context: AppLoadContext, { courses = false, paged = false } = {}) {
  const required = requireOrganization(context);
  const db = required.db;
  const auth = await requireCapability(request, context, "read:analytics");
  const organization = withTimeZone(context, required.organization, db);
  const scope = analyticsScopeFor(db, auth);
  const parsed = parseAnalyticsQuery(new URL(request.url), organization.timeZone);
  let errors: Record<string, string[]> | null = null;
  let query: AnalyticsQuery;
  if (parsed.ok) query = parsed.query;
  else {
    errors = analyticsFieldErrors(parsed.error, await apiT(request, context));
    const fallback = parseAnalyticsQuery(new URL("http://fallback/"), organization.timeZone);
    query = (fallback as Extract<typeof fallback, { ok: true }>).query;
  }
  const allCourses = courses ? buildCourses(db, organization, scope, query) : [];
  // The page shows the busiest courses first, a page at a time: a thousand rows are a download, not a table.
  const pages = Math.max(1, Math.ceil(allCourses.length / COURSES_PER_PAGE));
  const asked = Number(new URL(request.url).searchParams.get("courses_page"));
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  return {
    ...buildReports(db, organization, scope, query),
    courses: paged ? allCourses.slice((page - 1) * COURSES_PER_PAGE, page * COURSES_PER_PAGE) : allCourses,
    coursePages: { page, pages, total: allCourses.length, first: (page - 1) * COURSES_PER_PAGE + 1 },
    dateLocale: dateLocaleFor(auth),
    errors,
    scope: scope.kind,
  };
}
