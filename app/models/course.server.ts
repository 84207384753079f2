import { and, asc, count, eq, or, sql, type SQL } from "drizzle-orm";
import { published, visibleCourses, visibleCoursesPrepared } from "../access/courses";
import { cachedByVersion } from "../../db/content-cache";
import { plannedLimit } from "../../db/planned-limit";
import { preparedOnce } from "../../db/prepared";
import { contentVersionOf } from "./content-version.server";
import { z } from "zod";
import { categories, courses, files, links, lessons, type Course, type NewCourse } from "../../db/tenant";
import { sanitizeRichText } from "../utils/sanitize.server";
import type { TenantConn } from "../../db/open";
import type { Page } from "../utils/pagination";
import { moveRow, nextPosition } from "./ordering.server";
import type { Resource, WriteResult } from "./resource";
import type { Viewer } from "../access/viewer";
import { contains } from "../utils/pagination";
import { courseFields, courseSchema } from "./forms/courses";

export function createCourse(db: TenantConn, input: Omit<NewCourse, "id" | "createdAt" | "updatedAt">) {
  return db.insert(courses).values(input).returning().get();
}

/**
 * A page of the courses the viewer sees (app/access/courses.ts), in their display order, and their number.
 * Both depend on the courses, their groups' courses and the viewer's groups alone, so they are kept per
 * connection while the content version is unchanged (every home page lists the first page), by the
 * rule's variant and the viewer's groups. The rows are shared by the callers that get them: read them,
 * never change them.
 */
export function listVisibleCourses(db: TenantConn, viewer: Viewer, page: Page) {
  const visible = visibleCoursesPrepared(viewer);
  const key = [
    "course.visiblePage",
    visible.key,
    visible.key === "groups" ? visible.params.viewerGroups : "",
    page.page,
    page.perPage,
  ].join("\u0000");
  return cachedByVersion(
    db,
    key,
    () => contentVersionOf(db),
    () => visiblePage(db, visible, page),
  );
}

function visiblePage(db: TenantConn, visible: ReturnType<typeof visibleCoursesPrepared>, page: Page) {
  const items = preparedOnce(db, `course.visiblePage.${visible.key}`, () =>
    db
      .select({
        id: courses.id,
        title: courses.title,
        description: courses.description,
        type: courses.type,
        coverFileId: courses.coverFileId,
        published: courses.published,
        createdAt: courses.createdAt,
      })
      .from(courses)
      .where(visible.where)
      .orderBy(asc(courses.position), asc(courses.id))
      .limit(plannedLimit(sql.placeholder("limit")))
      .offset(sql.placeholder("offset"))
      .prepare(),
  ).all({ limit: page.perPage, offset: (page.page - 1) * page.perPage, ...visible.params });
  const total =
    preparedOnce(db, `course.visibleCount.${visible.key}`, () =>
      db.select({ n: count() }).from(courses).where(visible.where).prepare(),
    ).get(visible.params)?.n ?? 0;
  return { items, total };
}

/** A course in /api: the spec's names where it has them (allow_certificates, force_groups), else snake_case. */
export function courseView(course: Course) {
  return {
    id: course.id,
    title: course.title,
    description: course.description,
    type: course.type,
    published: course.published,
    block_default_access: course.blockDefaultAccess,
    prerequisite_course_id: course.prerequisiteCourseId,
    category_id: course.categoryId,
    allow_certificates: course.allowCertificates,
    allow_quizzes: course.allowQuizzes,
    force_groups: course.forceGroups,
    external_url: course.externalUrl,
    file_id: course.fileId,
    cover_file_id: course.coverFileId,
    sequential_lessons: course.sequentialLessons,
    position: course.position,
    validity_months: course.validityMonths,
    reassign_days_before: course.reassignDaysBefore,
    created_at: course.createdAt.toISOString(),
    updated_at: course.updatedAt.toISOString(),
  };
}
export type CourseView = ReturnType<typeof courseView> & { links?: Array<{ id: number; title: string; url: string }> };

function pageOf(db: TenantConn, where: SQL | undefined, page: Page) {
  const items = db
    .select()
    .from(courses)
    .where(where)
    .orderBy(asc(courses.position), asc(courses.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map(courseView);
  const total = db.select({ n: count() }).from(courses).where(where).get()?.n ?? 0;
  return { items, total };
}

// Unknown fields are dropped by zod (no .passthrough()), so `id`, `created_at` or anything else sent is ignored.
const createSchema = courseSchema;
const updateSchema = z.object(
  Object.fromEntries(
    Object.entries(courseFields).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.removeDefault().optional() : v.optional()]),
  ) as {
    [K in keyof typeof courseFields]: z.ZodOptional<z.ZodTypeAny>;
  },
);

