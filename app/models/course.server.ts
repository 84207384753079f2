import { and, asc, count, eq, like, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { categories, COURSE_TYPES, courses, type Course, type NewCourse } from "../../db/tenant";
import type { TenantConn } from "../../db/open";
import type { Page } from "../utils/pagination";
import type { Resource, ResourceScope, WriteResult } from "../utils/resource.server";

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
    .where(where)
    .orderBy(asc(courses.position), asc(courses.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  const total = db.select({ n: count() }).from(courses).where(where).get()?.n ?? 0;
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
    position: course.position,
    created_at: course.createdAt.toISOString(),
    updated_at: course.updatedAt.toISOString(),
  };
}
export type CourseView = ReturnType<typeof courseView>;

/** Who may see unpublished courses: those who may write them. Everyone else sees published ones only. */
function visibility(scope: ResourceScope): SQL | undefined {
  return scope.viewer.capabilities.has("write:course") ? undefined : eq(courses.published, true);
}

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

const courseFields = {
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  description: z.string().max(20_000).default(""),
  type: z.enum(COURSE_TYPES).default("movie"),
  published: z.boolean().default(false),
  block_default_access: z.boolean().default(false),
  prerequisite_course_id: z.number().int().positive().nullable().default(null),
  category_id: z.number().int().positive().nullable().default(null),
  allow_certificates: z.boolean().default(false),
  allow_quizzes: z.boolean().default(false),
  force_groups: z.boolean().default(false),
  external_url: z.string().url().max(2000).nullable().default(null),
  position: z.number().int().min(0).default(0),
};

// Unknown fields are dropped by zod (no .passthrough()), so `id`, `created_at` or anything else sent is ignored.
const createSchema = z.object(courseFields);
const updateSchema = z
  .object(Object.fromEntries(Object.entries(courseFields).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.removeDefault().optional() : v.optional()])) as {
    [K in keyof typeof courseFields]: z.ZodOptional<z.ZodTypeAny>;
  });

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
    position: "position",
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && map[key]) out[map[key]] = value;
  return out as Partial<NewCourse>;
}

/** References must point inside this organization's database, to rows that exist. */
function checkReferences(db: TenantConn, input: CourseInput, selfId?: number): WriteResult<null> {
  if (input.category_id != null && !db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.category_id)).get()) {
    return { ok: false, field: "category_id", message: "validation.invalid" };
  }
  if (input.prerequisite_course_id != null) {
    if (input.prerequisite_course_id === selfId || !db.select({ id: courses.id }).from(courses).where(eq(courses.id, input.prerequisite_course_id)).get()) {
      return { ok: false, field: "prerequisite_course_id", message: "validation.invalid" };
    }
  }
  return { ok: true, value: null };
}

export const courseResource: Resource<CourseView, typeof createSchema, typeof updateSchema> = {
  read: "read:course",
  write: "write:course",
  createSchema,
  updateSchema,
  list: (scope, page) => pageOf(scope.db, visibility(scope), page),
  search: (scope, q, page) => {
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(like(courses.title, pattern), like(courses.description, pattern));
    return pageOf(scope.db, and(visibility(scope), match), page);
  },
  get: (scope, id) => {
    const row = scope.db.select().from(courses).where(and(eq(courses.id, id), visibility(scope))).get();
    return row ? courseView(row) : null;
  },
  create: (scope, input) => {
    const refs = checkReferences(scope.db, input);
    if (!refs.ok) return refs;
    const row = scope.db.insert(courses).values(toColumns(input) as NewCourse).returning().get();
    return { ok: true, value: courseView(row) };
  },
  update: (scope, id, input) => {
    const refs = checkReferences(scope.db, input as CourseInput, id);
    if (!refs.ok) return refs;
    const changes = toColumns(input as CourseInput);
    const row =
      Object.keys(changes).length > 0
        ? scope.db.update(courses).set(changes).where(eq(courses.id, id)).returning().get()
        : scope.db.select().from(courses).where(eq(courses.id, id)).get();
    return row ? { ok: true, value: courseView(row) } : null;
  },
  remove: (scope, id) => scope.db.delete(courses).where(eq(courses.id, id)).run().changes > 0,
};

export function countCourses(db: TenantConn) {
  return db.select({ n: count() }).from(courses).get()?.n ?? 0;
}
