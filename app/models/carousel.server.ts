import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { preparedOnce } from "../../db/prepared";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import { carouselCourses, carousels, courses, type Carousel } from "../../db/tenant";
import { contains, type Page } from "../utils/pagination";
import type { Resource, ResourceScope, WriteResult } from "../kernel/resource.server";
import { isCoverImage, setCover } from "./browse.server";
import { moveRow, nextPosition, reorder, type Move } from "./ordering.server";

/** The courses of a carousel, in its order; for learners only the published ones. */
export function carouselCourseRows(db: TenantConn, carouselId: number, { publishedOnly = false } = {}) {
  const ids = carouselCourseIds(db, carouselId, { publishedOnly });
  const rows = ids.length ? db.select().from(courses).where(inArray(courses.id, ids)).all() : [];
  const byId = new Map(rows.map((c) => [c.id, c]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

/** A carousel's courses in their order; for learners only the published ones. */
export function carouselCourseIds(db: TenantConn, carouselId: number, { publishedOnly = false } = {}) {
  // Prepared once per connection and variant: the home page asks for every published carousel.
  return preparedOnce(db, publishedOnly ? "carousel.publishedCourseIds" : "carousel.courseIds", () =>
    db
      .select({ id: carouselCourses.courseId })
      .from(carouselCourses)
      .innerJoin(courses, eq(courses.id, carouselCourses.courseId))
      .where(and(eq(carouselCourses.carouselId, sql.placeholder("carouselId")), publishedOnly ? eq(courses.published, true) : undefined))
      .orderBy(asc(carouselCourses.position), asc(courses.position), asc(courses.id))
      .prepare(),
  )
    .all({ carouselId })
    .map((r) => r.id);
}

export function carouselView(carousel: Carousel, courseIds: number[]) {
  return {
    id: carousel.id,
    title: carousel.title,
    published: carousel.published,
    position: carousel.position,
    course_ids: courseIds,
    cover_file_id: carousel.coverFileId,
    created_at: carousel.createdAt.toISOString(),
    updated_at: carousel.updatedAt.toISOString(),
  };
}
export type CarouselView = ReturnType<typeof carouselView>;

export const carouselSchema = z.object({
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  published: z.boolean().default(false),
  course_ids: z.array(z.number().int().positive()).max(500).default([]),
  /** An image of the file library (issue 18), or null for none. */
  cover_file_id: z.number().int().positive().nullable().optional(),
});
const updateSchema = z.object({
  title: carouselSchema.shape.title.optional(),
  published: z.boolean().optional(),
  course_ids: z.array(z.number().int().positive()).max(500).optional(),
  cover_file_id: z.number().int().positive().nullable().optional(),
});

function isEditor(scope: ResourceScope) {
  return scope.viewer.capabilities.has("write:carousel");
}

function visible(scope: ResourceScope): SQL | undefined {
  return isEditor(scope) ? undefined : eq(carousels.published, true);
}

/** Sets a carousel's courses in the given order; every id must be a course of this organization. */
export function setCarouselCourses(db: TenantConn, carouselId: number, courseIds: number[]): WriteResult<null> {
  const unique = [...new Set(courseIds)];
  if (unique.length) {
    const found = db.select({ id: courses.id }).from(courses).where(inArray(courses.id, unique)).all();
    if (found.length !== unique.length) return { ok: false, field: "course_ids", message: "validation.invalid" };
  }
  db.delete(carouselCourses).where(eq(carouselCourses.carouselId, carouselId)).run();
  unique.forEach((courseId, position) => db.insert(carouselCourses).values({ carouselId, courseId, position }).run());
  return { ok: true, value: null };
}

export function getCarousel(db: TenantConn, id: number) {
  return db.select().from(carousels).where(eq(carousels.id, id)).get();
}

export function listCarousels(db: TenantConn, { publishedOnly = false } = {}) {
  // Prepared once per connection and variant: every home page lists the published ones.
  return preparedOnce(db, publishedOnly ? "carousel.listPublished" : "carousel.listAll", () =>
    db
      .select()
      .from(carousels)
      .where(publishedOnly ? eq(carousels.published, true) : undefined)
      .orderBy(asc(carousels.position), asc(carousels.id))
      .prepare(),
  ).all();
}

export function createCarousel(db: TenantConn, input: z.infer<typeof carouselSchema>): WriteResult<Carousel> {
  return db.transaction((tx) => {
    const row = tx.insert(carousels).values({ title: input.title, published: input.published, position: nextPosition(tx, carousels) }).returning().get();
    const set = setCarouselCourses(tx, row.id, input.course_ids);
    if (!set.ok) {
      tx.rollback();
    }
    if (input.cover_file_id !== undefined) {
      const cover = setCover(tx, "carousel", row.id, input.cover_file_id);
      if (!cover.ok) {
        tx.rollback();
      }
      return { ok: true as const, value: getCarousel(tx, row.id)! };
    }
    return { ok: true as const, value: row };
  });
}

export function updateCarousel(db: TenantConn, id: number, input: z.infer<typeof updateSchema>): WriteResult<Carousel> | null {
  const existing = getCarousel(db, id);
  if (!existing) return null;
  return db.transaction((tx) => {
    if (input.cover_file_id !== undefined) {
      const cover = setCover(tx, "carousel", id, input.cover_file_id);
      if (!cover.ok) return cover;
    }
    if (input.course_ids) {
      const set = setCarouselCourses(tx, id, input.course_ids);
      if (!set.ok) return set;
    }
    const changes: Partial<Carousel> = {};
    if (input.title !== undefined) changes.title = input.title;
    if (input.published !== undefined) changes.published = input.published;
    const row = Object.keys(changes).length ? tx.update(carousels).set(changes).where(eq(carousels.id, id)).returning().get()! : getCarousel(tx, id)!;
    return { ok: true as const, value: row };
  });
}

export function deleteCarousel(db: TenantConn, id: number) {
  return db.delete(carousels).where(eq(carousels.id, id)).run().changes > 0;
}

export function moveCarousel(db: TenantConn, id: number, to: Move) {
  return moveRow(db, carousels, id, to);
}

/** Moves one course within a carousel (the page's up/down buttons). */
export function moveCourseInCarousel(db: TenantConn, carouselId: number, courseId: number, to: Move) {
  const order = reorder(carouselCourseIds(db, carouselId), courseId, to);
  if (!order) return false;
  db.transaction((tx) => {
    order.forEach((id, position) =>
      tx.update(carouselCourses).set({ position }).where(and(eq(carouselCourses.carouselId, carouselId), eq(carouselCourses.courseId, id))).run(),
    );
  });
  return true;
}

function pageOf(scope: ResourceScope, where: SQL | undefined, page: Page) {
  const rows = scope.db
    .select()
    .from(carousels)
    .where(and(where, visible(scope)))
    .orderBy(asc(carousels.position), asc(carousels.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  const items = rows.map((c) => carouselView(c, carouselCourseIds(scope.db, c.id, { publishedOnly: !scope.viewer.capabilities.has("write:course") })));
  const total = scope.db.select({ n: count() }).from(carousels).where(and(where, visible(scope))).get()?.n ?? 0;
  return { items, total };
}

/** Spec §7 "courses-carousels". */
export const carouselResource: Resource<CarouselView, typeof carouselSchema, typeof updateSchema> = {
  read: "read:carousel",
  write: "write:carousel",
  createSchema: carouselSchema,
  updateSchema,
  list: (scope, page) => pageOf(scope, undefined, page),
  search: (scope, q, page) => pageOf(scope, contains(carousels.title, q), page),
  get: (scope, id) => {
    const row = scope.db.select().from(carousels).where(and(eq(carousels.id, id), visible(scope))).get();
    return row ? carouselView(row, carouselCourseIds(scope.db, id, { publishedOnly: !scope.viewer.capabilities.has("write:course") })) : null;
  },
  create: (scope, input) => {
    const unique = [...new Set(input.course_ids)];
    if (unique.length && scope.db.select({ id: courses.id }).from(courses).where(inArray(courses.id, unique)).all().length !== unique.length) {
      return { ok: false, field: "course_ids", message: "validation.invalid" };
    }
    if (input.cover_file_id != null && !isCoverImage(scope.db, input.cover_file_id)) return { ok: false, field: "cover_file_id", message: "validation.invalid" };
    const result = createCarousel(scope.db, input);
    return result.ok ? { ok: true, value: carouselView(result.value, carouselCourseIds(scope.db, result.value.id)) } : result;
  },
  update: (scope, id, input) => {
    const result = updateCarousel(scope.db, id, input);
    if (!result) return null;
    return result.ok ? { ok: true, value: carouselView(result.value, carouselCourseIds(scope.db, id)) } : result;
  },
  remove: (scope, id) => deleteCarousel(scope.db, id),
};
