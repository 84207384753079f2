import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { lessons, scormPackages, type Lesson, type ScormPackage } from "../../db/tenant";
import { tenantFolder } from "../../db/tenant-pool";
import { signScormToken, type Signer } from "./scorm-token.server";
import { contentsOf, listedItems, requiredItems, type ContentsEntry } from "./scorm/contents";
import { launchFile, ManifestError, parseManifest } from "./scorm/manifest.server";
import { getAttempts } from "./scorm/runtime.server";
import { DEFAULT_UNPACK_LIMITS, listZip, UnpackError, unpackZip, type UnpackLimits } from "./scorm/unpack.server";

export {
  attemptView,
  commitAttempt,
  commitFromLaunch,
  getAttempts,
  launchState,
  lessonTracking,
  type CommitResult,
  type LaunchOrder,
} from "./scorm/runtime.server";
export { scoComplete } from "./scorm/status";

/**
 * SCORM lessons (issue 16, docs/decisions/020-scorm.md): installing a package (safe unpacking, manifest)
 * and what the player needs. A learner's runtime data (resume, commits, the status mapping that completes
 * the lesson) is in ./scorm/runtime.server.ts.
 */
export type ScormProblem =
  | "not_zip"
  | "no_manifest"
  | "manifest_not_at_root"
  | "manifest_parse"
  | "launch_missing"
  | "unsupported_version"
  | "no_items"
  | "aicc"
  | "unsafe_path"
  | "symlink"
  | "too_many_entries"
  | "too_large"
  | "ratio";

export class ScormPackageError extends Error {
  constructor(
    readonly problem: ScormProblem,
    readonly detail = "",
  ) {
    super(`${problem}${detail ? `: ${detail}` : ""}`);
    this.name = "ScormPackageError";
  }
}

export function scormRoot(dataDir: string, organizationId: number) {
  return path.join(tenantFolder(dataDir, organizationId), "scorm");
}

export function getPackage(db: TenantConn, lessonId: number): ScormPackage | undefined {
  return db.select().from(scormPackages).where(eq(scormPackages.lessonId, lessonId)).get();
}

/** Reads and checks a package without writing anything: the manifest, its version and launch files. */
export async function inspectPackage(zipPath: string, limits: UnpackLimits = DEFAULT_UNPACK_LIMITS) {
  let listing: Awaited<ReturnType<typeof listZip>>;
  try {
    listing = await listZip(zipPath, { limits, read: ["imsmanifest.xml"] });
  } catch (error) {
    if (error instanceof UnpackError) throw new ScormPackageError(error.problem, error.detail);
    throw error;
  }
  if (!listing.files.has("imsmanifest.xml")) {
    // An AICC course (its course structure files: .crs, .au, .des, .cst) is another standard, refused by name.
    const names = [...listing.lower.keys()];
    if (["crs", "au"].every((ext) => names.some((name) => name.endsWith(`.${ext}`)))) throw new ScormPackageError("aicc");
    const nested = [...listing.files].some((name) => name.toLowerCase().endsWith("/imsmanifest.xml"));
    const wrongCase = listing.lower.has("imsmanifest.xml");
    throw new ScormPackageError(nested || wrongCase ? "manifest_not_at_root" : "no_manifest");
  }
  const xml = listing.contents
    .get("imsmanifest.xml")!
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  let manifest: ReturnType<typeof parseManifest>;
  try {
    manifest = parseManifest(xml);
  } catch (error) {
    if (error instanceof ManifestError) throw new ScormPackageError(error.problem, error.detail);
    throw error;
  }
  for (const item of manifest.items) {
    const file = launchFile(item.launch);
    if (!file || !listing.files.has(file)) throw new ScormPackageError("launch_missing", item.launch);
  }
  return { manifest, listing };
}

/**
 * Installs (or replaces) a lesson's package: checked first without writing, then unpacked into a new
 * folder that appears whole or not at all; the row points at the new folder and the old one is removed
 * after the switch. Learners' runtime data is kept across a replacement.
 */
export async function installPackage(
  db: TenantConn,
  {
    dataDir,
    organizationId,
    lesson,
    zipPath,
    uploadedBy,
    limits = DEFAULT_UNPACK_LIMITS,
  }: { dataDir: string; organizationId: number; lesson: Lesson; zipPath: string; uploadedBy: number | null; limits?: UnpackLimits },
): Promise<ScormPackage> {
  const { manifest } = await inspectPackage(zipPath, limits);
  const root = scormRoot(dataDir, organizationId);
  let unpacked: Awaited<ReturnType<typeof unpackZip>>;
  try {
    unpacked = await unpackZip(zipPath, root, limits);
  } catch (error) {
    if (error instanceof UnpackError) throw new ScormPackageError(error.problem, error.detail);
    throw error;
  }
  const previous = getPackage(db, lesson.id);
  let row: ScormPackage;
  try {
    row = db.transaction((tx) => {
      const values = {
        lessonId: lesson.id,
        version: manifest.version,
        title: manifest.title,
        folder: unpacked.folder,
        items: manifest.items,
        fileCount: unpacked.files,
        unpackedBytes: unpacked.bytes,
        uploadedBy,
      };
      const saved = previous
        ? tx
            .update(scormPackages)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(scormPackages.id, previous.id))
            .returning()
            .get()!
        : tx.insert(scormPackages).values(values).returning().get();
      if (lesson.kind !== "scorm") tx.update(lessons).set({ kind: "scorm" }).where(eq(lessons.id, lesson.id)).run();
      return saved;
    });
  } catch (error) {
    fs.rmSync(path.join(root, unpacked.folder), { recursive: true, force: true });
    throw error;
  }
  if (previous && previous.folder !== row.folder) removePackageFolder(dataDir, organizationId, previous.folder);
  return row;
}

