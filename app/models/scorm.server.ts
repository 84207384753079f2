import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import {
  lessonProgress,
  lessons,
  scormAttempts,
  scormPackages,
  users,
  type Lesson,
  type ScormAttempt,
  type ScormItem,
  type ScormPackage,
} from "../../db/tenant";
import { tenantFolder } from "../../db/tenant-pool";
import { completeLesson } from "./learning.server";
import {
  familyOf,
  formatDuration2004,
  formatTimespan12,
  parseDuration2004,
  parseTimespan12,
  validateCmi,
  type CmiProblem,
} from "./scorm/datamodel";
import { signScormToken, type Signer } from "./scorm-token.server";
import { launchFile, ManifestError, parseManifest } from "./scorm/manifest.server";
import { DEFAULT_UNPACK_LIMITS, listZip, UnpackError, unpackZip, type UnpackLimits } from "./scorm/unpack.server";

/**
 * SCORM lessons (issue 16, docs/decisions/020-scorm.md): installing a package (safe unpacking, manifest),
 * what a learner's content starts with (resume), and commits of runtime data with the status mapping
 * that completes the lesson through completeLesson (and so fires the learning events).
 */
export type ScormProblem =
  | "not_zip"
  | "no_manifest"
  | "manifest_not_at_root"
  | "manifest_parse"
  | "launch_missing"
  | "unsupported_version"
  | "no_items"
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
export function packageFile(dataDir: string, organizationId: number, pkg: ScormPackage, relative: string): string | null {
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

export function getAttempts(db: TenantConn, userId: number, lessonId: number) {
  return db
    .select()
    .from(scormAttempts)
    .where(and(eq(scormAttempts.userId, userId), eq(scormAttempts.lessonId, lessonId)))
    .all();
}

function attemptFor(db: TenantConn, userId: number, lessonId: number, scoId: string) {
  return db
    .select()
    .from(scormAttempts)
    .where(and(eq(scormAttempts.userId, userId), eq(scormAttempts.lessonId, lessonId), eq(scormAttempts.scoId, scoId)))
    .get();
}

/** Is this SCO done, in the package's own words (docs/decisions/020-scorm.md "Status mapping")? */
export function scoComplete(attempt: Pick<ScormAttempt, "version" | "completionStatus" | "successStatus">) {
  if (familyOf(attempt.version) === "1.2") return attempt.completionStatus === "passed" || attempt.completionStatus === "completed";
  return attempt.completionStatus === "completed" || (attempt.completionStatus === "unknown" && attempt.successStatus === "passed");
}

/**
 * What a SCO starts with: the learner's stored elements, and the LMS's own ones (learner id and name,
 * entry, credit, mode, launch data, mastery score, total time). `entry` is "resume" when the previous
 * session suspended, or ended without Terminate (a closed tab) and left data behind; "ab-initio" the first time.
 */
export function launchState(db: TenantConn, { userId, pkg, item }: { userId: number; pkg: ScormPackage; item: ScormItem }) {
  const attempt = attemptFor(db, userId, pkg.lessonId, item.identifier);
  const person = db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).get();
  const name = person ? `${person.lastName}, ${person.firstName}`.replace(/^, |, $/g, "") : "";
  const stored = { ...(attempt?.cmi ?? {}) };
  const meta = { exit: stored["lectern.exit"] ?? "", terminated: stored["lectern.terminated"] === "true" };
  for (const key of Object.keys(stored)) if (key.startsWith("lectern.")) delete stored[key];
  const hasData = Object.keys(stored).length > 0;
  const entry = !attempt ? "ab-initio" : meta.exit === "suspend" || (!meta.terminated && hasData) ? "resume" : "";
  const family = familyOf(pkg.version);
  const total = attempt?.totalSeconds ?? 0;
  const seed: Record<string, string> =
    family === "1.2"
      ? {
          ...stored,
          "cmi.core.student_id": String(userId),
          "cmi.core.student_name": name,
          "cmi.core.entry": entry,
          "cmi.core.credit": "credit",
          "cmi.core.lesson_mode": "normal",
          "cmi.core.total_time": formatTimespan12(total),
          "cmi.launch_data": item.launchData ?? "",
          ...(item.masteryScore !== null ? { "cmi.student_data.mastery_score": String(item.masteryScore) } : {}),
        }
      : {
          ...stored,
          "cmi.learner_id": String(userId),
          "cmi.learner_name": name,
          "cmi.entry": entry,
          "cmi.credit": "credit",
          "cmi.mode": "normal",
          "cmi.total_time": formatDuration2004(total),
          "cmi.launch_data": item.launchData ?? "",
          ...(item.masteryScore !== null && item.masteryScore >= -1 && item.masteryScore <= 1
            ? { "cmi.scaled_passing_score": String(item.masteryScore) }
            : {}),
        };
  // The exit of the previous session is not carried into the new one.
  delete seed[family === "1.2" ? "cmi.core.exit" : "cmi.exit"];
  delete seed[family === "1.2" ? "cmi.core.session_time" : "cmi.session_time"];
  return seed;
}

