import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import type { TenantConn, TenantDb } from "../../db/open";
import {
  captionTracks,
  courses,
  files,
  lessons,
  links,
  materials,
  quizLessons,
  scormPackages,
  type Job,
  type Lesson,
  type ScormPackage,
  type StoredFile,
} from "../../db/tenant";
import { tenantFolder } from "../../db/tenant-pool";
import { finishJob, JobError } from "./job.server";
import { nextPosition } from "./ordering.server";
import { scormRoot } from "./scorm.server";

export interface JobContext {
  db: TenantDb;
  dataDir: string;
  organizationId: number;
  job: Job;
  progress: (percent: number) => void;
  /** Lets other requests run between steps (and, when configured, slows jobs down for tests). */
  pause: () => Promise<void>;
  /** Whether the server is stopping: a long job may end early when its work can go on in a later run. */
  stopping?: () => boolean;
}

/** What a copy takes from disk: the files the course and its lessons, materials and caption tracks use, and its SCORM packages. */
interface CopySources {
  files: StoredFile[];
  packages: ScormPackage[];
}

/** A file copied into the staging folder, and the path (under files/) it gets when the copy lands. */
interface StagedFile {
  stagedPath: string;
  relative: string;
}

/** A package folder copied whole into its staging folder, and the folder name it gets when the copy lands. */
interface StagedPackage {
  pkg: ScormPackage;
  stagedPath: string;
  folder: string;
}

/** Where one clone job copies from and to. */
interface ClonePlaces {
  /** The organization's files/ folder. */
  root: string;
  /** The staging folder of the job's files, inside root. */
  stagingFiles: string;
  /** The organization's SCORM packages folder. */
  packageRoot: string;
  /** Every staging folder made (removed whatever happens). */
  staging: string[];
  /** Every file and package folder moved to its final place (removed when the copy fails). */
  placed: string[];
}

/**
 * Copies a course with its lessons, materials, links and files (docs/product.md §4 "course clone runs in the
 * background"). Files are copied into a staging folder first; the new rows and the files' final places
 * appear together in one transaction at the end, so a failure — or a restart, after which the job runs
 * again from the start — never leaves half a copy. A SCORM lesson's package folder is copied too (the
 * copy plays, and may replace, its own package), staged as `.incoming-…` beside the packages so a crash's
 * leftovers are swept like an interrupted upload's; a quiz lesson of the copy shows the same quiz; a video
 * lesson's caption tracks are copied with their files and cues.
 */
