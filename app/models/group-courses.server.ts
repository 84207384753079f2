import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courses, groupCourses } from "../../db/tenant";

/** A group's courses (docs/product.md §3 Group): attaching and detaching them, and listing them. */

export function attachCourses(db: TenantConn, groupId: number, courseIds: number[]) {
  const existing = courseIds.length
    ? db
        .select({ id: courses.id })
        .from(courses)
        .where(inArray(courses.id, courseIds))
        .all()
        .map((c) => c.id)
    : [];
  for (const courseId of existing) db.insert(groupCourses).values({ groupId, courseId }).onConflictDoNothing().run();
  return existing.length;
}

export function detachCourse(db: TenantConn, groupId: number, courseId: number) {
  return (
    db
      .delete(groupCourses)
      .where(and(eq(groupCourses.groupId, groupId), eq(groupCourses.courseId, courseId)))
      .run().changes > 0
  );
}

export function groupCourseList(db: TenantConn, groupId: number) {
  return db
    .select({ id: courses.id, title: courses.title, forceGroups: courses.forceGroups, blockDefaultAccess: courses.blockDefaultAccess })
    .from(groupCourses)
    .innerJoin(courses, eq(courses.id, groupCourses.courseId))
    .where(eq(groupCourses.groupId, groupId))
    .orderBy(asc(courses.title))
    .all();
}

export function coursesNotInGroup(db: TenantConn, groupId: number) {
  const attached = db.select({ id: groupCourses.courseId }).from(groupCourses).where(eq(groupCourses.groupId, groupId));
  return db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(notInArray(courses.id, attached))
    .orderBy(asc(courses.title))
    .all();
}
