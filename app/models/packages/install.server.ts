import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { contentPackages, lessons, type ContentPackage, type Lesson } from "../../../db/tenant";
import { scormRoot, removePackageFolder } from "../scorm.server";
import { DEFAULT_UNPACK_LIMITS, UnpackError, unpackZip, type UnpackLimits } from "../scorm/unpack.server";
import { inspectCourseStructure, inspectZip, PackageError, type Inspected } from "./inspect.server";

/*
 * Installing an xAPI or cmi5 package as a lesson's (docs/decisions/044-xapi-cmi5-packages.md, 4): checked whole
 * first (inspect.server.ts), then unpacked into a new folder beside the SCORM packages' (the same content
 * origin serves both), and the lesson's row pointed at it, and made a `package` lesson, in one step; a replaced package's folder is removed
 * after the switch, and learners' registrations are kept. A SCORM zip is refused here (`is_scorm`): it is the
 * SCORM model's to install.
 */

export type Upload = { zipPath: string } | { xml: string };

/** The package's title: its course's (cmi5) or launch activity's (xAPI) first name, else the lesson's. */
function titleOf(inspected: Exclude<Inspected, { kind: "scorm" }>, lesson: Lesson): string {
  const names = inspected.kind === "cmi5" ? inspected.course.title : inspected.package.launch.name;
  return (Object.values(names).find((n) => n.trim()) ?? lesson.title).slice(0, 200);
}

export function getContentPackage(db: TenantConn, lessonId: number): ContentPackage | undefined {
  return db.select().from(contentPackages).where(eq(contentPackages.lessonId, lessonId)).get();
}

export async function installContentPackage(
  db: TenantConn,
  {
    dataDir,
    organizationId,
    lesson,
    upload,
    uploadedBy,
    limits = DEFAULT_UNPACK_LIMITS,
  }: { dataDir: string; organizationId: number; lesson: Lesson; upload: Upload; uploadedBy: number | null; limits?: UnpackLimits },
): Promise<ContentPackage> {
  const inspected = "xml" in upload ? inspectCourseStructure(upload.xml) : await inspectZip(upload.zipPath, limits);
  if (inspected.kind === "scorm") throw new PackageError("is_scorm");
  const root = scormRoot(dataDir, organizationId);
  let folder: string | null = null;
  let files = 0;
  let bytes = 0;
  if ("zipPath" in upload) {
    try {
      ({ folder, files, bytes } = await unpackZip(upload.zipPath, root, limits));
    } catch (error) {
      if (error instanceof UnpackError) throw new PackageError(error.problem, error.detail);
      throw error;
    }
  }
  const previous = getContentPackage(db, lesson.id);
  const values = {
    lessonId: lesson.id,
    kind: inspected.kind,
    title: titleOf(inspected, lesson),
    folder,
    structure: inspected.kind === "cmi5" ? inspected.course : inspected.package,
    fileCount: files,
    unpackedBytes: bytes,
    uploadedBy,
  };
  let row: ContentPackage;
  try {
    row = db.transaction((tx) => {
      // The lesson becomes a package lesson with its package, in one step (a SCORM lesson given a cmi5 zip too).
      if (lesson.kind !== "package") tx.update(lessons).set({ kind: "package" }).where(eq(lessons.id, lesson.id)).run();
      return previous
        ? tx
            .update(contentPackages)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(contentPackages.id, previous.id))
            .returning()
            .get()!
        : tx.insert(contentPackages).values(values).returning().get();
    });
  } catch (error) {
    if (folder) fs.rmSync(path.join(root, folder), { recursive: true, force: true });
    throw error;
  }
  if (previous?.folder && previous.folder !== row.folder) removePackageFolder(dataDir, organizationId, previous.folder);
  return row;
}
