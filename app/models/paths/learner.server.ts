import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { preparedOnce } from "../../../db/prepared";
import { courseCompletions, courses, learningPaths, lessonProgress, lessons, pathEnrolments } from "../../../db/tenant";
import { isLessonHidden, visibleCourses } from "../../access/courses";
import { isPathVisible, mayEnrolInPath, visiblePaths, visiblePathsPrepared } from "../../access/paths";
import type { Viewer } from "../../access/viewer";
import { completionTimes, countedCompletions, progressOf, settledProgressOnPath, stepRules } from "./enrolments.server";
import { pathProgress, type PathProgress, type StepRule, type StepState } from "./progress";

/*
 * Learning paths as their learners see them (issue 49, docs/decisions/045-learning-paths.md): the paths listed
 * for a viewer, those a person is on with their progress ("Your paths" on the home page and /paths), one path's
 * steps as a timeline with each of its courses, and the paths a course page names. Which paths and courses a
 * viewer sees is app/access's to say; these read what it allows.
 */

/** A path as a card: its title, cover, size, and the person's progress when they are on it. */
export interface PathCard {
  id: number;
  title: string;
  coverFileId: number | null;
  steps: number;
  courses: number;
  /** The person's progress, 0–100, or null when they are not on the path. */
  percent: number | null;
  done: boolean;
}

/** What a path's steps make of its card: how many steps and courses. */
function size(rules: StepRule[]) {
  return { steps: rules.length, courses: new Set(rules.flatMap((r) => r.courseIds)).size };
}

/** Every path the viewer sees, in the admins' order (not a learner's hot page: /paths). */
export function pathCatalogue(db: TenantConn, viewer: Viewer): PathCard[] {
  return db
    .select()
    .from(learningPaths)
    .where(visiblePaths(viewer))
    .orderBy(asc(learningPaths.position), asc(learningPaths.id))
    .all()
    .map((p) => ({ id: p.id, title: p.title, coverFileId: p.coverFileId, ...size(stepRules(db, p.id)), percent: null, done: false }));
}

/** The paths of a category the viewer sees, in the admins' order: the category's page lists them above its courses. */
export function categoryPaths(db: TenantConn, viewer: Viewer, categoryId: number): PathCard[] {
  const where = visiblePaths(viewer);
  return db
    .select()
    .from(learningPaths)
    .where(where ? and(eq(learningPaths.categoryId, categoryId), where) : eq(learningPaths.categoryId, categoryId))
    .orderBy(asc(learningPaths.position), asc(learningPaths.id))
    .all()
    .map((p) => ({ id: p.id, title: p.title, coverFileId: p.coverFileId, ...size(stepRules(db, p.id)), percent: null, done: false }));
}

/**
 * The paths a person is on that the viewer still sees, most recently enrolled first: one prepared read by the
 * person's id (`path_enrolments_user_idx`), so a learner on no path costs the home page nothing more.
 */
function enrolmentsOf(db: TenantConn, viewer: Viewer, userId: number) {
  const rule = visiblePathsPrepared(viewer);
  return preparedOnce(db, `paths.enrolmentsOf.${rule.key}`, () =>
    db
      .select({
        pathId: pathEnrolments.pathId,
        userId: pathEnrolments.userId,
        source: pathEnrolments.source,
        cycle: pathEnrolments.cycle,
        expiresOn: pathEnrolments.expiresOn,
        enrolledAt: pathEnrolments.enrolledAt,
        completedAt: pathEnrolments.completedAt,
        title: learningPaths.title,
        coverFileId: learningPaths.coverFileId,
      })
      .from(pathEnrolments)
      .innerJoin(learningPaths, eq(learningPaths.id, pathEnrolments.pathId))
      .where(and(eq(pathEnrolments.userId, sql.placeholder("userId")), rule.where))
      .orderBy(desc(pathEnrolments.enrolledAt), desc(pathEnrolments.pathId))
      .prepare(),
  ).all({ userId, ...rule.params });
}

/** The paths a person is on and still sees, as cards: those under way first (latest enrolment first), then those done. */
export function yourPaths(db: TenantConn, viewer: Viewer, userId: number, now = new Date()): PathCard[] {
  const rows = enrolmentsOf(db, viewer, userId);
  if (rows.length === 0) return [];
  const completed = completionTimes(db, userId);
  const list = rows.map((e) => {
    const rules = stepRules(db, e.pathId);
    const progress = pathProgress(rules, { enrolledAt: e.enrolledAt, completedAt: countedCompletions(completed, e), now });
    const done = e.completedAt !== null || progress.doneAt !== null;
    return { id: e.pathId, title: e.title, coverFileId: e.coverFileId, ...size(rules), percent: done ? 100 : progress.percent, done };
  });
  return [...list.filter((c) => !c.done), ...list.filter((c) => c.done)];
}

/** A course of a step, as the path page shows it. */
export interface StepCourse {
  id: number;
  /** Null for a course the viewer cannot see: the path does not open it for them, nor name it. */
  title: string | null;
  completed: boolean;
}

export interface PathPageStep {
  id: number;
  number: number;
  kind: "course" | "choice";
  title: string;
  required: number;
  delayDays: number;
  courses: StepCourse[];
  state: StepState;
}

