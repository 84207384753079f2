import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cloneCourse } from "../../app/models/clone.server";
import { createCourse } from "../../app/models/course.server";
import { enqueueJob, getJob } from "../../app/models/job.server";
import { createOrganization } from "../../app/models/organization.server";
import { files, lessons, materials } from "../../db/tenant";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

/**
 * How long copying a large course takes (docs/product.md §4 allows "up to about 10 minutes"): a course of
 * `lessonCount` lessons with `fileCount` files totalling `totalBytes`, copied by the real clone job.
 */
export async function benchClone({ lessonCount = 500, fileCount = 100, totalBytes = 1024 ** 3 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-clone-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "Clone bench", urlPrefix: "clone", language: "en" });
    return await platform.tenants.withTenant(organization.id, async (db) => {
      const filesDir = path.join(dataDir, `org-${organization.id}`, "files", "00");
      fs.mkdirSync(filesDir, { recursive: true });
      const perFile = Math.floor(totalBytes / fileCount);
      const chunk = crypto.randomBytes(1024 * 1024);
      const fileIds: number[] = [];
      for (let i = 0; i < fileCount; i++) {
        const relative = path.join("00", `f${i}.mp4`);
        const fd = fs.openSync(path.join(dataDir, `org-${organization.id}`, "files", relative), "w");
        for (let written = 0; written < perFile; written += chunk.length)
          fs.writeSync(fd, chunk, 0, Math.min(chunk.length, perFile - written));
        fs.closeSync(fd);
        fileIds.push(
          db
            .insert(files)
            .values({ kind: "video", mime: "video/mp4", name: `f${i}.mp4`, size: perFile, sha256: "-", path: relative })
            .returning()
            .get().id,
        );
      }
      const course = createCourse(db, { title: "Big course", type: "series", position: 0 });
      db.transaction((tx) => {
        for (let i = 0; i < lessonCount; i++) {
          tx.insert(lessons)
            .values({ courseId: course.id, title: `Lesson ${i + 1}`, kind: "video", fileId: fileIds[i % fileCount], position: i })
            .run();
        }
        tx.insert(materials).values({ courseId: course.id, fileId: fileIds[0], title: "Handout", position: 0 }).run();
      });
      const job = enqueueJob(db, "course.clone", { course_id: course.id, title: "Big course (copy)" });
      const started = process.hrtime.bigint();
      const result = await cloneCourse({
        db,
        dataDir,
        organizationId: organization.id,
        job,
        progress: () => {},
        pause: () => Promise.resolve(),
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const copiedLessons = db
        .select()
        .from(lessons)
        .all()
        .filter((l) => l.courseId === result.course_id).length;
      if (copiedLessons !== lessonCount) throw new Error(`clone copied ${copiedLessons} lessons, not ${lessonCount}`);
      void getJob;
      return { lessonCount, fileCount, totalMiB: Math.round(totalBytes / 1024 ** 2), seconds: Math.round(seconds * 100) / 100 };
    });
  } finally {
    platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
