import fs from "node:fs";
import type { TenantConn } from "../../../db/open";
import type { Lesson } from "../../../db/tenant";
import { inspectPackage, installPackage, ScormPackageError } from "../scorm.server";
import { DEFAULT_UNPACK_LIMITS, type UnpackLimits } from "../scorm/unpack.server";
import { inspectZip, PackageError } from "./inspect.server";
import { installContentPackage } from "./install.server";

/*
 * A lesson's package, whichever kind it is (docs/decisions/044-xapi-cmi5-packages.md, 1): the lesson editor and
 * /api take one file, and its manifest decides. A zip with `imsmanifest.xml` (and no richer manifest) is a
 * SCORM package (app/models/scorm.server.ts); one with `tincan.xml` or `cmi5.xml` an xAPI or cmi5 package
 * (install.server.ts); a file that is not a zip but reads as XML a bare cmi5 course structure. The lesson
 * takes the kind of what was installed; a refused file changes nothing, and says why in its own words
 * (`scorm.errors.*` for SCORM's reasons, `packages.errors.*` for the rest).
 */

/** The largest bare course structure read: a cmi5.xml of a thousand AUs is about 400 KiB. */
export const COURSE_STRUCTURE_MAX_BYTES = 1024 * 1024;

export type LessonPackageResult =
  | { ok: true; kind: "scorm" | "xapi" | "cmi5" }
  | {
      ok: false;
      problem: string;
      detail: string;
      key: `scorm.errors.${string}` | `packages.errors.${string}`;
      /** What the reason names: the manifest a folder held. */
      params: Record<string, string>;
    };

const ZIP = Buffer.from("PK\x03\x04", "latin1");

function head(file: string, bytes: number): Buffer {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** A file that is not a zip may be a bare cmi5.xml: XML text (after a byte-order mark and white space), small enough. */
function courseStructureText(file: string): string | null {
  const size = fs.statSync(file).size;
  if (size === 0 || size > COURSE_STRUCTURE_MAX_BYTES) return null;
  const text = fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  return /^\s*</.test(text) ? text : null;
}

function refused(error: unknown): LessonPackageResult {
  if (error instanceof ScormPackageError)
    return { ok: false, problem: error.problem, detail: error.detail, key: `scorm.errors.${error.problem}`, params: {} };
  if (error instanceof PackageError)
    return {
      ok: false,
      problem: error.problem,
      detail: error.detail,
      key: `packages.errors.${error.problem}`,
      params: { manifest: error.detail.split("/").pop() ?? "" },
    };
  throw error;
}

/** Installs (or replaces) the package of `lesson` from an uploaded file: a SCORM, xAPI or cmi5 zip, or a bare cmi5.xml. */
export async function installLessonPackage(
  db: TenantConn,
  {
    dataDir,
    organizationId,
    lesson,
    file,
    uploadedBy,
    limits = DEFAULT_UNPACK_LIMITS,
  }: { dataDir: string; organizationId: number; lesson: Lesson; file: string; uploadedBy: number | null; limits?: UnpackLimits },
): Promise<LessonPackageResult> {
  try {
    if (!head(file, 4).equals(ZIP)) {
      const xml = courseStructureText(file);
      if (xml === null) return refused(new PackageError("not_zip"));
      await installContentPackage(db, { dataDir, organizationId, lesson, upload: { xml }, uploadedBy, limits });
      return { ok: true, kind: "cmi5" };
    }
    const inspected = await inspectZip(file, limits).catch(async (error: unknown) => {
      // A zip with no manifest at all may be an AICC course: SCORM's inspection says so in its own words.
      if (error instanceof PackageError && error.problem === "no_manifest")
        await inspectPackage(file, limits).catch((scorm: unknown) => {
          if (scorm instanceof ScormPackageError && scorm.problem === "aicc") throw scorm;
        });
      throw error;
    });
    if (inspected.kind === "scorm") {
      await installPackage(db, { dataDir, organizationId, lesson, zipPath: file, uploadedBy, limits });
      return { ok: true, kind: "scorm" };
    }
    const row = await installContentPackage(db, { dataDir, organizationId, lesson, upload: { zipPath: file }, uploadedBy, limits });
    return { ok: true, kind: row.kind as "xapi" | "cmi5" };
  } catch (error) {
    return refused(error);
  }
}
