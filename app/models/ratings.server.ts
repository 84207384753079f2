import { and, avg, count, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { ratings } from "../../db/tenant";

/** Courses rated by their learners, one to five stars each (docs/product.md §2 the course page, /api). */

/** A learner's stars for a course: a second rating replaces the first. */
export function rateCourse(db: TenantConn, userId: number, courseId: number, stars: number) {
  db.insert(ratings)
    .values({ userId, courseId, stars, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [ratings.userId, ratings.courseId], set: { stars, updatedAt: new Date() } })
    .run();
}

/** A course's average (to one decimal, null before any rating) and count, and `userId`'s own stars. */
export function courseRating(db: TenantConn, courseId: number, userId?: number) {
  const row = preparedOnce(db, "ratings.courseRating", () =>
    db
      .select({ average: avg(ratings.stars), count: count() })
      .from(ratings)
      .where(eq(ratings.courseId, sql.placeholder("courseId")))
      .prepare(),
  ).get({ courseId });
  const mine = userId
    ? preparedOnce(db, "ratings.ownRating", () =>
        db
          .select({ stars: ratings.stars })
          .from(ratings)
          .where(and(eq(ratings.userId, sql.placeholder("userId")), eq(ratings.courseId, sql.placeholder("courseId"))))
          .prepare(),
      ).get({ userId, courseId })
    : undefined;
  return { average: row?.average ? Math.round(Number(row.average) * 10) / 10 : null, count: row?.count ?? 0, mine: mine?.stars ?? null };
}