type CourseInput = Partial<z.infer<typeof createSchema>>;

function toColumns(input: CourseInput): Partial<NewCourse> {
  const map: Record<string, keyof NewCourse> = {
    title: "title",
    description: "description",
    type: "type",
    published: "published",
    block_default_access: "blockDefaultAccess",
    prerequisite_course_id: "prerequisiteCourseId",
    category_id: "categoryId",
    allow_certificates: "allowCertificates",
    allow_quizzes: "allowQuizzes",
    force_groups: "forceGroups",
    external_url: "externalUrl",
    file_id: "fileId",
    cover_file_id: "coverFileId",
    sequential_lessons: "sequentialLessons",
    position: "position",
    validity_months: "validityMonths",
    reassign_days_before: "reassignDaysBefore",
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && map[key]) out[map[key]] = value;
  // Descriptions are rich text: only the allowlist survives saving.
  if (typeof out.description === "string") out.description = sanitizeRichText(out.description);
  return out as Partial<NewCourse>;
}

/** References must point inside this organization's database, to rows that exist. */
function checkReferences(db: TenantConn, input: CourseInput, selfId?: number): WriteResult<null> {
  for (const field of ["file_id", "cover_file_id"] as const) {
    const fileId = input[field];
    if (fileId != null && !db.select({ id: files.id }).from(files).where(eq(files.id, fileId)).get()) {
      return { ok: false, field, message: "validation.invalid" };
    }
  }
  if (input.cover_file_id != null) {
    const cover = db.select({ kind: files.kind }).from(files).where(eq(files.id, input.cover_file_id)).get();
    if (cover?.kind !== "image") return { ok: false, field: "cover_file_id", message: "validation.invalid" };
  }
  if (input.category_id != null && !db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.category_id)).get()) {
    return { ok: false, field: "category_id", message: "validation.invalid" };
  }
  if (input.prerequisite_course_id != null) {
    if (
      input.prerequisite_course_id === selfId ||
      !db.select({ id: courses.id }).from(courses).where(eq(courses.id, input.prerequisite_course_id)).get()
    ) {
      return { ok: false, field: "prerequisite_course_id", message: "validation.invalid" };
    }
    // A chain of prerequisites that comes back to this course would lock every learner out for good.
    const seen = new Set<number>();
    for (let id: number | null = input.prerequisite_course_id; id !== null; ) {
      if (id === selfId || seen.has(id)) return { ok: false, field: "prerequisite_course_id", message: "validation.prerequisiteCycle" };
      seen.add(id);
      id = db.select({ next: courses.prerequisiteCourseId }).from(courses).where(eq(courses.id, id)).get()?.next ?? null;
    }
  }
  return { ok: true, value: null };
}

/**
 * Recertification (issue 34): the course is assigned again before its completions expire, so that day must
 * come after the completion (a month counted as its shortest, 28 days).
 */
function checkRecertification(merged: { validityMonths: number | null; reassignDaysBefore: number }): WriteResult<null> {
  if (merged.validityMonths !== null && merged.reassignDaysBefore >= merged.validityMonths * 28)
    return { ok: false, field: "reassign_days_before", message: "recertification.errors.reassignTooEarly" };
  return { ok: true, value: null };
}

/** Each kind needs its own piece: an external-link course its address, a download course its file. */
function checkKind(merged: { type: string; externalUrl: string | null; fileId: number | null }): WriteResult<null> {
  if (merged.type === "external_link" && !merged.externalUrl) return { ok: false, field: "external_url", message: "validation.required" };
  if (merged.type === "download" && !merged.fileId) return { ok: false, field: "file_id", message: "validation.required" };
  return { ok: true, value: null };
}

function replaceLinks(db: TenantConn, courseId: number, items: Array<{ title: string; url: string }> | undefined) {
  if (!items) return;
  db.delete(links).where(eq(links.courseId, courseId)).run();
  items.forEach((item, position) => db.insert(links).values({ courseId, title: item.title, url: item.url, position }).run());
}

export function courseLinks(db: TenantConn, courseId: number) {
  return preparedOnce(db, "course.links", () =>
    db
      .select()
      .from(links)
      .where(eq(links.courseId, sql.placeholder("courseId")))
      .orderBy(asc(links.position), asc(links.id))
      .prepare(),
  ).all({ courseId });
}

