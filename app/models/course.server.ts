import { and, asc, count, eq } from "drizzle-orm";
import { courses, type NewCourse } from "../../db/tenant";
import type { TenantConn } from "../../db/open";
import type { Page } from "../utils/pagination";

export function createCourse(db: TenantConn, input: Omit<NewCourse, "id" | "createdAt" | "updatedAt">) {
  return db.insert(courses).values(input).returning().get();
}

/** Published courses in their display order: what any visitor of the organization may see listed. */
export function listPublishedCourses(db: TenantConn, page: Page) {
  const where = eq(courses.published, true);
  const items = db
    .select({
      id: courses.id,
      title: courses.title,
      description: courses.description,
      type: courses.type,
      createdAt: courses.createdAt,
    })
    .from(courses)
    .where(and(where))
    .orderBy(asc(courses.position), asc(courses.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  const total = db.select({ n: count() }).from(courses).where(where).get()?.n ?? 0;
  return { items, total };
}
