import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
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
  const staging = [stagingFiles];
  const placed: string[] = [];
  try {
    const course = db.select().from(courses).where(eq(courses.id, courseId)).get();
    if (!course) throw new JobError("The course to copy no longer exists.");
    const courseLessons = db.select().from(lessons).where(eq(lessons.courseId, courseId)).all();
    const courseMaterials = db.select().from(materials).where(eq(materials.courseId, courseId)).all();
    // The lessons' caption tracks (docs/decisions/036-captions.md): their WebVTT files are copied like the rest.
    const courseTracks = courseLessons.length
      ? db
          .select()
          .from(captionTracks)
          .where(
            inArray(
              captionTracks.lessonId,
              courseLessons.map((l) => l.id),
            ),
          )
          .all()
      : [];

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
    const sources: StoredFile[] = fileIds.length ? db.select().from(files).where(inArray(files.id, fileIds)).all() : [];
    const packages: ScormPackage[] = courseLessons.length
      ? db
          .select()
          .from(scormPackages)
          .where(
            inArray(
              scormPackages.lessonId,
              courseLessons.map((l) => l.id),
            ),
          )
          .all()
      : [];
    const totalBytes = sources.reduce((sum, f) => sum + f.size, 0) + packages.reduce((sum, p) => sum + p.unpackedBytes, 0) || 1;
    let copied = 0;
    const staged = new Map<number, { stagedPath: string; relative: string }>();
    progress(2);
    for (const file of sources) {
      const relative = path.join(
        crypto.randomBytes(1).toString("hex"),
        `${crypto.randomBytes(16).toString("hex")}${path.extname(file.path)}`,
      );
      const stagedPath = path.join(stagingFiles, relative.replace(path.sep, "-"));
      await fs.promises.copyFile(path.join(root, file.path), stagedPath);
      staged.set(file.id, { stagedPath, relative });
      copied += file.size;
      progress(2 + (90 * copied) / totalBytes);
      await pause();
    }

    // Each package folder, copied whole into its staging folder (unpacking never makes a symlink).
    const packageRoot = scormRoot(dataDir, organizationId);
    const stagedPackages = new Map<number, { pkg: ScormPackage; stagedPath: string; folder: string }>();
    for (const pkg of packages) {
      const folder = crypto.randomBytes(12).toString("hex");
      const stagedPath = path.join(packageRoot, `.incoming-clone-${job.id}-${folder}`);
      await fs.promises.cp(path.join(packageRoot, pkg.folder), stagedPath, {
        recursive: true,
        errorOnExist: true,
        force: false,
        verbatimSymlinks: true,
      });
      staging.push(stagedPath);
      stagedPackages.set(pkg.lessonId, { pkg, stagedPath, folder });
      copied += pkg.unpackedBytes;
      progress(2 + (90 * copied) / totalBytes);
      await pause();
    }

    const copy = db.transaction((tx) => {
      // Read the course again inside the transaction: what was deleted or changed during the copy counts.
      const current = tx.select().from(courses).where(eq(courses.id, courseId)).get();
      if (!current) throw new JobError("The course to copy no longer exists.");
      const freshLessons = tx.select().from(lessons).where(eq(lessons.courseId, courseId)).all();
      const freshMaterials = tx.select().from(materials).where(eq(materials.courseId, courseId)).all();
      const freshLinks = tx.select().from(links).where(eq(links.courseId, courseId)).all();
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
        const target = path.join(root, relative);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(stagedPath, target);
        placed.push(target);
      }
      const mapFile = (id: number | null) => (id === null ? null : (newFileId.get(id) ?? null));
      const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = current;
      const created = tx
        .insert(courses)
        .values({
          ...fields,
          title: title || `${current.title} (copy)`,
          published: false,
          fileId: mapFile(current.fileId),
          coverFileId: mapFile(current.coverFileId),
          position: nextPosition(tx, courses),
        })
        .returning()
        .get();
      for (const lesson of freshLessons) {
        const { id: _lid, createdAt: _lc, updatedAt: _lu, ...rest } = lesson;
        const lessonCopy = tx
          .insert(lessons)
          .values({ ...rest, courseId: created.id, fileId: mapFile(lesson.fileId) })
          .returning()
          .get();
        // Its caption tracks whose files were copied, with their cues (the search indexes them by trigger).
        for (const track of tx.select().from(captionTracks).where(eq(captionTracks.lessonId, lesson.id)).all()) {
          const fileId = mapFile(track.fileId);
          if (fileId === null) continue; // added during the copy, after its files were taken
          const { id: _tid, createdAt: _tc, updatedAt: _tu, ...trackRest } = track;
          const trackCopy = tx
            .insert(captionTracks)
            .values({ ...trackRest, lessonId: lessonCopy.id, fileId })
            .returning()
            .get();
          tx.run(
            sql`insert into caption_cues (track_id, lesson_id, start_ms, end_ms, text)
                select ${trackCopy.id}, ${lessonCopy.id}, start_ms, end_ms, text from caption_cues where track_id = ${track.id} order by id`,
          );
        }
        const quiz = tx.select().from(quizLessons).where(eq(quizLessons.lessonId, lesson.id)).get();
        if (quiz) tx.insert(quizLessons).values({ lessonId: lessonCopy.id, quizId: quiz.quizId }).run();
        // The package as it was when its folder was copied (one added during the copy is not taken).
        const staged = stagedPackages.get(lesson.id);
        if (staged) {
          const { id: _pid, createdAt: _pc, updatedAt: _pu, lessonId: _pl, folder: _pf, ...pkg } = staged.pkg;
          tx.insert(scormPackages)
            .values({ ...pkg, lessonId: lessonCopy.id, folder: staged.folder })
            .run();
          const target = path.join(packageRoot, staged.folder);
          fs.renameSync(staged.stagedPath, target);
          placed.push(target);
        }
      }
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
      // The job is marked done in the same transaction: a crash can never leave a copy whose job runs again.
      finishJob(tx as unknown as TenantDb, job.id, { course_id: created.id });
      return created;
    });
    return { course_id: copy.id };
  } catch (error) {
    for (const target of placed) fs.rmSync(target, { recursive: true, force: true });
    throw error;
  } finally {
    for (const folder of staging) fs.rmSync(folder, { recursive: true, force: true });
  }
}