export async function cloneCourse({ db, dataDir, organizationId, job, progress, pause }: JobContext) {
  const courseId = Number(job.payload.course_id);
  const title = String(job.payload.title ?? "");
  const root = path.join(tenantFolder(dataDir, organizationId), "files");
  const stagingFiles = path.join(root, `.clone-${job.id}`);
  fs.rmSync(stagingFiles, { recursive: true, force: true }); // what an interrupted attempt left
  fs.mkdirSync(stagingFiles, { recursive: true });
  const places: ClonePlaces = { root, stagingFiles, packageRoot: scormRoot(dataDir, organizationId), staging: [stagingFiles], placed: [] };
  try {
    const sources = readCopySources(db, courseId);
    const totalBytes =
      sources.files.reduce((sum, f) => sum + f.size, 0) + sources.packages.reduce((sum, p) => sum + p.unpackedBytes, 0) || 1;
    let copied = 0;
    const copiedBytes = async (bytes: number) => {
      copied += bytes;
      progress(2 + (90 * copied) / totalBytes);
      await pause();
    };
    progress(2);
    const staged = await stageFiles(sources.files, places, copiedBytes);
    const stagedPackages = await stagePackages(sources.packages, job.id, places, copiedBytes);
    const copy = db.transaction((tx) => {
      const created = writeCopy(tx, { courseId, title, sources: sources.files, staged, stagedPackages, places });
      // The job is marked done in the same transaction: a crash can never leave a copy whose job runs again.
      finishJob(tx, job.id, { course_id: created.id });
      return created;
    });
    return { course_id: copy.id };
  } catch (error) {
    for (const target of places.placed) fs.rmSync(target, { recursive: true, force: true });
    throw error;
  } finally {
    for (const folder of places.staging) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The course's files (its own, its lessons', materials' and caption tracks') and its lessons' SCORM packages. */
function readCopySources(db: TenantConn, courseId: number): CopySources {
  const course = db.select().from(courses).where(eq(courses.id, courseId)).get();
  if (!course) throw new JobError("The course to copy no longer exists.");
  const courseLessons = db.select().from(lessons).where(eq(lessons.courseId, courseId)).all();
  const lessonIds = courseLessons.map((l) => l.id);
  const courseMaterials = db.select().from(materials).where(eq(materials.courseId, courseId)).all();
  // The lessons' caption tracks (docs/decisions/036-captions.md): their WebVTT files are copied like the rest.
  const courseTracks = lessonIds.length ? db.select().from(captionTracks).where(inArray(captionTracks.lessonId, lessonIds)).all() : [];
  const fileIds = [
    ...new Set(
      [
        course.fileId,
        course.coverFileId,
        ...courseLessons.map((l) => l.fileId),
        ...courseMaterials.map((m) => m.fileId),
        ...courseTracks.map((t) => t.fileId),
      ].filter((id): id is number => typeof id === "number"),
    ),
  ];
  return {
    files: fileIds.length ? db.select().from(files).where(inArray(files.id, fileIds)).all() : [],
    packages: lessonIds.length ? db.select().from(scormPackages).where(inArray(scormPackages.lessonId, lessonIds)).all() : [],
  };
}

/** Copies each file into the staging folder under a new random name; by file id. */
async function stageFiles(sources: StoredFile[], places: ClonePlaces, copiedBytes: (bytes: number) => Promise<void>) {
  const staged = new Map<number, StagedFile>();
  for (const file of sources) {
    const relative = path.join(
      crypto.randomBytes(1).toString("hex"),
      `${crypto.randomBytes(16).toString("hex")}${path.extname(file.path)}`,
    );
    const stagedPath = path.join(places.stagingFiles, relative.replace(path.sep, "-"));
    await fs.promises.copyFile(path.join(places.root, file.path), stagedPath);
    staged.set(file.id, { stagedPath, relative });
    await copiedBytes(file.size);
  }
  return staged;
}

/** Each package folder, copied whole into its staging folder (unpacking never makes a symlink); by lesson id. */
async function stagePackages(packages: ScormPackage[], jobId: number, places: ClonePlaces, copiedBytes: (bytes: number) => Promise<void>) {
  const stagedPackages = new Map<number, StagedPackage>();
  for (const pkg of packages) {
    const folder = crypto.randomBytes(12).toString("hex");
    const stagedPath = path.join(places.packageRoot, `.incoming-clone-${jobId}-${folder}`);
    await fs.promises.cp(path.join(places.packageRoot, pkg.folder), stagedPath, {
      recursive: true,
      errorOnExist: true,
      force: false,
      verbatimSymlinks: true,
    });
    places.staging.push(stagedPath);
    stagedPackages.set(pkg.lessonId, { pkg, stagedPath, folder });
    await copiedBytes(pkg.unpackedBytes);
  }
  return stagedPackages;
}

/** What the transaction that lands a copy needs. */
interface CopyPlan {
  courseId: number;
  /** The copy's title; empty: the course's own with " (copy)". */
  title: string;
  sources: StoredFile[];
  staged: Map<number, StagedFile>;
  stagedPackages: Map<number, StagedPackage>;
  places: ClonePlaces;
}

/** Maps a file id of the course to its copy's (null when the file was not copied). */
type FileMap = (id: number | null) => number | null;

/** Inside the transaction: the course's rows written again for the copy, the staged files and packages moved to their places. */
function writeCopy(tx: TenantConn, plan: CopyPlan) {
  const { courseId, places } = plan;
  // Read the course again inside the transaction: what was deleted or changed during the copy counts.
  const current = tx.select().from(courses).where(eq(courses.id, courseId)).get();
  if (!current) throw new JobError("The course to copy no longer exists.");
  const freshLessons = tx.select().from(lessons).where(eq(lessons.courseId, courseId)).all();
  const freshMaterials = tx.select().from(materials).where(eq(materials.courseId, courseId)).all();
  const freshLinks = tx.select().from(links).where(eq(links.courseId, courseId)).all();
  const mapFile = placeFiles(tx, plan.sources, plan.staged, places);
  const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = current;
  const created = tx
    .insert(courses)
    .values({
      ...fields,
      title: plan.title || `${current.title} (copy)`,
      published: false,
      fileId: mapFile(current.fileId),
      coverFileId: mapFile(current.coverFileId),
      position: nextPosition(tx, courses),
    })
    .returning()
    .get();
  for (const lesson of freshLessons) copyLesson(tx, lesson, created.id, mapFile, plan.stagedPackages.get(lesson.id), places);
  for (const material of freshMaterials) {
    const fileId = mapFile(material.fileId);
    if (fileId === null) continue; // added during the copy, after its files were taken
    const { id: _mid, createdAt: _mc, updatedAt: _mu, ...rest } = material;
    tx.insert(materials)
      .values({ ...rest, courseId: created.id, fileId })
      .run();
  }
  for (const link of freshLinks) {
    const { id: _kid, createdAt: _kc, updatedAt: _ku, ...rest } = link;
    tx.insert(links)
      .values({ ...rest, courseId: created.id })
      .run();
  }
  return created;
}

/** The copied files' rows, and each staged file moved to its final place; gives the map of old ids to new. */
function placeFiles(tx: TenantConn, sources: StoredFile[], staged: Map<number, StagedFile>, places: ClonePlaces): FileMap {
  const newFileId = new Map<number, number>();
  for (const file of sources) {
    const { stagedPath, relative } = staged.get(file.id)!;
    const row = tx
      .insert(files)
      .values({
        kind: file.kind,
        mime: file.mime,
        name: file.name,
        size: file.size,
        sha256: file.sha256,
        path: relative,
        uploadedBy: file.uploadedBy,
      })
      .returning()
      .get();
    newFileId.set(file.id, row.id);
    const target = path.join(places.root, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(stagedPath, target);
    places.placed.push(target);
  }
  return (id) => (id === null ? null : (newFileId.get(id) ?? null));
}

/** One lesson of the copy, with its caption tracks, its quiz and its SCORM package. */
function copyLesson(
  tx: TenantConn,
  lesson: Lesson,
  courseId: number,
  mapFile: FileMap,
  staged: StagedPackage | undefined,
  places: ClonePlaces,
) {
  const { id: _lid, createdAt: _lc, updatedAt: _lu, ...rest } = lesson;
  const lessonCopy = tx
    .insert(lessons)
    .values({ ...rest, courseId, fileId: mapFile(lesson.fileId) })
    .returning()
    .get();
  copyCaptionTracks(tx, lesson.id, lessonCopy.id, mapFile);
  const quiz = tx.select().from(quizLessons).where(eq(quizLessons.lessonId, lesson.id)).get();
  if (quiz) tx.insert(quizLessons).values({ lessonId: lessonCopy.id, quizId: quiz.quizId }).run();
  // The package as it was when its folder was copied (one added during the copy is not taken).
  if (staged) {
    const { id: _pid, createdAt: _pc, updatedAt: _pu, lessonId: _pl, folder: _pf, ...pkg } = staged.pkg;
    tx.insert(scormPackages)
      .values({ ...pkg, lessonId: lessonCopy.id, folder: staged.folder })
      .run();
    const target = path.join(places.packageRoot, staged.folder);
    fs.renameSync(staged.stagedPath, target);
    places.placed.push(target);
  }
}

/** A lesson's caption tracks whose files were copied, with their cues (the search indexes them by trigger). */
function copyCaptionTracks(tx: TenantConn, lessonId: number, copyId: number, mapFile: FileMap) {
  for (const track of tx.select().from(captionTracks).where(eq(captionTracks.lessonId, lessonId)).all()) {
    const fileId = mapFile(track.fileId);
    if (fileId === null) continue; // added during the copy, after its files were taken
    const { id: _tid, createdAt: _tc, updatedAt: _tu, ...trackRest } = track;
    const trackCopy = tx
      .insert(captionTracks)
      .values({ ...trackRest, lessonId: copyId, fileId })
      .returning()
      .get();
    tx.run(
      sql`insert into caption_cues (track_id, lesson_id, start_ms, end_ms, text)
          select ${trackCopy.id}, ${copyId}, start_ms, end_ms, text from caption_cues where track_id = ${track.id} order by id`,
    );
  }
}
