import { and, desc, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { visibleCourses } from "../access/courses";
import type { Viewer } from "../access/viewer";
import { bookmarks, courses } from "../../db/tenant";
import { publish } from "./events.server";

/** A learner's bookmarked courses (docs/product.md §2 /profile/bookmarks, the course page's bookmark, /api). */

export function isBookmarked(db: TenantConn, userId: number, courseId: number) {
  return Boolean(
    preparedOnce(db, "bookmarks.isBookmarked", () =>
      db
        .select({ userId: bookmarks.userId })
        .from(bookmarks)
        .where(and(eq(bookmarks.userId, sql.placeholder("userId")), eq(bookmarks.courseId, sql.placeholder("courseId"))))
        .prepare(),
    ).get({ userId, courseId }),
  );
}

/** Bookmarks a course (once: a second bookmark of it is no new event) or takes the bookmark away. */
export function setBookmark(db: TenantConn, userId: number, courseId: number, on: boolean, now = new Date()) {
  if (on) {
    db.transaction((tx) => {
      const inserted = tx.insert(bookmarks).values({ userId, courseId, createdAt: now }).onConflictDoNothing().run();
      if (inserted.changes > 0) publish(tx, "bookmarked", { userId, courseId, at: now });
    });
  } else
    db.delete(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.courseId, courseId)))
      .run();
}

/** The viewer's bookmarked courses that they still see, newest bookmark first. */
export function listBookmarks(db: TenantConn, viewer: Viewer) {
  if (!viewer.person) return [];
  return db
    .select({ course: courses, createdAt: bookmarks.createdAt })
    .from(bookmarks)
    .innerJoin(courses, eq(courses.id, bookmarks.courseId))
    .where(and(eq(bookmarks.userId, viewer.person.id), visibleCourses(viewer)))
    .orderBy(desc(bookmarks.createdAt))
    .all();
}