export type CommitResult =
  | { ok: true; attempt: ScormAttempt; lessonCompleted: boolean; courseCompleted: boolean }
  | { ok: false; problem: "unknown_sco" }
  | { ok: false; problem: "stale" }
  | { ok: false; problem: "invalid"; problems: CmiProblem[] };

const num = (v: string | undefined) => (v === undefined || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));

/**
 * Stores a commit of one learner's runtime data for one SCO. The elements are validated against the data
 * model (names, sizes, vocabularies); the statuses are read from them; a terminating commit adds the
 * session time to the total. When every SCO of the package is done, the lesson is completed through
 * completeLesson (once; the learning events fire there).
 */
export function commitAttempt(
  db: TenantConn,
  {
    userId,
    lesson,
    pkg,
    scoId,
    cmi,
    terminate = false,
    now = new Date(),
  }: { userId: number; lesson: Lesson; pkg: ScormPackage; scoId: string; cmi: Record<string, unknown>; terminate?: boolean; now?: Date },
): CommitResult {
  const item = pkg.items.find((i) => i.identifier === scoId);
  if (!item) return { ok: false, problem: "unknown_sco" };
  const family = familyOf(pkg.version);
  const checked = validateCmi(family, cmi);
  if (!checked.ok) return { ok: false, problem: "invalid", problems: checked.problems };
  const values = checked.values;
  return db.transaction((tx) => {
    const existing = attemptFor(tx, userId, lesson.id, scoId);
    // A launch whose attempt has since ended (a renewal: app/models/completion-cycle.server.ts
    // `restartCourseWork`) still holds that attempt's data, statuses included, and scorm-again sends it back
    // whole: its commits are refused, so a package left open in a tab cannot complete the renewal. Only a new
    // attempt's launch is seeded `ab-initio` (`launchState`).
    const entry = cmi[family === "1.2" ? "cmi.core.entry" : "cmi.entry"];
    if (!existing && typeof entry === "string" && entry !== "ab-initio") return { ok: false as const, problem: "stale" as const };
    const merged: Record<string, string> = { ...(existing?.cmi ?? {}), ...values };
    const sessionKey = family === "1.2" ? "cmi.core.session_time" : "cmi.session_time";
    const exitKey = family === "1.2" ? "cmi.core.exit" : "cmi.exit";
    let total = existing?.totalSeconds ?? 0;
    if (terminate) {
      const session = values[sessionKey]
        ? family === "1.2"
          ? parseTimespan12(values[sessionKey])
          : parseDuration2004(values[sessionKey])
        : 0;
      total += Math.min(Math.max(0, Math.round(session ?? 0)), 24 * 3600);
      merged["lectern.terminated"] = "true";
    } else merged["lectern.terminated"] = "false";
    merged["lectern.exit"] = values[exitKey] ?? "";
    delete merged[sessionKey];
    let completionStatus: string;
    let successStatus: string;
    const prefix = family === "1.2" ? "cmi.core.score." : "cmi.score.";
    const raw = num(merged[`${prefix}raw`]);
    const min = num(merged[`${prefix}min`]);
    const max = num(merged[`${prefix}max`]);
    let scaled = family === "2004" ? num(merged["cmi.score.scaled"]) : null;
    if (family === "1.2") {
      completionStatus = merged["cmi.core.lesson_status"] || "not attempted";
      successStatus = completionStatus === "passed" || completionStatus === "failed" ? completionStatus : "unknown";
      // 1.2 has no scaled score: raw against its range, when the range is known.
      if (raw !== null) scaled = max !== null && max > (min ?? 0) ? (raw - (min ?? 0)) / (max - (min ?? 0)) : raw / 100;
    } else {
      completionStatus = merged["cmi.completion_status"] || "unknown";
      successStatus = merged["cmi.success_status"] || "unknown";
      if (scaled === null && raw !== null && max !== null && max > (min ?? 0)) scaled = (raw - (min ?? 0)) / (max - (min ?? 0));
    }
    const status = { version: pkg.version, completionStatus, successStatus };
    const done = scoComplete(status);
    const fields = {
      version: pkg.version,
      cmi: merged,
      completionStatus,
      successStatus,
      scoreRaw: raw,
      scoreMin: min,
      scoreMax: max,
      scoreScaled: scaled === null ? null : Math.max(-1, Math.min(1, scaled)),
      totalSeconds: total,
      updatedAt: now,
      // Once done, a SCO stays done for the LMS even if the content later says otherwise.
      completedAt: existing?.completedAt ?? (done ? now : null),
    };
    // The lesson shows as started (history, /api lesson-progresses) from the first commit on, and again in a
    // renewal: a row from before the renewal is touched once, so the work counts as started in the new cycle
    // (app/models/completion-cycle.server.ts `progressInCycle`); later commits leave it alone.
    tx.insert(lessonProgress)
      .values({ userId, lessonId: lesson.id, courseId: lesson.courseId, updatedAt: now })
      .onConflictDoUpdate({
        target: [lessonProgress.userId, lessonProgress.lessonId],
        set: { updatedAt: now },
        setWhere: sql`${lessonProgress.updatedAt} < coalesce((select cc.renewal_started_at from course_completions cc
          where cc.user_id = ${userId} and cc.course_id = ${lesson.courseId}), 0)`,
      })
      .run();
    const attempt = existing
      ? tx.update(scormAttempts).set(fields).where(eq(scormAttempts.id, existing.id)).returning().get()!
      : tx
          .insert(scormAttempts)
          .values({ ...fields, userId, lessonId: lesson.id, scoId })
          .returning()
          .get();
    let lessonCompleted = false;
    let courseCompleted = false;
    if (attempt.completedAt) {
      const finished = new Set(
        getAttempts(tx, userId, lesson.id)
          .filter((a) => a.completedAt)
          .map((a) => a.scoId),
      );
      const needed = pkg.items.filter((i) => i.scormType === "sco");
      if ((needed.length ? needed : pkg.items).every((i) => finished.has(i.identifier))) {
        lessonCompleted = true;
        courseCompleted = completeLesson(tx, { userId, lesson, now }).courseCompleted;
      }
    }
    return { ok: true as const, attempt, lessonCompleted, courseCompleted };
  });
}

