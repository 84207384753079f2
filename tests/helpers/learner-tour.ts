import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "puppeteer";
import type { ServerAddress } from "./server";
import { execTenant, insertSession } from "./sessions";

/**
 * The demo's learner pages for browser checks (screenshots, axe-core): a signed-in learner of a demo
 * organization with some progress in its richest series (one episode done, one under way), and the
 * addresses of home, course, player, categories, a category, search and profile.
 */
export interface Tour {
  host: string;
  organizationId: number;
  courseId: number;
  lessonId: number;
  /** A course of another kind (download or external link), when the demo has one. */
  otherCourseId: number | null;
  pages: Record<"home" | "course" | "player" | "categories" | "category" | "search" | "profile", string>;
}

export function prepareTour(server: ServerAddress, organizationId: number, host: string, learnerEmail: string): Tour {
  const db = new Database(path.join(server.dataDir, `org-${organizationId}`, "db.sqlite"), { readonly: true });
  let course: { id: number };
  let lessons: { id: number; kind: string; duration_seconds: number | null }[];
  let learner: { id: number };
  let other: { id: number } | undefined;
  let category: { id: number };
  try {
    category = db.prepare("select id from categories order by id limit 1").get() as { id: number };
    other = db
      .prepare("select id from courses where published = 1 and type in ('download', 'external_link') order by type, id limit 1")
      .get() as { id: number } | undefined;
    course = db
      .prepare(
        `select c.id from courses c join lessons l on l.course_id = c.id
         where c.published = 1 and c.type = 'series' group by c.id
         order by (c.cover_file_id is not null) desc, sum(l.kind = 'video') desc, count(*) desc, c.id limit 1`,
      )
      .get() as { id: number };
    lessons = db
      .prepare("select id, kind, duration_seconds from lessons where course_id = ? order by position, id")
      .all(course.id) as typeof lessons;
    learner = db.prepare("select id from users where email = ?").get(learnerEmail) as { id: number };
  } finally {
    db.close();
  }
  const video = lessons.find((l, i) => i > 0 && l.kind === "video") ?? lessons.find((l) => l.kind === "video") ?? lessons[0];
  const now = Math.floor(Date.now() / 1000);
  // One episode done and the video under way, as a learner coming back would have them.
  for (const l of lessons.filter((l) => l.id !== video.id).slice(0, 1)) {
    execTenant(
      server,
      organizationId,
      `insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, completed_at, created_at, updated_at)
       values (?, ?, ?, 0, 30, ?, ?, ?) on conflict do nothing`,
      learner.id,
      l.id,
      course.id,
      now,
      now,
      now,
    );
  }
  const position = Math.max(1, Math.floor((video.duration_seconds ?? 8) / 3));
  execTenant(
    server,
    organizationId,
    `insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
    learner.id,
    video.id,
    course.id,
    position,
    position,
    now,
    now,
  );
  return {
    host,
    organizationId,
    courseId: course.id,
    lessonId: video.id,
    otherCourseId: other?.id ?? null,
    pages: {
      home: "/",
      course: `/courses/${course.id}`,
      player: `/courses/${course.id}/lessons/${video.id}`,
      categories: "/categories",
      category: `/categories/${category.id}`,
      search: "/search?q=a",
      profile: "/profile",
    },
  };
}

/** A browser context signed in as the learner (a session row, as after a real login). */
export async function learnerPage(
  browser: Browser,
  server: ServerAddress,
  tour: Tour,
  email: string,
  { javascript = true } = {},
): Promise<Page> {
  const token = insertSession(server, { organizationId: tour.organizationId }, { email, kind: "web" });
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setJavaScriptEnabled(javascript);
  await page.setCookie({
    name: "lectern_session",
    value: encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64")),
    domain: tour.host,
    path: "/",
  });
  return page;
}
