import { and, asc, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { countedLessons, isLessonHidden, isVisible, lessonAccess, published } from "../access/courses";
import { mayPreview } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { courses, lessons, type Course, type Lesson } from "../../db/tenant";
import { getLesson } from "./lesson.server";

/**
 * Courses and lessons by id as the learner's side finds them (docs/product.md §4): a draft is found only by
 * those who may preview it, a quiz lesson its course hides not at all. Whether the viewer may open what is
 * found is app/access/courses.ts's to say (`courseAccess`, `lessonAccess`).
 */

/**
 * A course as the viewer may find it by its id: published, or a draft for those who may preview it
 * (app/access/courses.ts). Whether they may open it is `courseAccess`'s to say.
 */
export function findCourse(db: TenantConn, viewer: Viewer, id: number) {
  const drafts = mayPreview(viewer);
  return preparedOnce(db, drafts ? "courseLookup.course" : "courseLookup.publishedCourse", () =>
    db
      .select()
      .from(courses)
      .where(and(eq(courses.id, sql.placeholder("id")), drafts ? undefined : published))
      .prepare(),
  ).get({ id });
}

/**
 * A lesson by its id with its course, as the viewer may find them: the course by `findCourse`, and not a
 * quiz lesson its course hides. Whether they may open it is `lessonAccess`'s to say.
 */
export function findLesson(db: TenantConn, viewer: Viewer, lessonId: number): { lesson: Lesson; course: Course } | undefined {
  const lesson = getLesson(db, lessonId);
  const course = lesson ? findCourse(db, viewer, lesson.courseId) : undefined;
  if (!lesson || !course || isLessonHidden(viewer, course, lesson)) return undefined;
  return { lesson, course };
}

/** A course by its id if the viewer sees it listed (app/access/courses.ts), e.g. the home page's featured one. */
export function findVisibleCourse(db: TenantConn, viewer: Viewer, id: number) {
  const course = findCourse(db, viewer, id);
  return course && isVisible(db, viewer, course) ? course : undefined;
}

/** Any course by its id, whatever its state: for the rules' own checks and the management screens. */
export function courseById(db: TenantConn, id: number) {
  return preparedOnce(db, "courseLookup.course", () =>
    db
      .select()
      .from(courses)
      .where(eq(courses.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id });
}

/** The lessons that count for a course (app/access/courses.ts `countedLessons`), in their order. */
export function courseLessons(db: TenantConn, courseId: number) {
  return preparedOnce(db, "courseLookup.courseLessons", () =>
    db
      .select()
      .from(lessons)
      .where(countedLessons(sql.placeholder("courseId")))
      .orderBy(asc(lessons.position), asc(lessons.id))
      .prepare(),
  ).all({ courseId });
}

/** Whether a viewer may watch a stored file: it is the media of a lesson they may open. */
export function canWatchFile(db: TenantConn, viewer: Viewer, fileId: number) {
  const candidates = db.select().from(lessons).where(eq(lessons.fileId, fileId)).all();
  return candidates.some((lesson) => {
    const course = findCourse(db, viewer, lesson.courseId);
    return Boolean(course && lessonAccess(db, viewer, course, lesson).allowed);
  });
}
