import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TenantConn } from "../../db/open";
import { createLesson } from "../../app/models/lesson.server";
import { installPackage } from "../../app/models/scorm.server";
import { createCourse } from "../../app/models/course.server";

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "scorm");
const PACKAGE = path.join(folder, "RuntimeBasicCalls_SCORM20043rdEdition.zip");
/** Several SCOs in chapters, each reporting nothing but its session (made by scorm/make-golf-pages.ts). */
const PAGES_PACKAGE = path.join(folder, "GolfOnePagePerSco_SCORM12.zip");

const TEXTS: Record<string, { course: string; description: string; lesson: string; pages: string }> = {
  en: {
    course: "Golf explained (SCORM)",
    description:
      "<p>Interactive SCORM courses: rules, etiquette, handicaps and a short quiz (SCORM 2004), then the same pages one at a time, chosen from the contents (SCORM 1.2).</p>",
    lesson: "Golf explained",
    pages: "Golf, one page at a time",
  },
  da: {
    course: "Golf forklaret (SCORM)",
    description:
      "<p>Interaktive SCORM-kurser (på engelsk): regler, etikette, handicap og en lille quiz (SCORM 2004), derefter de samme sider én ad gangen, valgt i indholdet (SCORM 1.2).</p>",
    lesson: "Golf forklaret",
    pages: "Golf, én side ad gangen",
  },
};

/**
 * One published course with two SCORM lessons in a demo organization: the Golf Examples as one SCO
 * (SCORM 2004), and their pages as fourteen SCOs in four chapters (SCORM 1.2).
 */
export async function seedScormDemo(
  db: TenantConn,
  { dataDir, organizationId, language }: { dataDir: string; organizationId: number; language: string },
) {
  const text = TEXTS[language] ?? TEXTS.en;
  const course = createCourse(db, { title: text.course, description: text.description, type: "series", published: true, position: 100 });
  for (const [title, zipPath] of [
    [text.lesson, PACKAGE],
    [text.pages, PAGES_PACKAGE],
  ] as const) {
    const lesson = createLesson(db, {
      course_id: course.id,
      title,
      kind: "text",
      body: "",
      file_id: null,
      video_url: null,
      duration_seconds: null,
    });
    if (!lesson.ok) throw new Error(`demo SCORM lesson: ${lesson.message}`);
    await installPackage(db, { dataDir, organizationId, lesson: lesson.value, zipPath, uploadedBy: null });
  }
}
