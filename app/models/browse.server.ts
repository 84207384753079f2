import { and, asc, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { isPublished, visibleCourses, visibleCoursesPrepared } from "../access/courses";
import type { Viewer } from "../access/viewer";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import { cachedByVersion } from "../../db/content-cache";
import { plannedLimit } from "../../db/planned-limit";
import { preparedOnce } from "../../db/prepared";
import { contentVersionOf } from "./content-version.server";
import { lastSeenCourses } from "./learning.server";
import { carousels, categories, courseCompletions, courses, files, lessonProgress, lessons, type Course } from "../../db/tenant";
import type { WriteResult } from "./resource";

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
  /** Not yet published: only those who may preview see it listed (app/access/courses.ts), marked as a draft. */
  draft: boolean;
}

type CardCourse = Pick<Course, "id" | "title" | "type" | "coverFileId" | "published"> & {
  description?: string;
};

const counted = sql`(${lessons.kind} <> 'quiz' or ${courses.allowQuizzes} = 1)`;

/** The course ids of a page, as one JSON parameter: a query over any number of them is prepared once. */
const idsIn = (column: typeof lessons.courseId | typeof lessonProgress.courseId | typeof courseCompletions.courseId) =>
  sql`${column} in (select value from json_each(${sql.placeholder("ids")}))`;

/**
 * Episodes and running time of courses. What a course's lessons add up to changes only with the content, so
 * the totals worked out for a page are kept per connection while the content version is unchanged, and only
 * courses not yet counted are counted (on the learner home of a 1,000-course organization, 0.6 ms of SQL
 * on every page otherwise).
 */
function courseTotals(db: TenantConn, ids: number[]) {
  const kept = cachedByVersion(
    db,
    "browse.courseTotals",
    () => contentVersionOf(db),
    () => new Map<number, { episodes: number; durationSeconds: number }>(),
  );
  const missing = ids.filter((id) => !kept.has(id));
  if (missing.length === 0) return kept;
  const rows = preparedOnce(db, "browse.courseTotals", () =>
    db
      .select({
        courseId: lessons.courseId,
        n: count(),
        seconds: sql<number>`coalesce(sum(${lessons.durationSeconds}), 0)`,
      })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(idsIn(lessons.courseId), counted))
      .groupBy(lessons.courseId)
      .prepare(),
  ).all({ ids: JSON.stringify(missing) });
  for (const id of missing) kept.set(id, { episodes: 0, durationSeconds: 0 });
  for (const row of rows) kept.set(row.courseId, { episodes: row.n, durationSeconds: Number(row.seconds) || 0 });
  return kept;
}

export function courseStats(db: TenantConn, courseIds: number[], learnerId: number | null) {
  const ids = [...new Set(courseIds)];
  const stats = new Map<number, { episodes: number; durationSeconds: number; progress: number | null }>();
  if (ids.length === 0) return stats;
  const idsJson = JSON.stringify(ids);
  const totals = courseTotals(db, ids);
  for (const id of ids) stats.set(id, { ...totals.get(id)!, progress: null });
  if (learnerId === null) return stats;
  // Completed lessons count whole; a video begun counts by how far into it the learner got.
  const started = preparedOnce(db, "browse.courseStarted", () =>
    db
      .select({
        courseId: lessonProgress.courseId,
        done: sql<number>`sum(case when not ${counted} then 0 when ${lessonProgress.completedAt} is not null then 1.0 when ${lessons.durationSeconds} > 0 then min(1.0, ${lessonProgress.positionSeconds} * 1.0 / ${lessons.durationSeconds}) else 0 end)`,
      })
      .from(lessonProgress)
      .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
      .innerJoin(courses, eq(courses.id, lessonProgress.courseId))
      .where(and(eq(lessonProgress.userId, sql.placeholder("learnerId")), idsIn(lessonProgress.courseId)))
      .groupBy(lessonProgress.courseId)
      .prepare(),
  ).all({ learnerId, ids: idsJson });
  for (const row of started) {
    const s = stats.get(row.courseId)!;
    s.progress = s.episodes ? Math.min(99, Math.round((100 * Number(row.done)) / s.episodes)) : 0;
  }
  const completed = preparedOnce(db, "browse.courseCompleted", () =>
    db
      .select({ courseId: courseCompletions.courseId })
      .from(courseCompletions)
      .where(and(eq(courseCompletions.userId, sql.placeholder("learnerId")), idsIn(courseCompletions.courseId)))
      .prepare(),
  ).all({ learnerId, ids: idsJson });
  for (const row of completed) stats.get(row.courseId)!.progress = 100;
  return stats;
}

/** Card rows kept per connection at most; past this many the kept rows are dropped and fetched again. */
const MAX_KEPT_CARD_ROWS = 2_000;

/** The card fields of courses by id, kept per connection while the content version is unchanged. */
function cardRows(db: TenantConn, ids: number[]) {
  const kept = cachedByVersion(
    db,
    "browse.cardRows",
    () => contentVersionOf(db),
    () => new Map<number, CardCourse>(),
  );
  let missing = ids.filter((id) => !kept.has(id));
  if (missing.length === 0) return kept;
  if (kept.size + missing.length > MAX_KEPT_CARD_ROWS) {
    // Started again: every row this call needs is fetched, not only those missing before the clear.
    kept.clear();
    missing = [...new Set(ids)];
  }
  const rows = preparedOnce(db, "browse.cardRows", () =>
    db
      .select({
        id: courses.id,
        title: courses.title,
        type: courses.type,
        coverFileId: courses.coverFileId,
        description: courses.description,
        published: courses.published,
      })
      .from(courses)
      .where(sql`${courses.id} in (select value from json_each(${sql.placeholder("ids")}))`)
      .prepare(),
  ).all({ ids: JSON.stringify(missing) });
  for (const row of rows) kept.set(row.id, row);
  return kept;
}

