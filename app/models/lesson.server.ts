import { and, asc, count, eq, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { courses, files, LESSON_KINDS, lessons, type Lesson } from "../../db/tenant";
import type { Page } from "../utils/pagination";
import type { Resource, ResourceScope, WriteResult } from "../kernel/resource.server";
import { sanitizeRichText } from "../utils/sanitize.server";
import { courseAccess, lessonAccess } from "./learning.server";
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

const httpUrl = z.string().max(2000).url("validation.url").refine((v) => /^https?:\/\//i.test(v), "validation.url");

const fields = {
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  kind: z.enum(LESSON_KINDS).default("text"),
  body: z.string().max(100_000).default(""),
  file_id: z.number().int().positive().nullable().default(null),
  video_url: httpUrl.nullable().default(null),
  duration_seconds: z.number().int().min(0).max(86_400).nullable().default(null),
};
const createSchema = z.object({ course_id: z.number().int().positive(), ...fields });
const updateSchema = z.object(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.removeDefault().optional() : v.optional()])) as unknown as {
    [K in keyof typeof fields]: z.ZodOptional<z.ZodTypeAny>;
  },
);
type LessonInput = Partial<z.infer<typeof createSchema>>;

/** Learners (no write:course) reach only the lessons of published courses. */
function visibleCourses(scope: ResourceScope): SQL | undefined {
  return scope.viewer.capabilities.has("write:course") ? undefined : eq(courses.published, true);
}

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
  return preparedOnce(db, "lesson.get", () => db.select().from(lessons).where(eq(lessons.id, sql.placeholder("id"))).prepare()).get({ id });
}

export function createLesson(db: TenantConn, input: z.infer<typeof createSchema>): WriteResult<Lesson> {
  const course = db.select().from(courses).where(eq(courses.id, input.course_id)).get();
  if (!course) return { ok: false, field: "course_id", message: "validation.invalid" };
  const values = columns(input);
  const checked = check(db, { kind: values.kind ?? "text", fileId: values.fileId ?? null, videoUrl: values.videoUrl ?? null });
  if (!checked.ok) return checked;
  if (course.type === "movie" && (db.select({ n: count() }).from(lessons).where(eq(lessons.courseId, course.id)).get()?.n ?? 0) >= 1) {
    // Spec §1: a movie is a single episode.
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
export function lessonsForViewer(scope: ResourceScope, rows: Lesson[]): Array<LessonView & { locked?: boolean }> {
  if (scope.viewer.capabilities.has("write:course")) return rows.map(lessonView);
  const learner = scope.viewer.person ? { id: scope.viewer.person.id, canPreview: false } : null;
  const courseCache = new Map<number, typeof courses.$inferSelect | undefined>();
  return rows.flatMap((lesson) => {
    if (!courseCache.has(lesson.courseId)) courseCache.set(lesson.courseId, scope.db.select().from(courses).where(eq(courses.id, lesson.courseId)).get());
    const course = courseCache.get(lesson.courseId);
    if (!course || !courseAccess(scope.db, course, learner).allowed) return [];
    const view = lessonView(lesson);
    return lessonAccess(scope.db, course, lesson, learner).allowed ? [view] : [{ ...view, body: "", video_url: null, file_id: null, locked: true }];
  });
}

function pageOf(scope: ResourceScope, where: SQL | undefined, page: Page) {
  const base = scope.db.select({ lesson: lessons }).from(lessons).innerJoin(courses, eq(courses.id, lessons.courseId));
  const rows = base
    .where(and(where, visibleCourses(scope)))
    .orderBy(asc(lessons.courseId), asc(lessons.position), asc(lessons.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map((r) => r.lesson);
  const items = lessonsForViewer(scope, rows);
  const total =
    scope.db.select({ n: count() }).from(lessons).innerJoin(courses, eq(courses.id, lessons.courseId)).where(and(where, visibleCourses(scope))).get()?.n ?? 0;
  return { items, total };
}

export const lessonResource: Resource<LessonView, typeof createSchema, typeof updateSchema> = {
  read: "read:course",
  write: "write:course",
  createSchema,
  updateSchema,
  list: (scope, page, filters) => pageOf(scope, filters.course_id ? eq(lessons.courseId, Number(filters.course_id) || -1) : undefined, page),
  search: (scope, q, page) => {
    return pageOf(scope, or(contains(lessons.title, q), contains(lessons.body, q)), page);
  },
  get: (scope, id) => {
    const row = scope.db.select({ lesson: lessons }).from(lessons).innerJoin(courses, eq(courses.id, lessons.courseId)).where(and(eq(lessons.id, id), visibleCourses(scope))).get();
    return row ? (lessonsForViewer(scope, [row.lesson])[0] ?? null) : null;
  },
  create: (scope, input) => {
    const result = createLesson(scope.db, input);
    return result.ok ? { ok: true, value: lessonView(result.value) } : result;
  },
  update: (scope, id, input) => {
    const result = updateLesson(scope.db, id, input as LessonInput);
    return result === null ? null : result.ok ? { ok: true, value: lessonView(result.value) } : result;
  },
  remove: (scope, id) => deleteLesson(scope.db, id),
};
