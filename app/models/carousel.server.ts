import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { visibleCarousels, visibleCoursesPrepared } from "../access/courses";
import { preparedOnce } from "../../db/prepared";
import { z } from "zod";
import type { TenantConn, TenantDb } from "../../db/open";
import { carouselCourses, carousels, courses, type Carousel } from "../../db/tenant";
import { contains, type Page } from "../utils/pagination";
import type { Resource, WriteResult } from "./resource";
import type { Viewer } from "../access/viewer";
import { isCoverImage, setCover } from "./browse.server";
import { moveRow, nextPosition, reorder, type Move } from "./ordering.server";

/** The courses of a carousel the viewer sees (app/access/courses.ts), in its order. */
export function carouselCourseRows(db: TenantConn, viewer: Viewer, carouselId: number) {
  const ids = carouselCourseIds(db, viewer, carouselId);
  // Prepared once: the ids bound as one JSON array (every home page reads each carousel's courses).
  const rows = ids.length
    ? preparedOnce(db, "carousel.coursesById", () =>
        db
          .select()
          .from(courses)
          .where(sql`${courses.id} in (select value from json_each(${sql.placeholder("ids")}))`)
          .prepare(),
      ).all({ ids: JSON.stringify(ids) })
    : [];
  const byId = new Map(rows.map((c) => [c.id, c]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

/** A carousel's courses the viewer sees, in their order (all of them for those who may preview). */
export function carouselCourseIds(db: TenantConn, viewer: Viewer, carouselId: number) {
  const visible = visibleCoursesPrepared(viewer);
  // Prepared once per connection and variant: the home page asks for every published carousel.
  return preparedOnce(db, `carousel.courseIds.${visible.key}`, () =>
    db
      .select({ id: carouselCourses.courseId })
      .from(carouselCourses)
      .innerJoin(courses, eq(courses.id, carouselCourses.courseId))
      .where(and(eq(carouselCourses.carouselId, sql.placeholder("carouselId")), visible.where))
      .orderBy(asc(carouselCourses.position), asc(courses.position), asc(courses.id))
      .prepare(),
  )
    .all({ carouselId, ...visible.params })
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

function visible(viewer: Viewer): SQL | undefined {
  return visibleCarousels(viewer);
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

/** One carousel, if the viewer sees it. */
export function findCarousel(db: TenantConn, viewer: Viewer, id: number) {
  return db
    .select()
    .from(carousels)
    .where(and(eq(carousels.id, id), visibleCarousels(viewer)))
    .get();
}

/** The carousels the viewer sees: published ones, and drafts for those who may write carousels. */
export function listCarousels(db: TenantConn, viewer: Viewer) {
  const where = visibleCarousels(viewer);
  // Prepared once per connection and variant: every home page lists the published ones.
  return preparedOnce(db, where ? "carousel.listPublished" : "carousel.listAll", () =>
    db.select().from(carousels).where(where).orderBy(asc(carousels.position), asc(carousels.id)).prepare(),
  ).all();
}

export function createCarousel(db: TenantConn, input: z.infer<typeof carouselSchema>): WriteResult<Carousel> {
  return db.transaction((tx) => {
    const row = tx
      .insert(carousels)
      .values({ title: input.title, published: input.published, position: nextPosition(tx, carousels) })
      .returning()
      .get();
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
    const row = Object.keys(changes).length
      ? tx.update(carousels).set(changes).where(eq(carousels.id, id)).returning().get()!
      : getCarousel(tx, id)!;
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
export function moveCourseInCarousel(db: TenantConn, viewer: Viewer, carouselId: number, courseId: number, to: Move) {
  const order = reorder(carouselCourseIds(db, viewer, carouselId), courseId, to);
  if (!order) return false;
  db.transaction((tx) => {
    order.forEach((id, position) =>
      tx
        .update(carouselCourses)
        .set({ position })
        .where(and(eq(carouselCourses.carouselId, carouselId), eq(carouselCourses.courseId, id)))
        .run(),
    );
  });
  return true;
}

function pageOf(db: TenantDb, viewer: Viewer, where: SQL | undefined, page: Page) {
  const rows = db
    .select()
    .from(carousels)
    .where(and(where, visible(viewer)))
    .orderBy(asc(carousels.position), asc(carousels.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  const items = rows.map((c) => carouselView(c, carouselCourseIds(db, viewer, c.id)));
  const total =
    db
      .select({ n: count() })
      .from(carousels)
      .where(and(where, visible(viewer)))
      .get()?.n ?? 0;
  return { items, total };
}

/** docs/product.md §7 "courses-carousels". */
export const carouselResource: Resource<CarouselView, typeof carouselSchema, typeof updateSchema> = {
  read: "read:carousel",
  write: "write:carousel",
  createSchema: carouselSchema,
  updateSchema,
  list: (db, viewer, page) => pageOf(db, viewer, undefined, page),
  search: (db, viewer, q, page) => pageOf(db, viewer, contains(carousels.title, q), page),
  get: (db, viewer, id) => {
    const row = db
      .select()
      .from(carousels)
      .where(and(eq(carousels.id, id), visible(viewer)))
      .get();
    return row ? carouselView(row, carouselCourseIds(db, viewer, id)) : null;
  },
  create: (db, viewer, input) => {
    const unique = [...new Set(input.course_ids)];
    if (unique.length && db.select({ id: courses.id }).from(courses).where(inArray(courses.id, unique)).all().length !== unique.length) {
      return { ok: false, field: "course_ids", message: "validation.invalid" };
    }
    if (input.cover_file_id != null && !isCoverImage(db, input.cover_file_id))
      return { ok: false, field: "cover_file_id", message: "validation.invalid" };
    const result = createCarousel(db, input);
    return result.ok ? { ok: true, value: carouselView(result.value, carouselCourseIds(db, viewer, result.value.id)) } : result;
  },
  update: (db, viewer, id, input) => {
    const result = updateCarousel(db, id, input);
    if (!result) return null;
    return result.ok ? { ok: true, value: carouselView(result.value, carouselCourseIds(db, viewer, id)) } : result;
  },
  remove: (db, viewer, id) => deleteCarousel(db, id),
};
