import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCourse } from "../../app/models/course.server";
import { createLesson } from "../../app/models/lesson.server";
import { createOrganization } from "../../app/models/organization.server";
import { commitAttempt, installPackage } from "../../app/models/scorm.server";
import { users } from "../../db/tenant";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { makeZip, type ZipEntry } from "../../tests/helpers/zip";

/**
 * SCORM (issue 16): installing a large package (checked, unpacked with every limit counted, recorded) and
 * how many runtime-data commits a second one organization's database takes (validation, merge, status
 * mapping, one transaction each; the model without HTTP).
 */
export async function benchScorm({ files = 5000, totalBytes = 200 * 1024 ** 2, commitSeconds = 3 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-scorm-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "SCORM bench", urlPrefix: "scorm-bench", language: "en" });
    return await platform.tenants.withTenant(organization.id, async (db) => {
      const perFile = Math.floor(totalBytes / files);
      const entries: ZipEntry[] = [
        {
          name: "imsmanifest.xml",
          data: `<?xml version="1.0"?><manifest identifier="bench" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"><metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata><organizations default="o"><organization identifier="o"><title>Bench</title><item identifier="i" identifierref="r"><title>SCO</title></item></organization></organizations><resources><resource identifier="r" type="webcontent" adlcp:scormType="sco" href="index.html"/></resources></manifest>`,
        },
        { name: "index.html", data: "<!doctype html><title>SCO</title>" },
      ];
      const block = crypto.randomBytes(perFile);
      for (let i = entries.length; i < files; i++) entries.push({ name: `assets/${Math.floor(i / 500)}/f${i}.bin`, data: block });
      const zipPath = path.join(dataDir, "bench.zip");
      fs.writeFileSync(zipPath, makeZip(entries));
      const zipMiB = Math.round(fs.statSync(zipPath).size / 1024 ** 2);

      const course = createCourse(db, { title: "Bench", type: "series", published: true, position: 0 });
      const created = createLesson(db, {
        course_id: course.id,
        title: "SCORM",
        kind: "text",
        body: "",
        file_id: null,
        video_url: null,
        duration_seconds: null,
      });
      if (!created.ok) throw new Error(created.message);
      const started = process.hrtime.bigint();
      const pkg = await installPackage(db, { dataDir, organizationId: organization.id, lesson: created.value, zipPath, uploadedBy: null });
      const installSeconds = Number(process.hrtime.bigint() - started) / 1e9;

      const learners = Array.from(
        { length: 100 },
        (_, i) =>
          db
            .insert(users)
            .values({ email: `l${i}@bench.test`, firstName: "L", lastName: String(i), role: "learner" })
            .returning()
            .get().id,
      );
      const lesson = { ...created.value, kind: "scorm" as const };
      let commits = 0;
      const end = Date.now() + commitSeconds * 1000;
      const suspend = "x".repeat(2000);
      while (Date.now() < end) {
        const userId = learners[commits % learners.length];
        const result = commitAttempt(db, {
          userId,
          lesson,
          pkg,
          scoId: "i",
          cmi: {
            "cmi.location": String(commits),
            "cmi.suspend_data": suspend,
            "cmi.completion_status": "incomplete",
            "cmi.score.raw": "50",
            "cmi.interactions.0.id": "q1",
            "cmi.interactions.0.result": "correct",
          },
        });
        if (!result.ok) throw new Error("bench commit refused");
        commits++;
      }
      return {
        files: pkg.fileCount,
        unpackedMiB: Math.round(pkg.unpackedBytes / 1024 ** 2),
        zipMiB,
        installSeconds: Math.round(installSeconds * 10) / 10,
        commitsPerSecond: Math.round(commits / commitSeconds),
      };
    });
  } finally {
    platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