/**
 * The published courses a learner watched most recently, newest first, as card rows (the home page's
 * "continue watching"). The learner's courses (`lastSeenCourses`) are joined to their courses only to keep
 * the published ones; the cards' fields come from `cardRows`, so no whole course row is read or mapped per
 * request.
 */
export function recentCourseCards(db: TenantConn, viewer: Viewer, limit: number): CardCourse[] {
  if (!viewer.person) return [];
  const visible = visibleCoursesPrepared(viewer);
  const ids = preparedOnce(db, `browse.recentCourseIds.${visible.key}`, () => {
    const seen = lastSeenCourses(db);
    return db
      .select({ id: courses.id })
      .from(seen)
      .innerJoin(courses, eq(courses.id, seen.courseId))
      .where(visible.where)
      .orderBy(desc(seen.lastSeen), desc(courses.id))
      .limit(plannedLimit(sql.placeholder("limit")))
      .prepare();
  })
    .all({ userId: viewer.person.id, limit, ...visible.params })
    .map((r) => r.id);
  const rows = cardRows(db, ids);
  return ids.flatMap((id) => rows.get(id) ?? []);
}

/** Cards for a list of courses, in the given order. `plain` turns a rich-text description into text. */
export function courseCards(
  db: TenantConn,
  rows: CardCourse[],
  {
    learnerId,
    cover,
    plain,
    stats = courseStats(
      db,
      rows.map((r) => r.id),
      learnerId,
    ),
  }: {
    learnerId: number | null;
    cover: CoverUrl;
    plain: (html: string) => string;
    /** Counted beforehand for several lists at once (`courseStats` over all their ids). */
    stats?: ReturnType<typeof courseStats>;
  },
): CourseCardData[] {
  return rows.map((c) => ({
    id: c.id,
    title: c.title,
    type: c.type,
    description: c.description ? plain(c.description) : "",
    cover: cover(c.coverFileId),
    ...stats.get(c.id)!,
    draft: !isPublished(c),
  }));
}

/** Categories with their cover and how many of the courses the viewer sees each holds. */
export function categoryTiles(db: TenantConn, viewer: Viewer, cover: CoverUrl) {
  const visible = visibleCoursesPrepared(viewer);
  // Both prepared once per connection (and variant): every home page shows the tiles.
  const counts = new Map(
    preparedOnce(db, `browse.categoryCounts.${visible.key}`, () =>
      db
        .select({ id: courses.categoryId, n: count() })
        .from(courses)
        .where(and(visible.where, isNotNull(courses.categoryId)))
        .groupBy(courses.categoryId)
        .prepare(),
    )
      .all(visible.params)
      .map((r) => [r.id!, r.n]),
  );
  return preparedOnce(db, "browse.categoriesInOrder", () =>
    db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)).prepare(),
  )
    .all()
    .map((c) => ({
      id: c.id,
      name: c.name,
      cover: cover(c.coverFileId),
      courses: counts.get(c.id) ?? 0,
    }));
}

/** A category's courses the viewer sees, in the catalogue's order. */
export function categoryCourses(db: TenantConn, viewer: Viewer, categoryId: number) {
  return db
    .select()
    .from(courses)
    .where(and(eq(courses.categoryId, categoryId), visibleCourses(viewer)))
    .orderBy(asc(courses.position), asc(courses.id))
    .all();
}

/** The cover of a carousel, for its page. */
export function carouselCover(db: TenantConn, carouselId: number) {
  return db.select({ coverFileId: carousels.coverFileId }).from(carousels).where(eq(carousels.id, carouselId)).get()?.coverFileId ?? null;
}

/** Images of the file library that can be chosen as a cover, newest first (admin screens). */
export function coverChoices(db: TenantConn) {
  return db
    .select({ id: files.id, name: files.name })
    .from(files)
    .where(eq(files.kind, "image"))
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(500)
    .all();
}

/** What the cover field of a form may hold: nothing (no cover) or a file id. */
export const coverFieldSchema = z.union([
  z.literal("").transform(() => null),
  z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
]);

/**
 * Sets (or with null clears) the cover of a category or carousel; the file must be an image of this
 * organization's library.
 */
export function isCoverImage(db: TenantConn, fileId: number) {
  return db.select({ kind: files.kind }).from(files).where(eq(files.id, fileId)).get()?.kind === "image";
}

export function setCover(db: TenantConn, kind: "category" | "carousel", id: number, fileId: number | null): WriteResult<null> {
  if (fileId !== null && !isCoverImage(db, fileId)) return { ok: false, field: "cover_file_id", message: "validation.invalid" };
  const table = kind === "category" ? categories : carousels;
  db.update(table).set({ coverFileId: fileId }).where(eq(table.id, id)).run();
  return { ok: true, value: null };
}