export function lessonCount(db: TenantConn, courseId: number) {
  return db.select({ n: count() }).from(lessons).where(eq(lessons.courseId, courseId)).get()?.n ?? 0;
}

export const courseResource: Resource<CourseView, typeof createSchema, typeof updateSchema> = {
  read: "read:course",
  write: "write:course",
  createSchema,
  updateSchema,
  list: (db, viewer, page, filters) =>
    pageOf(
      db,
      and(visibleCourses(viewer), filters.category_id ? eq(courses.categoryId, Number(filters.category_id) || -1) : undefined),
      page,
    ),
  search: (db, viewer, q, page) => {
    const match = or(contains(courses.title, q), contains(courses.description, q));
    return pageOf(db, and(visibleCourses(viewer), match), page);
  },
  get: (db, viewer, id) => {
    const row = db
      .select()
      .from(courses)
      .where(and(eq(courses.id, id), visibleCourses(viewer)))
      .get();
    if (!row) return null;
    const courseLinkRows = courseLinks(db, id).map((l) => ({ id: l.id, title: l.title, url: l.url }));
    return { ...courseView(row), links: courseLinkRows };
  },
  create: (db, viewer, input) => {
    const refs = checkReferences(db, input);
    if (!refs.ok) return refs;
    const columns = toColumns(input) as NewCourse;
    if (columns.position === undefined) columns.position = nextPosition(db, courses);
    const kind = checkKind({ type: columns.type ?? "movie", externalUrl: columns.externalUrl ?? null, fileId: columns.fileId ?? null });
    if (!kind.ok) return kind;
    const recertification = checkRecertification({
      validityMonths: columns.validityMonths ?? null,
      reassignDaysBefore: columns.reassignDaysBefore ?? 30,
    });
    if (!recertification.ok) return recertification;
    const row = db.transaction((tx) => {
      const created = tx.insert(courses).values(columns).returning().get();
      replaceLinks(tx, created.id, input.links);
      return created;
    });
    return { ok: true, value: courseView(row) };
  },
  update: (db, _viewer, id, input) => updateCourse(db, id, input as CourseInput),
  remove: (db, _viewer, id) => removeCourse(db, id),
};

/**
 * A course changed as its page, /api and bulk actions change it (only the fields given): references inside this
 * organization, each kind's own piece, recertification's days, a movie's one episode. Null when there is no such course.
 */
export function updateCourse(db: TenantConn, id: number, input: CourseInput): WriteResult<CourseView> | null {
  const existing = db.select().from(courses).where(eq(courses.id, id)).get();
  if (!existing) return null;
  const refs = checkReferences(db, input, id);
  if (!refs.ok) return refs;
  const changes = toColumns(input);
  const merged = { ...existing, ...changes };
  const kind = checkKind({ type: merged.type, externalUrl: merged.externalUrl ?? null, fileId: merged.fileId ?? null });
  if (!kind.ok) return kind;
  const recertification = checkRecertification(merged);
  if (!recertification.ok) return recertification;
  if (merged.type === "movie" && existing.type !== "movie" && lessonCount(db, id) > 1) {
    return { ok: false, field: "type", message: "validation.movieSingleEpisode" };
  }
  const row = db.transaction((tx) => {
    replaceLinks(tx, id, input.links);
    return Object.keys(changes).length > 0 ? tx.update(courses).set(changes).where(eq(courses.id, id)).returning().get() : existing;
  });
  return row ? { ok: true, value: courseView(row) } : null;
}

/** A course deleted, with all the schema's cascades take with it (lessons, progress, assignments…): whether there was one. */
export function removeCourse(db: TenantConn, id: number): boolean {
  return db.delete(courses).where(eq(courses.id, id)).run().changes > 0;
}

export function countCourses(db: TenantConn) {
  return db.select({ n: count() }).from(courses).get()?.n ?? 0;
}

export function moveCourse(db: TenantConn, id: number, to: import("./ordering.server").Move) {
  return moveRow(db, courses, id, to);
}

/** The published courses by title, for choosing one (the organization's featured course). */
export function publishedCourseChoices(db: TenantConn, limit = 100) {
  return db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(published)
    .orderBy(asc(courses.position), asc(courses.id))
    .limit(limit)
    .all();
}

export function isPublishedCourse(db: TenantConn, id: number) {
  return Boolean(
    db
      .select({ id: courses.id })
      .from(courses)
      .where(and(eq(courses.id, id), published))
      .get(),
  );
}

export function getCourse(db: TenantConn, id: number) {
  return db.select().from(courses).where(eq(courses.id, id)).get();
}
