import { DEFAULT_UNPACK_LIMITS, listZip, UnpackError, type UnpackLimits } from "../scorm/unpack.server";
import { aus, Cmi5Error, parseCourseStructure, type Cmi5Course } from "./cmi5-structure";
import { packageKind, type PackageKind } from "./kind";
import { parseTincan, TincanError, type TincanPackage } from "./tincan";

/*
 * What an uploaded xAPI or cmi5 package is, read and checked without writing anything (docs/decisions/
 * 044-xapi-cmi5-packages.md): a zip is listed with the SCORM unpacker's own checks (zip slip, symlinks,
 * bombs, sizes: decision 020), its root manifest read, and every file the manifest launches found in it; a
 * bare `cmi5.xml` is a course structure whose AUs all live elsewhere. SCORM zips are the SCORM model's
 * (app/models/scorm.server.ts), and are answered as such here.
 */

export type PackageProblem =
  | UnpackError["problem"]
  | "is_scorm"
  | "no_manifest"
  | "manifest_not_at_root"
  | "launch_missing"
  | Cmi5Error["problem"]
  | TincanError["problem"];

export class PackageError extends Error {
  constructor(
    readonly problem: PackageProblem,
    readonly detail = "",
  ) {
    super(`${problem}${detail ? `: ${detail}` : ""}`);
    this.name = "PackageError";
  }
}

export type Inspected =
  | { kind: "scorm" }
  | { kind: "xapi"; package: TincanPackage; files: number; bytes: number }
  | { kind: "cmi5"; course: Cmi5Course; files: number; bytes: number };

const utf8 = (bytes: Buffer) => bytes.toString("utf8").replace(/^\uFEFF/, "");

/** The file a relative launch address opens (its query and fragment cut, percent-escapes read), or null. */
function launchedFile(url: string): string | null {
  const path = url.split(/[?#]/)[0];
  try {
    return decodeURIComponent(path).replace(/^\.\//, "");
  } catch {
    return null;
  }
}

function readManifest<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Cmi5Error || error instanceof TincanError) throw new PackageError(error.problem, error.detail);
    throw error;
  }
}

/** A bare course structure (`cmi5.xml` uploaded on its own). */
export function inspectCourseStructure(xml: string): Inspected {
  const course = readManifest(() => parseCourseStructure(xml, { inPackage: false }));
  return { kind: "cmi5", course, files: 0, bytes: 0 };
}

/** A zip: its kind, its manifest read and its launch files found. */
export async function inspectZip(zipPath: string, limits: UnpackLimits = DEFAULT_UNPACK_LIMITS): Promise<Inspected> {
  let listing: Awaited<ReturnType<typeof listZip>>;
  try {
    listing = await listZip(zipPath, { limits, read: ["cmi5.xml", "tincan.xml"] });
  } catch (error) {
    if (error instanceof UnpackError) throw new PackageError(error.problem, error.detail);
    throw error;
  }
  const found = packageKind([...listing.files]);
  if ("problem" in found) throw new PackageError(found.problem, "path" in found ? found.path : "");
  const kind: PackageKind = found.kind;
  if (kind === "scorm") return { kind };
  const size = { files: listing.files.size, bytes: listing.declaredBytes };
  const manifest = listing.contents.get(found.manifest);
  if (!manifest) throw new PackageError(kind === "cmi5" ? "cmi5_parse" : "tincan_parse", found.manifest);
  const missing = (url: string) => {
    const file = launchedFile(url);
    return file === null || !listing.files.has(file);
  };
  if (kind === "xapi") {
    const pkg = readManifest(() => parseTincan(utf8(manifest)));
    if (missing(pkg.launch.launch!)) throw new PackageError("launch_missing", pkg.launch.launch!);
    return { kind, package: pkg, ...size };
  }
  const course = readManifest(() => parseCourseStructure(utf8(manifest), { inPackage: true }));
  const lost = aus(course.children).find((au) => !/^[a-z][a-z0-9+.-]*:/i.test(au.url) && missing(au.url));
  if (lost) throw new PackageError("launch_missing", lost.url);
  return { kind, course, ...size };
}
