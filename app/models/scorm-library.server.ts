import type { TenantConn } from "../../db/open";
import type { Lesson } from "../../db/tenant";
import { fileOnDisk, getFile } from "./file.server";
import { deleteLesson } from "./lesson.server";
import { getPackage, inspectPackage, installPackage, ScormPackageError, type ScormProblem } from "./scorm.server";

/**
 * SCORM packages from the organization's file library (issue 45): /api installs a lesson's package from a
 * zip uploaded with `POST /api/files`, with the lesson editor's own checks and unpacking
 * (app/models/scorm.server.ts `installPackage`, docs/decisions/020-scorm.md). A SCORM lesson made through
 * /api always has its package: a refused package leaves no lesson behind.
 */
export type LibraryPackageProblem = ScormProblem | "package_required" | "unknown_file";

export type LibraryPackageResult = { ok: true } | { ok: false; problem: LibraryPackageProblem };

interface Place {
  dataDir: string;
  organizationId: number;
}

/** The zip of a library file on disk, or why it cannot be a package (no such file, not an archive). */
function zipOf(db: TenantConn, place: Place, fileId: number): { ok: true; path: string } | { ok: false; problem: LibraryPackageProblem } {
  const file = getFile(db, fileId);
  if (!file) return { ok: false, problem: "unknown_file" };
  // The library tells a zip by its bytes (app/models/file.server.ts `sniffType`): anything else is no package.
  if (file.kind !== "archive") return { ok: false, problem: "not_zip" };
  return { ok: true, path: fileOnDisk(place.dataDir, place.organizationId, file) };
}

async function refusal<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; problem: LibraryPackageProblem }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof ScormPackageError) return { ok: false, problem: error.problem };
    throw error;
  }
}

/** Reads and checks a library file as a package without writing anything (the manifest, its version, its launch files). */
export async function checkLibraryPackage(db: TenantConn, place: Place, fileId: number | null | undefined): Promise<LibraryPackageResult> {
  if (fileId == null) return { ok: false, problem: "package_required" };
  const zip = zipOf(db, place, fileId);
  if (!zip.ok) return zip;
  const checked = await refusal(() => inspectPackage(zip.path));
  return checked.ok ? { ok: true } : checked;
}

/** Installs (or replaces) a lesson's package from a library file: all of it, or nothing changed. */
export async function installLibraryPackage(
  db: TenantConn,
  { lesson, fileId, uploadedBy, ...place }: Place & { lesson: Lesson; fileId: number; uploadedBy: number | null },
): Promise<LibraryPackageResult> {
  const zip = zipOf(db, place, fileId);
  if (!zip.ok) return zip;
  const installed = await refusal(() => installPackage(db, { ...place, lesson, zipPath: zip.path, uploadedBy }));
  return installed.ok ? { ok: true } : installed;
}

/**
 * A lesson just created as a SCORM lesson gets its package, or is deleted again: the package was checked
 * before the lesson was made (`checkLibraryPackage`), so only what unpacking alone finds (a zip bomb, sizes
 * that lie) gets here.
 */
export async function installOrRemove(db: TenantConn, args: Place & { lesson: Lesson; fileId: number; uploadedBy: number | null }) {
  let result: LibraryPackageResult = { ok: false, problem: "package_required" };
  try {
    result = await installLibraryPackage(db, args);
    return result;
  } finally {
    // Refused, or failed otherwise (a full disk): no SCORM lesson stays without its package.
    if (!result.ok) deleteLesson(db, args.lesson.id);
  }
}

/** Whether a lesson has a package installed. */
export function hasPackage(db: TenantConn, lessonId: number) {
  return getPackage(db, lessonId) !== undefined;
}
