import { and, asc, eq, isNull } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courses, lessons, quizLessons, type Course, type Lesson } from "../../db/tenant";
import { isLessonHidden, lessonAccess, published } from "../access/courses";
import { mayPreview } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { createLesson } from "./lesson.server";
import type { WriteResult } from "./resource";
import { getQuiz } from "./quiz.server";

/**
 * The lessons that show a quiz (docs/decisions/013-quizzes.md): attaching a quiz to a course as a `quiz`
 * lesson, pointing a lesson at a quiz, where a quiz is used, and through which lesson a learner takes it.
 */

/** Creates a `quiz` lesson at the end of the course, showing this quiz. */
export function attachQuiz(db: TenantConn, quizId: number, courseId: number, lessonTitle?: string): WriteResult<Lesson> {
  const quiz = getQuiz(db, quizId);
  if (!quiz) return { ok: false, field: "quiz_id", message: "validation.invalid" };
  return db.transaction((tx) => {
    const created = createLesson(tx, {
      course_id: courseId,
      title: lessonTitle?.trim() || quiz.title,
      kind: "quiz",
      body: "",
      file_id: null,
      video_url: null,
      duration_seconds: null,
    });
    if (!created.ok) return created;
    tx.insert(quizLessons).values({ lessonId: created.value.id, quizId }).run();
    return created;
  });
}

/** Points an existing `quiz` lesson (e.g. one added on the course screen) at this quiz. */
export function linkQuizLesson(db: TenantConn, quizId: number, lessonId: number): WriteResult<Lesson> {
  const lesson = db.select().from(lessons).where(eq(lessons.id, lessonId)).get();
  if (!lesson || lesson.kind !== "quiz" || !getQuiz(db, quizId)) return { ok: false, field: "lesson_id", message: "validation.invalid" };
  db.transaction((tx) => {
    tx.delete(quizLessons).where(eq(quizLessons.lessonId, lessonId)).run();
    tx.insert(quizLessons).values({ lessonId, quizId }).run();
  });
  return { ok: true, value: lesson };
}

/** A lesson that is no longer a `quiz` lesson stops pointing at a quiz (its past attempts stay). */
export function unlinkQuizLesson(db: TenantConn, lessonId: number) {
  db.delete(quizLessons).where(eq(quizLessons.lessonId, lessonId)).run();
}

/** Quiz lessons that show no quiz yet (added on the course screen, or whose quiz was deleted). */
export function unlinkedQuizLessons(db: TenantConn) {
  return db
    .select({ lessonId: lessons.id, lessonTitle: lessons.title, courseTitle: courses.title })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .leftJoin(quizLessons, eq(quizLessons.lessonId, lessons.id))
    .where(and(eq(lessons.kind, "quiz"), isNull(quizLessons.quizId)))
    .orderBy(asc(courses.title), asc(lessons.position))
    .all();
}

export function quizIdOfLesson(db: TenantConn, lessonId: number) {
  return db.select({ quizId: quizLessons.quizId }).from(quizLessons).where(eq(quizLessons.lessonId, lessonId)).get()?.quizId ?? null;
}

/** The courses and lessons a quiz is used in. */
export function quizUsage(db: TenantConn, quizId: number) {
  return db
    .select({
      lessonId: lessons.id,
      lessonTitle: lessons.title,
      courseId: courses.id,
      courseTitle: courses.title,
      allowQuizzes: courses.allowQuizzes,
    })
    .from(quizLessons)
    .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(eq(quizLessons.quizId, quizId))
    .orderBy(asc(courses.title), asc(lessons.position))
    .all();
}

/* ----------------------------------------------------------------------------------------- who may take it */

/**
 * The lesson through which this learner takes the quiz: the given one when it shows this quiz and the
 * learner may open it, else the first such lesson of a published course. Learners take quizzes only
 * through courses they may open; editors may also take them outside any course (lesson null).
 */
export function lessonForTaking(
  db: TenantConn,
  viewer: Viewer,
  quizId: number,
  preferredLessonId?: number | null,
): { lesson: Lesson; course: Course } | null | "none" {
  const rows = db
    .select({ lesson: lessons, course: courses })
    .from(quizLessons)
    .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(and(eq(quizLessons.quizId, quizId), mayPreview(viewer) ? undefined : published))
    .orderBy(asc(courses.position), asc(courses.id), asc(lessons.position))
    .all();
  const usable = rows.filter((r) => !isLessonHidden(viewer, r.course, r.lesson) && lessonAccess(db, viewer, r.course, r.lesson).allowed);
  const chosen = usable.find((r) => r.lesson.id === preferredLessonId) ?? (preferredLessonId ? undefined : usable[0]);
  if (chosen) return chosen;
  return mayPreview(viewer) && !preferredLessonId ? null : "none";
}

/** Quizzes a learner may take (through a lesson they may open), for GET /api/quizzes. */
export function takeableQuizIds(db: TenantConn, viewer: Viewer) {
  const rows = db
    .select({ quizId: quizLessons.quizId, lesson: lessons, course: courses })
    .from(quizLessons)
    .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(and(published, eq(courses.allowQuizzes, true)))
    .all();
  const ids = new Set<number>();
  for (const r of rows) if (!ids.has(r.quizId) && lessonAccess(db, viewer, r.course, r.lesson).allowed) ids.add(r.quizId);
  return ids;
}
