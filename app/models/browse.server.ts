import { and, asc, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { carousels, categories, courseCompletions, courses, lessonProgress, lessons, type Course } from "../../db/tenant";

/**
 * What the learner's browsing pages show on a course card (issue 18): cover, kind, episode count, total
 * duration and — for a signed-in learner — how far they are. Counted in two grouped queries for all the
 * cards of a page, never one per card. Quiz lessons count only when the course allows quizzes, as in
 * learning.server's completion rule.
 */
export type CoverUrl = (fileId: number | null | undefined) => string | null;

export interface CourseCardData {
  id: number;
  title: string;
  type: string;
  description: string;
  cover: string | null;
  episodes: number;
  durationSeconds: number;
  /** 0–100 for a learner who has started the course, null otherwise. */
  progress: number | null;
}

type CardCourse = Pick<Course, "id" | "title" | "type" | "coverFileId"> & {
  description?: string;
};

const counted = sql`(${lessons.kind} <> 'quiz' or ${courses.allowQuizzes} = 1)`;

export function courseStats(db: TenantConn, courseIds: number[], learnerId: number | null) {
  const ids = [...new Set(courseIds)];
  const stats = new Map<number, { episodes: number; durationSeconds: number; progress: number | null }>();
  if (ids.length === 0) return stats;
  const totals = db
    .select({
      courseId: lessons.courseId,
      n: count(),
      seconds: sql<number>`coalesce(sum(${lessons.durationSeconds}), 0)`,
    })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(and(inArray(lessons.courseId, ids), counted))
    .groupBy(lessons.courseId)
    .all();
  for (const id of ids) stats.set(id, { episodes: 0, durationSeconds: 0, progress: null });
  for (const row of totals)
    stats.set(row.courseId, {
      episodes: row.n,
      durationSeconds: Number(row.seconds) || 0,
      progress: null,
    });
  if (learnerId === null) return stats;
  const started = db
    .select({
      courseId: lessonProgress.courseId,
      done: sql<number>`sum(case when ${lessonProgress.completedAt} is not null and ${counted} then 1 else 0 end)`,
    })
    .from(lessonProgress)
    .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
    .innerJoin(courses, eq(courses.id, lessonProgress.courseId))
    .where(and(eq(lessonProgress.userId, learnerId), inArray(lessonProgress.courseId, ids)))
    .groupBy(lessonProgress.courseId)
    .all();
  for (const row of started) {
    const s = stats.get(row.courseId)!;
    s.progress = s.episodes ? Math.min(100, Math.round((100 * Number(row.done)) / s.episodes)) : 0;
  }
  const completed = db
    .select({ courseId: courseCompletions.courseId })
    .from(courseCompletions)
    .where(and(eq(courseCompletions.userId, learnerId), inArray(courseCompletions.courseId, ids)))
    .all();
  for (const row of completed) stats.get(row.courseId)!.progress = 100;
  return stats;
}

/** Cards for a list of courses, in the given order. `plain` turns a rich-text description into text. */
export function courseCards(
  db: TenantConn,
  rows: CardCourse[],
  {
    learnerId,
    cover,
    plain,
  }: {
    learnerId: number | null;
    cover: CoverUrl;
    plain: (html: string) => string;
  }
): CourseCardData[] {
  const stats = courseStats(
    db,
    rows.map((r) => r.id),
    learnerId
  );
  return rows.map((c) => ({
    id: c.id,
    title: c.title,
    type: c.type,
    description: c.description ? plain(c.description) : "",
    cover: cover(c.coverFileId),
    ...stats.get(c.id)!,
  }));
}

/** Categories with their cover and how many published courses each holds. */
export function categoryTiles(db: TenantConn, cover: CoverUrl) {
  const counts = new Map(
    db
      .select({ id: courses.categoryId, n: count() })
      .from(courses)
      .where(and(eq(courses.published, true), isNotNull(courses.categoryId)))
      .groupBy(courses.categoryId)
      .all()
      .map((r) => [r.id!, r.n])
  );
  return db
    .select()
    .from(categories)
    .orderBy(asc(categories.position), asc(categories.id))
    .all()
    .map((c) => ({
      id: c.id,
      name: c.name,
      cover: cover(c.coverFileId),
      courses: counts.get(c.id) ?? 0,
    }));
}

/** A category's published courses, in the catalogue's order. */
export function categoryCourses(db: TenantConn, categoryId: number) {
  return db
    .select()
    .from(courses)
    .where(and(eq(courses.categoryId, categoryId), eq(courses.published, true)))
    .orderBy(asc(courses.position), asc(courses.id))
    .all();
}

/** The cover of a carousel, for its page. */
export function carouselCover(db: TenantConn, carouselId: number) {
  return db.select({ coverFileId: carousels.coverFileId }).from(carousels).where(eq(carousels.id, carouselId)).get()?.coverFileId ?? null;
}
