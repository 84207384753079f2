import { eq, inArray } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { categories, courses, type Course } from "../../../db/tenant";
import { isVisible } from "../../access/courses";
import type { CourseBulkAction } from "../../access/rules";
import type { Viewer } from "../../access/viewer";
import { recordAudit, type AuditChange, type AuditVia } from "../admin-audit.server";
import { outcome, refuse, type SliceOutcome } from "../bulk-job.server";
import { removeCourse, updateCourse } from "../course.server";

/**
 * One slice of a bulk action on courses (issue 50; app/models/course-bulk/job.server.ts runs them), in one
 * transaction: each course done, left as it was, or refused with a reason. Each goes through what a single
 * course's screen calls (app/models/course.server.ts `updateCourse` with its checks of the course's
 * kind and references, and `removeCourse`), and each change is one audit entry about the course.
 * Learners' kept pages and caches follow by themselves: the content-version triggers move on every write to
 * `courses` and what a delete takes with it (docs/caching.md).
 */
export type CourseBulkRefusal = "gone" | "invalid";

export interface CourseBulkParams {
  /** The category courses move to; null takes them out of every category. */
  categoryId?: number | null;
}

type SliceContext = { via: AuditVia; now: Date };

/** The slice's courses the viewer sees (as the single screens find them); the others are refused as gone. */
function found(db: TenantConn, viewer: Viewer, ids: number[], o: SliceOutcome<CourseBulkRefusal>) {
  const rows = db
    .select()
    .from(courses)
    .where(inArray(courses.id, ids))
    .all()
    .filter((c) => isVisible(db, viewer, c));
  refuse(o, "gone", ids.length - rows.length);
  return rows;
}

const audited = (action: AuditChange["action"], course: Course, detail: string | null = null): AuditChange => ({
  action,
  subjectKind: "course",
  subject: { id: course.id, email: course.title },
  detail,
});

/**
 * Courses published or unpublished, or moved to a category: each as the course's own page changes it, refused
 * ("invalid") when that page would refuse it (a download course without its file cannot be published).
 */
function updateSlice(
  db: TenantConn,
  viewer: Viewer,
  action: Exclude<CourseBulkAction, "delete">,
  params: CourseBulkParams,
  ids: number[],
  { via, now }: SliceContext,
): SliceOutcome<CourseBulkRefusal> {
  const o = outcome<CourseBulkRefusal>();
  const categoryId = params.categoryId ?? null;
  const category =
    action === "move" && categoryId !== null
      ? (db.select({ name: categories.name }).from(categories).where(eq(categories.id, categoryId)).get()?.name ?? null)
      : null;
  const changes: AuditChange[] = [];
  for (const course of found(db, viewer, ids, o)) {
    const asked = action === "move" ? course.categoryId === categoryId : course.published === (action === "publish");
    if (asked) {
      o.unchanged++;
      continue;
    }
    const result = updateCourse(db, course.id, action === "move" ? { category_id: categoryId } : { published: action === "publish" });
    if (!result?.ok) refuse(o, result ? "invalid" : "gone");
    else {
      changes.push(
        action === "move"
          ? audited("course_moved", course, category)
          : audited(action === "publish" ? "course_published" : "course_unpublished", course),
      );
      o.done++;
    }
  }
  recordAudit(db, viewer, via, changes, now);
  return o;
}

/**
 * Courses deleted as the course's delete page deletes one (`removeCourse`: its lessons, materials, links,
 * progress, completions, ratings and assignments go with it by the schema's cascades; certificates issued stay,
 * without the course). Each course in a savepoint of its own (and a slice of its own: `sliceSize`): all of it or none of it.
 */
function deleteSlice(db: TenantConn, viewer: Viewer, ids: number[], { via, now }: SliceContext): SliceOutcome<CourseBulkRefusal> {
  const o = outcome<CourseBulkRefusal>();
  const changes: AuditChange[] = [];
  for (const course of found(db, viewer, ids, o)) {
    let removed = false;
    try {
      removed = db.transaction((tx) => removeCourse(tx, course.id));
    } catch {
      refuse(o, "invalid");
      continue;
    }
    if (!removed) refuse(o, "gone");
    else {
      changes.push(audited("course_deleted", course));
      o.done++;
    }
  }
  recordAudit(db, viewer, via, changes, now);
  return o;
}

/**
 * How many courses a slice takes, so how long it holds the organization's write lock at most. Publishing and moving
 * change one row a course: 250 of them in 19 and 47 ms. A course deleted takes every progress row, completion and
 * assignment of it with it, each through the tables' triggers (about 37 µs a row: a course 292 learners had begun,
 * 1,168 progress rows, took 43 ms), and cannot be split, so each course deleted is a slice of its own: other requests
 * run between any two.
 */
export function sliceSize(action: CourseBulkAction) {
  return action === "delete" ? 1 : 250;
}

/** Runs one slice of an action (in the job's transaction for the slice). */
export function runCourseSlice(
  db: TenantConn,
  viewer: Viewer,
  action: CourseBulkAction,
  params: CourseBulkParams,
  ids: number[],
  context: SliceContext,
): SliceOutcome<CourseBulkRefusal> {
  return action === "delete" ? deleteSlice(db, viewer, ids, context) : updateSlice(db, viewer, action, params, ids, context);
}