export function removePackageFolder(dataDir: string, organizationId: number, folder: string) {
  if (!/^[a-f0-9]{24}$/.test(folder)) return;
  fs.rmSync(path.join(scormRoot(dataDir, organizationId), folder), { recursive: true, force: true });
}

/** Leftovers of unpacks cut short by a crash (their folders start with ".incoming-"). */
export function sweepScormIncoming(dataDir: string, organizationId: number) {
  const root = scormRoot(dataDir, organizationId);
  if (!fs.existsSync(root)) return;
  for (const name of fs.readdirSync(root))
    if (name.startsWith(".incoming-")) fs.rmSync(path.join(root, name), { recursive: true, force: true });
}

/**
 * A file of a package on disk, or null: the path is decoded, normalised and must stay inside the
 * package's folder (and must not be a symlink, though unpacking never makes one).
 */
export function packageFile(dataDir: string, organizationId: number, pkg: Pick<ScormPackage, "folder">, relative: string): string | null {
  const clean = launchFile(relative);
  if (!clean) return null;
  const folder = path.join(scormRoot(dataDir, organizationId), pkg.folder);
  const full = path.resolve(folder, ...clean.split("/"));
  if (!full.startsWith(folder + path.sep)) return null;
  try {
    const stat = fs.lstatSync(full);
    return stat.isFile() ? full : null;
  } catch {
    return null;
  }
}

export function packageView(pkg: ScormPackage) {
  return {
    id: pkg.id,
    lesson_id: pkg.lessonId,
    version: pkg.version,
    title: pkg.title,
    items: pkg.items.map((i) => ({ identifier: i.identifier, title: i.title, depth: i.depth, type: i.scormType })),
    file_count: pkg.fileCount,
    unpacked_bytes: pkg.unpackedBytes,
    updated_at: pkg.updatedAt.toISOString(),
  };
}

/**
 * What the lesson player needs for a SCORM lesson: the table of contents with each item's launcher
 * address (signed for this learner) and status, and the content origin the player talks to.
 */
export interface ScormPlayerItem {
  identifier: string;
  title: string;
  depth: number;
  url: string;
  /** Shown in the contents list (./scorm/contents.ts). */
  listed: boolean;
  /** Needed for the lesson to be complete. */
  required: boolean;
  completed: boolean;
  completionStatus: string | null;
  successStatus: string | null;
  score: number | null;
}

export interface ScormPlayerData {
  contentOrigin: string;
  version: string | null;
  title: string | null;
  items: ScormPlayerItem[];
  /** The contents list: chapter headings and the listed items (indexes into `items`). */
  contents: ContentsEntry[];
}

export function scormPlayerData(
  db: TenantConn,
  {
    signer,
    contentOrigin,
    organizationId,
    lesson,
    userId,
    preview,
  }: { signer: Signer; contentOrigin: string; organizationId: number; lesson: Lesson; userId: number; preview: boolean },
): ScormPlayerData {
  const pkg = getPackage(db, lesson.id);
  if (!pkg) return { contentOrigin, version: null, title: null, items: [], contents: [] };
  const token = signScormToken(signer, organizationId, { lessonId: lesson.id, userId, packageId: pkg.id, preview });
  const attempts = new Map(getAttempts(db, userId, lesson.id).map((a) => [a.scoId, a]));
  const listed = listedItems(pkg.items);
  const required = new Set(requiredItems(pkg.items));
  return {
    contentOrigin,
    version: pkg.version,
    title: pkg.title,
    contents: contentsOf(pkg.items),
    items: pkg.items.map((item, index) => {
      const a = attempts.get(item.identifier);
      return {
        identifier: item.identifier,
        title: item.title,
        depth: item.depth,
        url: `${contentOrigin}/p/${token}/__lectern/launch/${index}`,
        listed: listed[index]!,
        required: required.has(index),
        completed: Boolean(a?.completedAt),
        completionStatus: a?.completionStatus ?? null,
        successStatus: a?.successStatus ?? null,
        score: a?.scoreScaled != null ? Math.round(a.scoreScaled * 100) : null,
      };
    }),
  };
}