/** The first lesson of a course the person has not completed (in order, the lessons they may see), or null. */
function nextLessonOf(db: TenantConn, viewer: Viewer, courseId: number, userId: number) {
  const course = db.select().from(courses).where(eq(courses.id, courseId)).get();
  if (!course) return null;
  const done = new Set(
    db
      .select({ lessonId: lessonProgress.lessonId })
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.courseId, courseId), isNotNull(lessonProgress.completedAt)))
      .all()
      .map((r) => r.lessonId),
  );
  const list = db
    .select({ id: lessons.id, title: lessons.title, kind: lessons.kind })
    .from(lessons)
    .where(eq(lessons.courseId, courseId))
    .orderBy(asc(lessons.position), asc(lessons.id))
    .all()
    .filter((l) => !isLessonHidden(viewer, course, l));
  const lesson = list.find((l) => !done.has(l.id)) ?? list[0];
  return { courseId, courseTitle: course.title, lessonId: lesson?.id ?? null, lessonTitle: lesson?.title ?? null };
}

/**
 * One path as its page shows it to a viewer, or null when they do not see it: its steps in order with their
 * courses, and for a person on it their progress (completed when done and not yet marked) and where to
 * continue.
 */
export function pathPage(db: TenantConn, viewer: Viewer, pathId: number, userId: number | null, now = new Date()) {
  const path = db.select().from(learningPaths).where(eq(learningPaths.id, pathId)).get();
  if (!path || !isPathVisible(db, viewer, path)) return null;
  const rules = stepRules(db, path.id);
  const courseIds = [...new Set(rules.flatMap((r) => r.courseIds))];
  const seenWhere = visibleCourses(viewer);
  const seen = new Map(
    courseIds.length
      ? db
          .select({ id: courses.id, title: courses.title })
          .from(courses)
          .where(seenWhere ? and(inArray(courses.id, courseIds), seenWhere) : inArray(courses.id, courseIds))
          .all()
          .map((c) => [c.id, c.title])
      : [],
  );
  const found = userId === null ? null : personOnPath(db, viewer, path.id, userId, now);
  const progress: PathProgress | null = found?.progress ?? null;
  const completed = new Set(progress && userId !== null ? completedAmong(db, userId, courseIds) : []);
  const steps: PathPageStep[] = rules.map((rule, index) => {
    return {
      id: rule.id,
      number: index + 1,
      kind: rule.kind,
      title: rule.title,
      required: progress?.steps[index].required ?? Math.max(1, Math.min(rule.required, rule.courseIds.length || 1)),
      delayDays: rule.delayDays,
      courses: rule.courseIds.map((id) => ({ id, title: seen.get(id) ?? null, completed: completed.has(id) })),
      state: progress?.steps[index] ?? { state: "locked", completed: 0 },
    };
  });
  return {
    path,
    steps,
    enrolment: found?.enrolment ?? null,
    progress,
    mayEnrol: !found && mayEnrolInPath(db, viewer, path),
    next:
      progress?.next && userId !== null && seen.has(progress.next.courseId)
        ? nextLessonOf(db, viewer, progress.next.courseId, userId)
        : null,
  };
}

/**
 * A person's enrolment on a path and their progress, read as their kept pages read it (by their id: the person's
 * own rows, docs/caching.md), settled when the path is done but not marked yet (settledProgressOnPath).
 */
function personOnPath(db: TenantConn, viewer: Viewer, pathId: number, userId: number, now: Date) {
  const enrolment = enrolmentsOf(db, viewer, userId).find((e) => e.pathId === pathId);
  if (!enrolment) return null;
  const progress = progressOf(db, enrolment, { now });
  if (enrolment.completedAt || !progress.doneAt) return { enrolment, progress };
  return settledProgressOnPath(db, { pathId, userId, now });
}

/** Which of `courseIds` a person has completed (their current completion of each). */
function completedAmong(db: TenantConn, userId: number, courseIds: number[]): number[] {
  if (courseIds.length === 0) return [];
  return db
    .select({ courseId: courseCompletions.courseId })
    .from(courseCompletions)
    .where(and(eq(courseCompletions.userId, userId), inArray(courseCompletions.courseId, courseIds)))
    .all()
    .map((r) => r.courseId);
}

/**
 * The paths a person is on that hold a course, and which of each path's steps it is, for the course's page:
 * only paths the viewer still sees, latest enrolment first.
 */
export function pathsOfCourse(db: TenantConn, viewer: Viewer, userId: number, courseId: number) {
  return enrolmentsOf(db, viewer, userId).flatMap((e) => {
    const rules = stepRules(db, e.pathId);
    const at = rules.findIndex((r) => r.courseIds.includes(courseId));
    return at < 0 ? [] : [{ id: e.pathId, title: e.title, step: at + 1, steps: rules.length }];
  });
}

/** The paths a viewer sees whose title or description holds `q` (any case), in the admins' order: search's. */
export function searchPaths(db: TenantConn, viewer: Viewer, q: string, limit = 10) {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const match = sql`(lower(${learningPaths.title}) like ${pattern} escape '\\' or lower(${learningPaths.description}) like ${pattern} escape '\\')`;
  const where = visiblePaths(viewer);
  return db
    .select({ id: learningPaths.id, title: learningPaths.title })
    .from(learningPaths)
    .where(where ? and(match, where) : match)
    .orderBy(asc(learningPaths.position), asc(learningPaths.id))
    .limit(limit)
    .all();
}
