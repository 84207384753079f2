import { and, count, eq, inArray, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { categories, courses } from "../../db/tenant";
import type { COURSE_TYPES } from "../../db/vocabulary";
import { visibleCourses } from "../access/courses";
import type { Viewer } from "../access/viewer";
import { contains } from "../utils/pagination";
import type { CourseListQuery } from "./forms/course-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The management list of an organization's courses (issue 50; docs/decisions/046-management-lists.md): searched
 * by title, filtered by category, kind and published state, sorted by the organization's own order, title, or when
 * made or changed, a page at a time. Only the courses the viewer sees (app/access/courses.ts).
 */
export function courseList(db: TenantConn, viewer: Viewer, query: CourseListQuery) {
  const where = courseListWhere(viewer, query);
  const order = listOrder(
    query,
    { position: courses.position, title: courses.title, created: courses.createdAt, updated: courses.updatedAt },
    courses.id,
  );
  return listPage(query, {
    count: () => courseListCount(db, viewer, query),
    rows: (limit, offset) =>
      db
        .select({
          id: courses.id,
          title: courses.title,
          type: courses.type,
          published: courses.published,
          category: categories.name,
          updatedAt: courses.updatedAt,
        })
        .from(courses)
        .leftJoin(categories, eq(categories.id, courses.categoryId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}

/** The categories a course may be filtered by, by name. */
export function courseListCategories(db: TenantConn) {
  return db.select({ id: categories.id, name: categories.name }).from(categories).orderBy(categories.name, categories.id).all();
}

/** What the list's search and filters ask of a course, among those the viewer sees. */
function courseListWhere(viewer: Viewer, query: Pick<CourseListQuery, "q" | "filters">) {
  const { category, kind, state } = query.filters;
  const conditions: (SQL | undefined)[] = [
    visibleCourses(viewer),
    query.q ? contains(courses.title, query.q) : undefined,
    category ? eq(courses.categoryId, Number(category)) : undefined,
    kind ? eq(courses.type, kind as (typeof COURSE_TYPES)[number]) : undefined,
    state ? eq(courses.published, state === "published") : undefined,
  ];
  return and(...conditions);
}

/** How many courses the list's search and filters match (a bulk action's "all that match"). */
export function courseListCount(db: TenantConn, viewer: Viewer, query: Pick<CourseListQuery, "q" | "filters">): number {
  return db.select({ n: count() }).from(courses).where(courseListWhere(viewer, query)).get()?.n ?? 0;
}

/** Every course the list's search and filters match, by id: the courses a bulk action on "all that match" reaches. */
export function courseListIds(db: TenantConn, viewer: Viewer, query: Pick<CourseListQuery, "q" | "filters">): number[] {
  return db
    .select({ id: courses.id })
    .from(courses)
    .where(courseListWhere(viewer, query))
    .orderBy(courses.id)
    .all()
    .map((r) => r.id);
}

/** Those of these ids that are courses the viewer sees (the ticked rows a bulk action reaches). */
export function existingCourseIds(db: TenantConn, viewer: Viewer, ids: number[]): number[] {
  if (ids.length === 0) return [];
  return db
    .select({ id: courses.id })
    .from(courses)
    .where(and(inArray(courses.id, ids), visibleCourses(viewer)))
    .orderBy(courses.id)
    .all()
    .map((r) => r.id);
}
