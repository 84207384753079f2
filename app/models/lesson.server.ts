import { and, asc, count, eq, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn, TenantDb } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { courses, files, lessons, type Lesson } from "../../db/tenant";
import { lessonFields } from "./forms/courses";
import type { Page } from "../utils/pagination";
import type { Resource, WriteResult } from "./resource";
import type { Viewer } from "../access/viewer";
import { sanitizeRichText } from "../utils/sanitize.server";
import { lessonAccess, openableCourses, visibleCourses } from "../access/courses";
import { mayPreview } from "../access/rules";
import { moveRow, nextPosition, type Move } from "./ordering.server";
import { contains } from "../utils/pagination";

export function lessonView(lesson: Lesson) {
  return {
    id: lesson.id,
    course_id: lesson.courseId,
    title: lesson.title,
    kind: lesson.kind,
    body: lesson.body,
    file_id: lesson.fileId,
    video_url: lesson.videoUrl,
    duration_seconds: lesson.durationSeconds,
    position: lesson.position,
    created_at: lesson.createdAt.toISOString(),
    updated_at: lesson.updatedAt.toISOString(),
  };
}
export type LessonView = ReturnType<typeof lessonView>;

const fields = lessonFields;
const createSchema = z.object({ course_id: z.number().int().positive(), ...fields });
const updateSchema = z.object(
  Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.removeDefault().optional() : v.optional()]),
  ) as unknown as {
    [K in keyof typeof fields]: z.ZodOptional<z.ZodTypeAny>;
  },
);
type LessonInput = Partial<z.infer<typeof createSchema>>;

function columns(input: LessonInput) {
  const out: Partial<typeof lessons.$inferInsert> = {};
  if (input.title !== undefined) out.title = input.title;
  if (input.kind !== undefined) out.kind = input.kind;
  if (input.body !== undefined) out.body = sanitizeRichText(input.body);
  if (input.file_id !== undefined) out.fileId = input.file_id;
  if (input.video_url !== undefined) out.videoUrl = input.video_url;
  if (input.duration_seconds !== undefined) out.durationSeconds = input.duration_seconds;
  return out;
}

/** A video lesson has a video (a file or an address); an image lesson an image; files must be of the kind. */
function check(db: TenantConn, merged: { kind: string; fileId: number | null; videoUrl: string | null }): WriteResult<null> {
  const file = merged.fileId ? db.select({ kind: files.kind }).from(files).where(eq(files.id, merged.fileId)).get() : undefined;
  if (merged.fileId && !file) return { ok: false, field: "file_id", message: "validation.invalid" };
  if (merged.kind === "video") {
    if (!merged.fileId && !merged.videoUrl) return { ok: false, field: "video_url", message: "validation.required" };
    if (file && file.kind !== "video") return { ok: false, field: "file_id", message: "validation.invalid" };
  }
  if (merged.kind === "image") {
    if (!file) return { ok: false, field: "file_id", message: "validation.required" };
    if (file.kind !== "image") return { ok: false, field: "file_id", message: "validation.invalid" };
  }
  return { ok: true, value: null };
}

export function listLessons(db: TenantConn, courseId: number) {
  return db.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position), asc(lessons.id)).all();
}

