import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TenantConn } from "../../db/open";
import { createCourse } from "../../app/models/course.server";
import { createLesson } from "../../app/models/lesson.server";
import { installContentPackage } from "../../app/models/packages/install.server";
import { makeZip } from "./zip";

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "packages");
/** What every package of the demo carries: the runtime that talks to the LRS, the page's script and its style. */
const SHARED = ["lectern-au.js", "page.js", "style.css"];

/** A package of the demo, zipped from its sources (scripts/demo/packages/<name>/ and the shared files). */
export function demoPackageZip(name: "fire-safety" | "phishing"): Buffer {
  const own = fs.readdirSync(path.join(folder, name)).sort();
  return makeZip([
    ...own.map((file) => ({ name: file, data: fs.readFileSync(path.join(folder, name, file)), deflate: true })),
    ...SHARED.map((file) => ({ name: file, data: fs.readFileSync(path.join(folder, file)), deflate: true })),
  ]);
}

const TEXTS: Record<string, { course: string; description: string; cmi5: string; xapi: string }> = {
  en: {
    course: "Safety at work (cmi5 and xAPI)",
    description:
      "<p>Two interactive lessons tracked in the organization's learning record store: fire safety as a cmi5 course of three parts in two blocks, each with its own rule for when it is done, and spotting phishing as an xAPI package with a quiz.</p>",
    cmi5: "Fire safety at work",
    xapi: "Spotting phishing",
  },
  da: {
    course: "Sikkerhed på arbejdet (cmi5 og xAPI)",
    description:
      "<p>To interaktive lektioner (på engelsk), registreret i organisationens learning record store: brandsikkerhed som et cmi5-kursus i tre dele og to blokke, hver med sin egen regel for, hvornår den er færdig, og phishing som en xAPI-pakke med en quiz.</p>",
    cmi5: "Brandsikkerhed på arbejdet",
    xapi: "Genkend phishing",
  },
};

/**
 * One published course in a demo organization with a cmi5 lesson (three AUs in two blocks, with Completed,
 * CompletedAndPassed and Passed rules) and an xAPI lesson (one page and a quiz), both written for the demo.
 */
export async function seedPackagesDemo(
  db: TenantConn,
  { dataDir, organizationId, language }: { dataDir: string; organizationId: number; language: string },
) {
  const text = TEXTS[language] ?? TEXTS.en;
  const course = createCourse(db, {
    title: text.course,
    description: text.description,
    type: "series",
    published: true,
    position: 101,
    allowCertificates: true,
  });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-demo-package-"));
  try {
    for (const [title, name] of [
      [text.cmi5, "fire-safety"],
      [text.xapi, "phishing"],
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
      if (!lesson.ok) throw new Error(`demo package lesson: ${lesson.message}`);
      const zipPath = path.join(work, `${name}.zip`);
      fs.writeFileSync(zipPath, demoPackageZip(name));
      await installContentPackage(db, { dataDir, organizationId, lesson: lesson.value, upload: { zipPath }, uploadedBy: null });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
