import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import { preparedOnce } from "../../db/prepared";
import { z } from "zod";
import type { TenantConn, TenantDb } from "../../db/open";
import { courses, files, materials, type Material } from "../../db/tenant";
import { contains, type Page } from "../utils/pagination";
import type { Resource, WriteResult } from "./resource";
import type { Viewer } from "../access/viewer";
import { courseAccess, visibleCourses } from "../access/courses";
import { mayPreview } from "../access/rules";
import { nextPosition } from "./ordering.server";

export function materialView(material: Material) {
  return {
    id: material.id,
    course_id: material.courseId,
    file_id: material.fileId,
    title: material.title,
    position: material.position,
    created_at: material.createdAt.toISOString(),
  };
}
export type MaterialView = ReturnType<typeof materialView>;

const createSchema = z.object({
  course_id: z.number().int().positive(),
  file_id: z.number().int().positive(),
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
});
const updateSchema = z.object({ title: createSchema.shape.title.optional() });

export function listMaterials(db: TenantConn, courseId: number) {
  return preparedOnce(db, "material.ofCourse", () =>
    db
      .select()
      .from(materials)
      .where(eq(materials.courseId, sql.placeholder("courseId")))
      .orderBy(asc(materials.position), asc(materials.id))
      .prepare(),
  ).all({ courseId });
}

export function addMaterial(db: TenantConn, input: z.infer<typeof createSchema>): WriteResult<Material> {
  if (!db.select({ id: courses.id }).from(courses).where(eq(courses.id, input.course_id)).get()) {
    return { ok: false, field: "course_id", message: "validation.invalid" };
  }
  if (!db.select({ id: files.id }).from(files).where(eq(files.id, input.file_id)).get()) {
    return { ok: false, field: "file_id", message: "validation.invalid" };
  }
  const row = db
    .insert(materials)
    .values({
      courseId: input.course_id,
      fileId: input.file_id,
      title: input.title,
      position: nextPosition(db, materials, eq(materials.courseId, input.course_id)),
    })
    .returning()
    .get();
  return { ok: true, value: row };
}

export function deleteMaterial(db: TenantConn, id: number) {
  return db.delete(materials).where(eq(materials.id, id)).run().changes > 0;
}

/** Learners see the materials of courses they may open (the same rule as the course page). */
function mayOpen(db: TenantDb, viewer: Viewer) {
  if (mayPreview(viewer)) return () => true;
  const cache = new Map<number, boolean>();
  return (courseId: number) => {
    if (!cache.has(courseId)) {
      const course = db.select().from(courses).where(eq(courses.id, courseId)).get();
      cache.set(courseId, Boolean(course && courseAccess(db, viewer, course).allowed));
    }
    return cache.get(courseId)!;
  };
}

function pageOf(db: TenantDb, viewer: Viewer, where: SQL | undefined, page: Page) {
  const allowed = mayOpen(db, viewer);
  const items = db
    .select({ material: materials })
    .from(materials)
    .innerJoin(courses, eq(courses.id, materials.courseId))
    .where(and(where, visibleCourses(viewer)))
    .orderBy(asc(materials.courseId), asc(materials.position), asc(materials.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .filter((r) => allowed(r.material.courseId))
    .map((r) => materialView(r.material));
  const total =
    db
      .select({ n: count() })
      .from(materials)
      .innerJoin(courses, eq(courses.id, materials.courseId))
      .where(and(where, visibleCourses(viewer)))
      .get()?.n ?? 0;
  return { items, total };
}

/** docs/product.md §7 "materials": files attached to a course. */
export const materialResource: Resource<MaterialView, typeof createSchema, typeof updateSchema> = {
  read: "read:course",
  write: "write:course",
  createSchema,
  updateSchema,
  list: (db, viewer, page, filters) =>
    pageOf(db, viewer, filters.course_id ? eq(materials.courseId, Number(filters.course_id) || -1) : undefined, page),
  search: (db, viewer, q, page) => pageOf(db, viewer, contains(materials.title, q), page),
  get: (db, viewer, id) => {
    const row = db
      .select({ material: materials })
      .from(materials)
      .innerJoin(courses, eq(courses.id, materials.courseId))
      .where(and(eq(materials.id, id), visibleCourses(viewer)))
      .get();
    return row && mayOpen(db, viewer)(row.material.courseId) ? materialView(row.material) : null;
  },
  create: (db, viewer, input) => {
    const result = addMaterial(db, input);
    return result.ok ? { ok: true, value: materialView(result.value) } : result;
  },
  update: (db, viewer, id, input) => {
    const row = input.title
      ? db.update(materials).set({ title: input.title }).where(eq(materials.id, id)).returning().get()
      : db.select().from(materials).where(eq(materials.id, id)).get();
    return row ? { ok: true, value: materialView(row) } : null;
  },
  remove: (db, viewer, id) => deleteMaterial(db, id),
};