export function getLesson(db: TenantConn, id: number) {
  return preparedOnce(db, "lesson.get", () =>
    db
      .select()
      .from(lessons)
      .where(eq(lessons.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id });
}

export function createLesson(db: TenantConn, input: z.infer<typeof createSchema>): WriteResult<Lesson> {
  const course = db.select().from(courses).where(eq(courses.id, input.course_id)).get();
  if (!course) return { ok: false, field: "course_id", message: "validation.invalid" };
  const values = columns(input);
  const checked = check(db, { kind: values.kind ?? "text", fileId: values.fileId ?? null, videoUrl: values.videoUrl ?? null });
  if (!checked.ok) return checked;
  if (course.type === "movie" && (db.select({ n: count() }).from(lessons).where(eq(lessons.courseId, course.id)).get()?.n ?? 0) >= 1) {
    // docs/product.md §1: a movie is a single episode.
    return { ok: false, field: "course_id", message: "validation.movieSingleEpisode" };
  }
  const row = db
    .insert(lessons)
    .values({ ...values, title: values.title!, courseId: course.id, position: nextPosition(db, lessons, eq(lessons.courseId, course.id)) })
    .returning()
    .get();
  return { ok: true, value: row };
}

export function updateLesson(db: TenantConn, id: number, input: LessonInput): WriteResult<Lesson> | null {
  const existing = getLesson(db, id);
  if (!existing) return null;
  const values = columns(input);
  const merged = { ...existing, ...values };
  const checked = check(db, { kind: merged.kind, fileId: merged.fileId ?? null, videoUrl: merged.videoUrl ?? null });
  if (!checked.ok) return checked;
  const row = Object.keys(values).length ? db.update(lessons).set(values).where(eq(lessons.id, id)).returning().get() : existing;
  return { ok: true, value: row! };
}

export function deleteLesson(db: TenantConn, id: number) {
  return db.delete(lessons).where(eq(lessons.id, id)).run().changes > 0;
}

export function moveLesson(db: TenantConn, id: number, to: Move) {
  const lesson = getLesson(db, id);
  return lesson ? moveRow(db, lessons, id, to, eq(lessons.courseId, lesson.courseId)) : false;
}

/**
 * What a viewer may see of lessons (the same rules as the pages): editors everything; learners only the
 * lessons of courses they may open, and of a locked lesson (order enforced) its title but not its content.
 */
export function lessonsForViewer(db: TenantDb, viewer: Viewer, rows: Lesson[]): Array<LessonView & { locked?: boolean }> {
  if (mayPreview(viewer)) return rows.map(lessonView);
  const courseCache = new Map<number, typeof courses.$inferSelect | undefined>();
  return rows.flatMap((lesson) => {
    if (!courseCache.has(lesson.courseId))
      courseCache.set(lesson.courseId, db.select().from(courses).where(eq(courses.id, lesson.courseId)).get());
    const course = courseCache.get(lesson.courseId);
    if (!course) return [];
    const view = lessonView(lesson);
    return lessonAccess(db, viewer, course, lesson).allowed
      ? [view]
      : [{ ...view, body: "", video_url: null, file_id: null, locked: true }];
  });
}

function pageOf(db: TenantDb, viewer: Viewer, where: SQL | undefined, page: Page) {
  const base = db.select({ lesson: lessons }).from(lessons).innerJoin(courses, eq(courses.id, lessons.courseId));
  const rows = base
    .where(and(where, visibleCourses(viewer)))
    .orderBy(asc(lessons.courseId), asc(lessons.position), asc(lessons.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map((r) => r.lesson);
  const items = lessonsForViewer(db, viewer, rows);
  const total =
    db
      .select({ n: count() })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(where, visibleCourses(viewer)))
      .get()?.n ?? 0;
  return { items, total };
}

/**
 * Lessons whose title or text holds `q`: by title, any lesson of a course the viewer sees; by text, only
 * lessons of courses they may open (app/access/courses.ts) — a match in a text they may not read would
 * tell them what it says. Paged and counted in SQL, so the total tells nothing either.
 */
function searchLessons(db: TenantDb, viewer: Viewer, q: string, page: Page) {
  const opened = openableCourses(db, viewer);
  const where = or(and(contains(lessons.title, q), visibleCourses(viewer)), and(contains(lessons.body, q), opened ?? sql`1`));
  return pageOf(db, viewer, where, page);
}

export const lessonResource: Resource<LessonView, typeof createSchema, typeof updateSchema> = {
  read: "read:course",
  write: "write:course",
  createSchema,
  updateSchema,
  list: (db, viewer, page, filters) =>
    pageOf(db, viewer, filters.course_id ? eq(lessons.courseId, Number(filters.course_id) || -1) : undefined, page),
  search: (db, viewer, q, page) => searchLessons(db, viewer, q, page),
  get: (db, viewer, id) => {
    const row = db
      .select({ lesson: lessons })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(eq(lessons.id, id), visibleCourses(viewer)))
      .get();
    return row ? (lessonsForViewer(db, viewer, [row.lesson])[0] ?? null) : null;
  },
  create: (db, viewer, input) => {
    const result = createLesson(db, input);
    return result.ok ? { ok: true, value: lessonView(result.value) } : result;
  },
  update: (db, viewer, id, input) => {
    const result = updateLesson(db, id, input as LessonInput);
    return result === null ? null : result.ok ? { ok: true, value: lessonView(result.value) } : result;
  },
  remove: (db, viewer, id) => deleteLesson(db, id),
};