export function attemptView(a: ScormAttempt) {
  return {
    id: a.id,
    lesson_id: a.lessonId,
    sco_id: a.scoId,
    version: a.version,
    completion_status: a.completionStatus,
    success_status: a.successStatus,
    completed: a.completedAt !== null,
    score: { raw: a.scoreRaw, min: a.scoreMin, max: a.scoreMax, scaled: a.scoreScaled },
    total_seconds: a.totalSeconds,
    updated_at: a.updatedAt.toISOString(),
  };
}

/** The SCORM tracking of one lesson for one learner, as /api shows it beside lesson progress. */
export function lessonTracking(db: TenantConn, userId: number, lessonId: number) {
  const attempts = getAttempts(db, userId, lessonId);
  if (!attempts.length) return null;
  const scored = attempts.filter((a) => a.scoreScaled !== null);
  return {
    status: attempts.every((a) => a.completedAt) ? "completed" : "incomplete",
    score: scored.length ? Math.round((scored.reduce((s, a) => s + a.scoreScaled!, 0) / scored.length) * 100) : null,
    total_seconds: attempts.reduce((s, a) => s + a.totalSeconds, 0),
    scos: attempts.map(attemptView),
  };
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
  if (!pkg) return { contentOrigin, version: null, title: null, items: [] };
  const token = signScormToken(signer, organizationId, { lessonId: lesson.id, userId, packageId: pkg.id, preview });
  const attempts = new Map(getAttempts(db, userId, lesson.id).map((a) => [a.scoId, a]));
  return {
    contentOrigin,
    version: pkg.version,
    title: pkg.title,
    items: pkg.items.map((item, index) => {
      const a = attempts.get(item.identifier);
      return {
        identifier: item.identifier,
        title: item.title,
        depth: item.depth,
        url: `${contentOrigin}/p/${token}/__lectern/launch/${index}`,
        completed: Boolean(a?.completedAt),
        completionStatus: a?.completionStatus ?? null,
        successStatus: a?.successStatus ?? null,
        score: a?.scoreScaled != null ? Math.round(a.scoreScaled * 100) : null,
      };
    }),
  };
}
