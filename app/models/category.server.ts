import { asc, count, eq } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn, TenantDb } from "../../db/open";
import { categories, courses, type Category } from "../../db/tenant";
import { contains, type Page } from "../utils/pagination";
import type { Resource } from "./resource";
import type { Viewer } from "../access/viewer";
import { isCoverImage, setCover } from "./browse.server";
import { moveRow, nextPosition, type Move } from "./ordering.server";

export function categoryView(category: Category, courseCount?: number) {
  return {
    id: category.id,
    name: category.name,
    position: category.position,
    cover_file_id: category.coverFileId,
    ...(courseCount !== undefined ? { course_count: courseCount } : {}),
    created_at: category.createdAt.toISOString(),
    updated_at: category.updatedAt.toISOString(),
  };
}
export type CategoryView = ReturnType<typeof categoryView>;

export const categorySchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(100),
  /** An image of the file library (issue 18), or null for none; the screens set it with setCover. */
  cover_file_id: z.number().int().positive().nullable().optional(),
});

export function listCategories(db: TenantConn) {
  return db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)).all();
}

export function getCategory(db: TenantConn, id: number) {
  return db.select().from(categories).where(eq(categories.id, id)).get();
}

export function createCategory(db: TenantConn, input: z.infer<typeof categorySchema>) {
  return db
    .insert(categories)
    .values({ name: input.name, position: nextPosition(db, categories) })
    .returning()
    .get();
}

export function renameCategory(db: TenantConn, id: number, input: z.infer<typeof categorySchema>) {
  return db.update(categories).set({ name: input.name }).where(eq(categories.id, id)).returning().get();
}

/** Deleting a category leaves its courses uncategorised (the foreign key sets null). */
export function deleteCategory(db: TenantConn, id: number) {
  return db.delete(categories).where(eq(categories.id, id)).run().changes > 0;
}

export function moveCategory(db: TenantConn, id: number, to: Move) {
  return moveRow(db, categories, id, to);
}

function pageOf(db: TenantDb, viewer: Viewer, where: ReturnType<typeof contains> | undefined, page: Page) {
  const items = db
    .select()
    .from(categories)
    .where(where)
    .orderBy(asc(categories.position), asc(categories.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map((c) => categoryView(c));
  const total = db.select({ n: count() }).from(categories).where(where).get()?.n ?? 0;
  return { items, total };
}

/** docs/product.md §7 "courses/categories". */
export const categoryResource: Resource<CategoryView, typeof categorySchema, ReturnType<typeof categorySchema.partial>> = {
  read: "read:category",
  write: "write:category",
  createSchema: categorySchema,
  updateSchema: categorySchema.partial(),
  list: (db, viewer, page) => pageOf(db, viewer, undefined, page),
  search: (db, viewer, q, page) => pageOf(db, viewer, contains(categories.name, q), page),
  get: (db, viewer, id) => {
    const row = getCategory(db, id);
    if (!row) return null;
    const n = db.select({ n: count() }).from(courses).where(eq(courses.categoryId, id)).get()?.n ?? 0;
    return categoryView(row, n);
  },
  create: (db, viewer, input) => {
    if (input.cover_file_id != null && !isCoverImage(db, input.cover_file_id))
      return { ok: false, field: "cover_file_id", message: "validation.invalid" };
    return db.transaction((tx) => {
      const row = createCategory(tx, input);
      if (input.cover_file_id !== undefined) setCover(tx, "category", row.id, input.cover_file_id);
      return { ok: true as const, value: categoryView(getCategory(tx, row.id)!) };
    });
  },
  update: (db, viewer, id, input) => {
    if (!getCategory(db, id)) return null;
    if (input.cover_file_id != null && !isCoverImage(db, input.cover_file_id))
      return { ok: false, field: "cover_file_id", message: "validation.invalid" };
    return db.transaction((tx) => {
      if (input.cover_file_id !== undefined) setCover(tx, "category", id, input.cover_file_id);
      if (input.name) renameCategory(tx, id, { name: input.name });
      return { ok: true as const, value: categoryView(getCategory(tx, id)!) };
    });
  },
  remove: (db, viewer, id) => deleteCategory(db, id),
};
