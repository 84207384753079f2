import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { storeGeneratedFile } from "../../app/models/file.server";
import type { TenantConn } from "../../db/open";
import { carouselCourses, carousels, courses, lessons, links, materials, type Course, type StoredFile } from "../../db/tenant";
import { coverArt, textPdf } from "./media";

/**
 * The demo's content (issue 18): every course gets cover art and something real to watch, read or
 * download — episodes with short videos, text and image lessons, PDFs as materials and download courses,
 * links — and each organization two carousels. Made at seed time from files shipped in
 * scripts/demo/media/ and media generated here (scripts/demo/media.ts), the same every time.
 */
const mediaDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "media");
const CLIPS = ["clip-1.webm", "clip-2.webm", "clip-3.webm", "clip-4.webm"];
const CLIP_SECONDS = 12;

type Episode =
  | { kind: "video"; title: string; body?: string; clip: number }
  | { kind: "text"; title: string; body: string }
  | { kind: "image"; title: string; body?: string };

export interface DemoCourseContent {
  episodes?: Episode[];
  /** PDFs offered as materials (title → paragraphs). */
  materials?: { title: string; paragraphs: string[] }[];
  links?: { title: string; url: string }[];
  /** For download courses: the document itself. */
  document?: { title: string; paragraphs: string[] };
}

export interface DemoCarousel {
  title: string;
  courses: string[];
}

interface Target {
  db: TenantConn;
  dataDir: string;
  organizationId: number;
}

export async function seedContent(
  target: Target,
  { content, carousels: rows }: { content: Record<string, DemoCourseContent>; carousels: DemoCarousel[] },
) {
  const { db } = target;
  const all = db.select().from(courses).all();
  const byTitle = new Map(all.map((c) => [c.title, c]));

  // Media first (async work), then every row in one transaction.
  const clips = CLIPS.map((name) => fs.readFileSync(path.join(mediaDir, name)));
  const covers = new Map<number, Buffer>();
  for (const course of all) covers.set(course.id, await coverArt(`${course.title}`));
  const images = new Map<string, Buffer>();
  for (const [, c] of Object.entries(content)) {
    for (const e of c.episodes ?? [])
      if (e.kind === "image") images.set(e.title, await coverArt(`image:${e.title}`, { width: 1600, height: 900 }));
  }

  db.transaction((tx) => writeContent({ ...target, db: tx }, { all, byTitle, content, rows, clips, covers, images }));
}

function writeContent(
  target: Target,
  {
    all,
    byTitle,
    content,
    rows,
    clips,
    covers,
    images,
  }: {
    all: Course[];
    byTitle: Map<string, Course>;
    content: Record<string, DemoCourseContent>;
    rows: DemoCarousel[];
    clips: Buffer[];
    covers: Map<number, Buffer>;
    images: Map<string, Buffer>;
  },
) {
  const { db } = target;
  const store = (name: string, data: Buffer) => storeGeneratedFile(db, target, { name, data });
  const clipFiles = new Map<number, StoredFile>();
  const clipFile = (index: number) => {
    let file = clipFiles.get(index);
    if (!file) {
      file = store(CLIPS[index], clips[index]);
      clipFiles.set(index, file);
    }
    return file;
  };

  for (const course of all) {
    const cover = store(`${slug(course.title)}-cover.webp`, covers.get(course.id)!);
    db.update(courses).set({ coverFileId: cover.id }).where(eq(courses.id, course.id)).run();
  }

  for (const [title, c] of Object.entries(content)) {
    const course = byTitle.get(title);
    if (!course) throw new Error(`demo content for a course that does not exist: ${title}`);
    addCourseContent(db, course, c, { store, clipFile, images });
  }

  rows.forEach((carousel, position) => {
    const row = db.insert(carousels).values({ title: carousel.title, published: true, position }).returning().get();
    carousel.courses.forEach((title, index) => {
      const course = byTitle.get(title);
      if (!course) throw new Error(`demo carousel lists a course that does not exist: ${title}`);
      db.insert(carouselCourses).values({ carouselId: row.id, courseId: course.id, position: index }).run();
    });
  });
}

function addCourseContent(
  db: TenantConn,
  course: Course,
  content: DemoCourseContent,
  {
    store,
    clipFile,
    images,
  }: { store: (name: string, data: Buffer) => StoredFile; clipFile: (i: number) => StoredFile; images: Map<string, Buffer> },
) {
  (content.episodes ?? []).forEach((episode, position) => {
    const base = { courseId: course.id, title: episode.title, position, body: episode.body ? `<p>${episode.body}</p>` : "" };
    if (episode.kind === "video") {
      const file = clipFile(episode.clip % CLIPS.length);
      db.insert(lessons)
        .values({ ...base, kind: "video", fileId: file.id, durationSeconds: CLIP_SECONDS })
        .run();
    } else if (episode.kind === "image") {
      const file = store(`${slug(episode.title)}.webp`, images.get(episode.title)!);
      db.insert(lessons)
        .values({ ...base, kind: "image", fileId: file.id })
        .run();
    } else {
      db.insert(lessons)
        .values({ ...base, kind: "text", body: episode.body })
        .run();
    }
  });
  (content.materials ?? []).forEach((material, position) => {
    const file = store(`${slug(material.title)}.pdf`, textPdf(material.title, material.paragraphs));
    db.insert(materials).values({ courseId: course.id, fileId: file.id, title: material.title, position }).run();
  });
  (content.links ?? []).forEach((link, position) => {
    db.insert(links).values({ courseId: course.id, title: link.title, url: link.url, position }).run();
  });
  if (content.document) {
    const file = store(`${slug(content.document.title)}.pdf`, textPdf(content.document.title, content.document.paragraphs));
    db.update(courses).set({ fileId: file.id }).where(eq(courses.id, course.id)).run();
  }
}

function slug(text: string) {
  return (
    text
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .toLowerCase()
      .replace(/\s+/g, "-")
      .slice(0, 60) || "file"
  );
}
