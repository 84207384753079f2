import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import type { ZodError } from "zod";
import type { Viewer } from "../access/viewer";
import { requireCapability } from "../kernel/auth.server";
import {
  allCompliancePeople,
  complianceOptions,
  compliancePeople,
  complianceReport,
  complianceScope,
  courseExists,
  groupInScope,
  type ComplianceScope,
  type CompliancePerson,
} from "../models/compliance.server";
import { assignedPathOptions, pathComplianceCounts, pathCompliancePeople, pathExists } from "../models/compliance-paths.server";
import type { TenantDb } from "../models/database.server";
import { tenantTimeZone } from "../models/time-zone.server";
import { apiError, apiT, issueMessage } from "../utils/api.server";
import { complianceSearch, parseComplianceQuery, type ComplianceQuery } from "../utils/compliance-query";
import { csvResponse, toCsv } from "../utils/csv.server";
import { paginated } from "../utils/pagination";
import { requireOrganization } from "../utils/tenant.server";
import { dateLocaleFor } from "./analytics.server";

/**
 * What the compliance report's pages, its CSV download, the dashboard overview's chart and the /api calls
 * share (issue 34): who sees whose people (app/access/rules.ts `complianceReach`, through the model's
 * `complianceScope`), reading the filters, and the replies. The numbers are app/models/compliance.server.ts's.
 */

export function complianceFieldErrors(error: ZodError, t: TFunction) {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (fields[key] ??= []).push(issue.message.startsWith("compliance.") ? t(issue.message) : issueMessage(issue, t));
  }
  return fields;
}

/** A course or path that does not exist, or a group that does not or that the viewer does not reach, is not found. */
function filtersFound(db: TenantDb, scope: ComplianceScope, query: Pick<ComplianceQuery, "courseId" | "pathId" | "groupId">) {
  if (query.courseId !== undefined && !courseExists(db, query.courseId)) return false;
  if (query.pathId !== undefined && !pathExists(db, query.pathId)) return false;
  if (query.groupId !== undefined && !groupInScope(db, scope, query.groupId)) return false;
  return true;
}

/**
 * The page's viewer, scope and filters. Filters that do not parse are left out and their errors shown,
 * rather than failing the page; a course or group not found is the 404 page.
 */
async function pageInput(request: Request, context: AppLoadContext) {
  const { db } = requireOrganization(context);
  const auth = requireCapability(request, context, "read:analytics");
  const scope = complianceScope(auth);
  if (!scope) throw new Response("Forbidden", { status: 403 });
  const parsed = parseComplianceQuery(new URL(request.url));
  const errors = parsed.ok ? null : complianceFieldErrors(parsed.error, await apiT(request, context));
  const query = parsed.query;
  if (!filtersFound(db, scope, query)) throw new Response("Not Found", { status: 404 });
  return { db, auth, scope, query, errors };
}

/** The per-path rows of the report: none when it is narrowed to a course. */
const pathRows = (db: TenantDb, scope: ComplianceScope, query: Pick<ComplianceQuery, "courseId" | "groupId">) =>
  query.courseId === undefined ? pathComplianceCounts(db, scope, query.groupId) : [];

/** The people behind a number: a learning path's (`path_id`), or a course's, or every course's. */
function peopleOf(db: TenantDb, scope: ComplianceScope, query: ComplianceQuery) {
  return query.pathId === undefined
    ? compliancePeople(db, scope, query)
    : pathCompliancePeople(db, scope, { ...query, pathId: query.pathId });
}

const optionsOf = (db: TenantDb, scope: ComplianceScope) => ({ ...complianceOptions(db, scope), paths: assignedPathOptions(db, scope) });

/** /dashboard/compliance: the tables per course, per learning path and per group, with the filters' choices. */
export async function loadComplianceReport(request: Request, context: AppLoadContext) {
  const { db, auth, scope, query, errors } = await pageInput(request, context);
  return {
    report: complianceReport(db, scope, query),
    paths: pathRows(db, scope, query),
    options: optionsOf(db, scope),
    query: { courseId: query.courseId, groupId: query.groupId },
    search: complianceSearch({ courseId: query.courseId, groupId: query.groupId }),
    timeZone: tenantTimeZone(db),
    dateLocale: dateLocaleFor(auth),
    errors,
  };
}

