import { z } from "zod";
import { isDate } from "./calendar";

/**
 * The compliance report's vocabulary and query (issue 34), shared by the dashboard's pages, the CSV download
 * and the /api calls (app/models/compliance.server.ts counts; docs/decisions/037-compliance-report.md).
 */

/** A person's state in a course they are assigned (the assignment model's `AssignmentState`), worst first. */
export const COMPLIANCE_STATES = ["overdue", "not_started", "in_progress", "done"] as const;
export type ComplianceState = (typeof COMPLIANCE_STATES)[number];

/** The report's columns, in the order the tables show them: everyone assigned, each state, and those expiring soon. */
export const COMPLIANCE_COLUMNS = ["assigned", "done", "in_progress", "not_started", "overdue", "expiring"] as const;
export type ComplianceColumn = (typeof COMPLIANCE_COLUMNS)[number];

/** "Expiring": a completion that expires from today to this many days ahead, both included. */
export const EXPIRING_WITHIN_DAYS = 30;

/** People a page on the dashboard (the /api's `per_page` goes up to app/utils/pagination.ts's maximum). */
export const PEOPLE_PER_PAGE = 50;

const id = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, "compliance.errors.id")
  .transform(Number);
const day = z.string().trim().refine(isDate, "compliance.errors.date");

/**
 * The filters, as URL parameters (a GET form on the dashboard, the query of the /api calls): `course_id` or
 * `path_id`, `group_id`, `state` (one of the columns), `due_from` / `due_to` (local days, inclusive), `q` (part of a
 * name or e-mail address) and `page`. Empty parameters are left out before parsing.
 */
export const complianceQuerySchema = z
  .object({
    course_id: id.optional(),
    /** A learning path (issue 49): the people list shows its people instead of a course's. */
    path_id: id.optional(),
    group_id: id.optional(),
    state: z.enum(COMPLIANCE_COLUMNS, { errorMap: () => ({ message: "compliance.errors.state" }) }).optional(),
    due_from: day.optional(),
    due_to: day.optional(),
    q: z.string().trim().max(200, "compliance.errors.search").optional(),
    page: z
      .string()
      .trim()
      .regex(/^\d{1,9}$/, "compliance.errors.page")
      .transform(Number)
      .refine((n) => n >= 1, "compliance.errors.page")
      .optional(),
    per_page: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, "compliance.errors.perPage")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 100, "compliance.errors.perPage")
      .optional(),
  })
  .superRefine((q, ctx) => {
    if (q.due_from && q.due_to && isDate(q.due_from) && isDate(q.due_to) && q.due_from > q.due_to)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["due_to"], message: "compliance.errors.order" });
    if (q.course_id !== undefined && q.path_id !== undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["path_id"], message: "compliance.errors.courseOrPath" });
  });

export interface ComplianceQuery {
  courseId?: number;
  pathId?: number;
  groupId?: number;
  state: ComplianceColumn;
  dueFrom?: string;
  dueTo?: string;
  q?: string;
  page: number;
  perPage: number;
}

/**
 * Reads the filters from a URL: the query, or zod's error (its messages are `compliance.errors.*` keys) with
 * the query the valid filters make, the invalid ones left out (a page shows the errors above those).
 */
export function parseComplianceQuery(url: URL, { perPage = PEOPLE_PER_PAGE } = {}) {
  const raw: Record<string, string> = Object.fromEntries([...url.searchParams].filter(([, v]) => v.trim() !== ""));
  const result = complianceQuerySchema.safeParse(raw);
  if (result.success) return { ok: true as const, query: toQuery(result.data, perPage) };
  for (const issue of result.error.issues) delete raw[String(issue.path[0])];
  const rest = complianceQuerySchema.safeParse(raw);
  return { ok: false as const, error: result.error, query: rest.success ? toQuery(rest.data, perPage) : toQuery({}, perPage) };
}

function toQuery(q: z.infer<typeof complianceQuerySchema>, perPage: number): ComplianceQuery {
  return {
    courseId: q.course_id,
    pathId: q.path_id,
    groupId: q.group_id,
    state: q.state ?? "assigned",
    dueFrom: q.due_from,
    dueTo: q.due_to,
    q: q.q || undefined,
    page: q.page ?? 1,
    perPage: q.per_page ?? perPage,
  };
}

/** The filters as URL parameters (links from a count to its people, pages, the CSV download), `?` included. */
export function complianceSearch(query: Partial<ComplianceQuery>, extra: Record<string, string | number | undefined> = {}) {
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== "") params.set(key, String(value));
  };
  set("course_id", query.courseId);
  set("path_id", query.pathId);
  set("group_id", query.groupId);
  if (query.state && query.state !== "assigned") set("state", query.state);
  set("due_from", query.dueFrom);
  set("due_to", query.dueTo);
  set("q", query.q);
  if (query.page && query.page > 1) set("page", query.page);
  for (const [k, v] of Object.entries(extra)) {
    params.delete(k);
    set(k, v);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
