import { and, asc, eq } from "drizzle-orm";
import { storeGeneratedFile } from "../../app/models/file.server";
import type { TenantConn } from "../../db/open";
import { carousels, categories, courses, groups, lessonProgress, lessons, users } from "../../db/tenant";
import { coverArt } from "./media";

/**
 * Covers for the learner's browsing pages (issue 18): every category, carousel and group of a demo
 * organization gets its own cover art from the file library, so /categories, /carousels and /groups
 * show images. Deterministic: the art is picked by the kind and the name. The demo learner has begun
 * two series (a first episode part-watched, nothing completed, so no points or completions change), so
 * "continue watching" on the home page has something in it.
 */
export async function seedBrowseDemo(target: { db: TenantConn; dataDir: string; organizationId: number }) {
  const { db } = target;
  const rows = [
    ...db.select().from(categories).all().map((c) => ({ table: categories, id: c.id, name: `category:${c.name}` })),
    ...db.select().from(carousels).all().map((c) => ({ table: carousels, id: c.id, name: `carousel:${c.title}` })),
    ...db.select().from(groups).all().map((g) => ({ table: groups, id: g.id, name: `group:${g.name}` })),
  ];
  const art = new Map<string, Buffer>();
  for (const row of rows) art.set(row.name, await coverArt(row.name));
  db.transaction((tx) => {
    for (const row of rows) {
      const file = storeGeneratedFile(tx, target, { name: `${row.name.replace(/[^\p{L}\p{N}]+/gu, "-").toLowerCase()}-cover.webp`, data: art.get(row.name)! });
      tx.update(row.table).set({ coverFileId: file.id }).where(eq(row.table.id, row.id)).run();
    }
  });
  const learner = db.select().from(users).where(eq(users.role, "learner")).orderBy(asc(users.id)).get();
  const series = db
    .select()
    .from(courses)
    .where(and(eq(courses.type, "series"), eq(courses.published, true)))
    .orderBy(asc(courses.position), asc(courses.id))
    .limit(2)
    .all();
  if (!learner) return;
  series.forEach((course, i) => {
    const first = db.select().from(lessons).where(and(eq(lessons.courseId, course.id), eq(lessons.kind, "video"))).orderBy(asc(lessons.position)).get();
    if (!first) return;
    const seconds = Math.round((first.durationSeconds ?? 12) * (i === 0 ? 0.6 : 0.3));
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000);
    db.insert(lessonProgress)
      .values({ userId: learner.id, lessonId: first.id, courseId: course.id, positionSeconds: seconds, watchedSeconds: seconds, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .run();
  });
}