/** /dashboard/compliance/people: the people behind a number, a page at a time. */
export async function loadCompliancePeople(request: Request, context: AppLoadContext) {
  const { db, auth, scope, query, errors } = await pageInput(request, context);
  const { today, total, people } = peopleOf(db, scope, query);
  const pages = Math.max(1, Math.ceil(total / query.perPage));
  return {
    today,
    total,
    people,
    page: { page: query.page, pages, first: (query.page - 1) * query.perPage + 1 },
    options: optionsOf(db, scope),
    query,
    search: complianceSearch({ ...query, page: 1 }),
    timeZone: tenantTimeZone(db),
    dateLocale: dateLocaleFor(auth),
    errors,
  };
}

const CSV_HEADER = [
  "user_id",
  "email",
  "first_name",
  "last_name",
  "course_id",
  "course",
  "state",
  "due_on",
  "started",
  "completed_at",
  "expires_on",
  "path_id",
  "path",
];

/**
 * /dashboard/compliance/export plus the people list's filters: every person matching them, as CSV. A bad
 * query is a 400 (never a file with wrong rows); group admins get their groups' people, as on the /api.
 */
export async function complianceCsv(request: Request, context: AppLoadContext) {
  const { db } = requireOrganization(context);
  const auth = requireCapability(request, context, "read:analytics");
  const scope = complianceScope(auth);
  if (!scope) throw new Response("Forbidden", { status: 403 });
  const parsed = parseComplianceQuery(new URL(request.url));
  if (!parsed.ok) throw new Response("Bad Request", { status: 400 });
  if (!filtersFound(db, scope, parsed.query)) throw new Response("Not Found", { status: 404 });
  const { today, people } =
    parsed.query.pathId === undefined
      ? allCompliancePeople(db, scope, parsed.query)
      : pathCompliancePeople(db, scope, { ...parsed.query, pathId: parsed.query.pathId, perPage: null });
  const rows = people.map((p) => [
    p.user_id,
    p.email,
    p.first_name,
    p.last_name,
    p.course_id,
    p.course_title,
    p.state,
    p.due_on,
    p.started,
    p.completed_at?.toISOString() ?? "",
    p.expires_on ?? "",
    p.path_id ?? "",
    p.path_title ?? "",
  ]);
  const name = `compliance-${today}${parsed.query.state === "assigned" ? "" : `-${parsed.query.state}`}.csv`;
  return csvResponse(name, toCsv(CSV_HEADER, rows));
}

/** The dashboard overview's chart: everyone's assignments by state today, or null when the viewer may not see them. */
export function complianceOverview(db: TenantDb, viewer: Viewer) {
  const scope = complianceScope(viewer);
  if (!scope) return null;
  const { today, totals } = complianceReport(db, scope, {}, new Date(), { withGroups: false });
  return { today, totals };
}

/* ---------- /api ---------- */

async function apiInput(request: Request, context: AppLoadContext, viewer: Viewer) {
  const t = () => apiT(request, context);
  const scope = complianceScope(viewer);
  if (!scope) throw apiError(403, { message: (await t())("api.forbidden"), code: "forbidden" });
  const parsed = parseComplianceQuery(new URL(request.url), { perPage: 20 });
  if (!parsed.ok)
    throw apiError(422, { message: (await t())("api.invalid"), code: "invalid", fields: complianceFieldErrors(parsed.error, await t()) });
  if (!filtersFound(context.db!, scope, parsed.query)) throw apiError(404, { message: (await t())("api.notFound"), code: "not_found" });
  return { scope, query: parsed.query };
}

/** GET /api/compliance: the report per course and per group (and its totals), on the organization's day. */
export async function complianceReportApi({ request, context, viewer }: { request: Request; context: AppLoadContext; viewer: Viewer }) {
  const { scope, query } = await apiInput(request, context, viewer);
  const db = context.db!;
  const report = complianceReport(db, scope, query);
  return {
    today: report.today,
    expiring_until: report.expiringUntil,
    time_zone: tenantTimeZone(db),
    scope: scope.kind,
    course_id: query.courseId ?? null,
    group_id: query.groupId ?? null,
    totals: report.totals,
    courses: report.courses,
    paths: pathRows(db, scope, query),
    groups: report.groups,
  };
}

function personReply(p: CompliancePerson) {
  return { ...p, completed_at: p.completed_at?.toISOString() ?? null };
}

/** GET /api/compliance/people: the people behind a number, with the report's filters, a page at a time. */
export async function compliancePeopleApi({ request, context, viewer }: { request: Request; context: AppLoadContext; viewer: Viewer }) {
  const { scope, query } = await apiInput(request, context, viewer);
  const { total, people } = peopleOf(context.db!, scope, query);
  return paginated(people.map(personReply), total, { page: query.page, perPage: query.perPage });
}
