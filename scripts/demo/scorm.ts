import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TenantConn } from "../../db/open";
import { createLesson } from "../../app/models/lesson.server";
import { installPackage } from "../../app/models/scorm.server";
import { createCourse } from "../../app/models/course.server";

const PACKAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), "scorm", "RuntimeBasicCalls_SCORM20043rdEdition.zip");

const TEXTS: Record<string, { course: string; description: string; lesson: string }> = {
  en: {
    course: "Golf explained (SCORM)",
    description: "<p>An interactive SCORM 2004 course: rules, etiquette, handicaps and a short quiz.</p>",
    lesson: "Golf explained",
  },
  da: {
    course: "Golf forklaret (SCORM)",
    description: "<p>Et interaktivt SCORM 2004-kursus (på engelsk): regler, etikette, handicap og en lille quiz.</p>",
    lesson: "Golf forklaret",
  },
};

/** One published course with a SCORM lesson (the Golf Examples, SCORM 2004) in a demo organization. */
export async function seedScormDemo(
  db: TenantConn,
  { dataDir, organizationId, language }: { dataDir: string; organizationId: number; language: string },
) {
  const text = TEXTS[language] ?? TEXTS.en;
  const course = createCourse(db, { title: text.course, description: text.description, type: "series", published: true, position: 100 });
  const lesson = createLesson(db, {
    course_id: course.id,
    title: text.lesson,
    kind: "text",
    body: "",
    file_id: null,
    video_url: null,
    duration_seconds: null,
  });
  if (!lesson.ok) throw new Error(`demo SCORM lesson: ${lesson.message}`);
  await installPackage(db, { dataDir, organizationId, lesson: lesson.value, zipPath: PACKAGE, uploadedBy: null });
}
