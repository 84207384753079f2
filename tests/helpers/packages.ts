import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TenantDb } from "../../db/open";
import { contentPackages, courses, lessons, users, type ContentPackage, type Lesson } from "../../db/tenant";
import { parseCourseStructure } from "../../app/models/packages/cmi5-structure";

/**
 * What the package models' tests start from (tests/unit/package-*.test.ts; issue 48): a published course with
 * one lesson and a learner in a tenant database, a package row for that lesson, and CATAPULT's 001-essentials
 * course structure (tests/fixtures/cmi5/) with its one AU.
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "cmi5");
export const ESSENTIALS_XML = fs.readFileSync(path.join(FIXTURES, "001-essentials.cmi5.xml"), "utf8");
export const ESSENTIALS = parseCourseStructure(ESSENTIALS_XML, { inPackage: true });
export const ESSENTIALS_AU = "https://w3id.org/xapi/cmi5/catapult/lts/au/001-essentials";

export function packageLesson(db: TenantDb): { lesson: Lesson; userId: number } {
  const course = db.insert(courses).values({ title: "C", published: true }).returning().get();
  const lesson = db.insert(lessons).values({ courseId: course.id, title: "L", kind: "text", position: 0 }).returning().get();
  const userId = db
    .insert(users)
    .values({ email: "anna@acme.test", firstName: "Anna", lastName: "A", role: "learner" })
    .returning()
    .get().id;
  return { lesson, userId };
}

export function packageRow(db: TenantDb, lesson: Lesson, kind: "cmi5" | "xapi", structure: unknown): ContentPackage {
  return db
    .insert(contentPackages)
    .values({ lessonId: lesson.id, kind, title: "P", folder: "f".repeat(24), structure, fileCount: 1, unpackedBytes: 1, uploadedBy: null })
    .returning()
    .get();
}
