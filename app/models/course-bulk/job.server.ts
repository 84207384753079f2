import { eq } from "drizzle-orm";
import type { TenantConn, TenantDb } from "../../../db/open";
import { categories, type Job } from "../../../db/tenant";
import { mayStartCourseBulk, type CourseBulkAction } from "../../access/rules";
import { snapshotOf, viewerOfSnapshot, type Viewer, type ViewerSnapshot } from "../../access/viewer";
import type { Role } from "../../utils/capabilities";
import type { AuditVia } from "../admin-audit.server";
import { bulkJobOf, bulkJobView, runBulkSlices, type BulkResult, type BulkRun } from "../bulk-job.server";
import type { JobContext } from "../clone.server";
import { runCourseSlice, sliceSize, type CourseBulkParams, type CourseBulkRefusal } from "./steps.server";

/**
 * Bulk actions on courses as background jobs (issue 50; docs/decisions/046-management-lists.md item 5, as bulk
 * actions on people are built): publish, unpublish, move to a category or delete the courses list's ticked rows or
 * every course its filters match, and `POST /api/courses/bulk`. The request checks what the action needs (the
 * viewer may change courses, the category is there) and fixes the courses; the job works through them a slice
 * at a time (app/models/bulk-job.server.ts), keeping its place, and ends with what was done, left and refused.
 */
export const COURSE_BULK_JOB = "courses.bulk";

/** The most courses one action may reach: far above the 2,000 of the largest organization the bench builds. */
export const MAX_COURSES = 50_000;

export type CourseBulkPayload = {
  action: CourseBulkAction;
  params: CourseBulkParams;
  ids: number[];
  actor: ViewerSnapshot;
  via: AuditVia;
};

export type CourseBulkResult = BulkResult<CourseBulkAction, CourseBulkRefusal>;

type Refusal = { ok: false; status: 400 | 403; field?: string; message: string };

/** Checks a bulk action on courses before any course is touched, and gives the job's payload. A refusal changes nothing. */
export function prepareCourseBulk(
  db: TenantConn,
  viewer: Viewer,
  input: { action: CourseBulkAction; params: CourseBulkParams; ids: number[] },
  via: AuditVia,
): { ok: true; payload: CourseBulkPayload } | Refusal {
  const { action, params, ids } = input;
  if (!viewer.role || !mayStartCourseBulk(viewer, action)) return { ok: false, status: 403, message: "errors.forbidden" };
  if (action === "move") {
    const id = params.categoryId;
    if (id === undefined || (id !== null && !db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).get()))
      return { ok: false, status: 400, field: "bulkCategory", message: "courseBulk.errors.category" };
  }
  if (ids.length === 0) return { ok: false, status: 400, field: "ids", message: "courseBulk.errors.none" };
  if (ids.length > MAX_COURSES) return { ok: false, status: 400, field: "ids", message: "courseBulk.errors.tooMany" };
  const kept: CourseBulkParams = action === "move" ? { categoryId: params.categoryId ?? null } : {};
  const actor = snapshotOf(viewer as Viewer & { role: Role });
  return { ok: true, payload: { action, params: kept, ids: [...new Set(ids)].sort((a, b) => a - b), actor, via } };
}

/** The job: the courses a slice at a time, with progress, and what was done, left and refused. */
export function courseBulkJob({ db, job, progress, pause, stopping }: JobContext): Promise<Record<string, unknown>> {
  return runCourseBulk(db, job.payload as unknown as CourseBulkPayload, { progress, pause, stopping, now: new Date(), job });
}

/** Works through a bulk action's courses (the job, and the demo's seeding as of its moment). */
export async function runCourseBulk(
  db: TenantDb,
  payload: CourseBulkPayload,
  { now, ...run }: BulkRun & { now: Date },
): Promise<Record<string, unknown>> {
  const viewer = viewerOfSnapshot({ organization: null, db, language: "en" }, payload.actor);
  const { action, params, ids, via } = payload;
  const slice = (tx: TenantConn, part: number[]) => runCourseSlice(tx, viewer, action, params, part, { via, now });
  const result: CourseBulkResult = await runBulkSlices(db, { action, ids, size: sliceSize(action), slice }, run);
  return result as unknown as Record<string, unknown>;
}

/** A bulk job on courses as its page and /api show it. */
export const courseBulkView = (job: Job) => bulkJobView<CourseBulkAction, CourseBulkRefusal>(job);

/** What a bulk job's page names beside its action: the category courses moved to ("" for none). */
export function courseBulkDetail(db: TenantConn, job: Job) {
  const { action, params } = job.payload as unknown as CourseBulkPayload;
  if (action !== "move") return { category: null };
  const id = params.categoryId ?? null;
  return {
    category: id === null ? "" : (db.select({ name: categories.name }).from(categories).where(eq(categories.id, id)).get()?.name ?? null),
  };
}

/** The job, when it is a bulk action on courses. */
export const courseBulkJobOf = (job: Job | undefined) => bulkJobOf(job, COURSE_BULK_JOB);
