import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { issueCertificate } from "../../app/models/certificate-issuing.server";
import { renderCertificatePdf } from "../../app/models/certificate-render.server";
import { createCourse } from "../../app/models/course.server";
import { createOrganization } from "../../app/models/organization.server";
import { createUser } from "../../app/models/user.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

/**
 * Certificates: the time a learner waits for a certificate PDF through the sandboxed Chromium, all through
 * the render job's own function, at 1, 4 and 16 requests at once — each request's time from asking to the
 * stored PDF (p50, p95) and PDFs per minute — plus the first render of a cold renderer (a browser to start).
 */
const LEVELS = [1, 4, 16];

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function benchCertificates({ perLevel = Number(process.env.BENCH_CERTIFICATES ?? 16) } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-certificates-"));
  const platform = new Platform({ ...readConfig(process.env), DATA_DIR: dataDir });
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "Certificate bench", urlPrefix: "certs", language: "en" });
    return await platform.tenants.withTenant(organization.id, async (db) => {
      const course = createCourse(db, { title: "Workplace Safety Essentials", type: "series", position: 0, allowCertificates: true });
      const total = 1 + LEVELS.reduce((sum, level) => sum + Math.max(level, perLevel), 0);
      const ids: number[] = [];
      for (let i = 0; i < total; i++) {
        const user = await createUser(db, {
          email: `l${i}@bench.test`,
          firstName: `Łucja ${i}`,
          lastName: "Ærø 山田",
          role: "learner",
          password: null,
        });
        ids.push(db.transaction((tx) => issueCertificate(tx, { userId: user.id, courseId: course.id, at: new Date() }))!.id);
      }
      const env = { dataDir, organization, origin: platform.originFor(organization) };
      const timed = async (id: number) => {
        const started = process.hrtime.bigint();
        await renderCertificatePdf(db, env, platform.renderer, id);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const coldMs = await timed(ids.shift()!);
      const levels = [];
      for (const level of LEVELS) {
        const batch = ids.splice(0, Math.max(level, perLevel));
        const times: number[] = [];
        const started = process.hrtime.bigint();
        // `level` learners asking at once, each asking for the next certificate as soon as theirs is ready.
        let next = 0;
        await Promise.all(
          Array.from({ length: level }, async () => {
            while (next < batch.length) times.push(await timed(batch[next++]));
          }),
        );
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        times.sort((a, b) => a - b);
        levels.push({
          at_once: level,
          p50_ms: Math.round(percentile(times, 50)),
          p95_ms: Math.round(percentile(times, 95)),
          pdfs_per_minute: Math.round((batch.length / seconds) * 60),
        });
      }
      return { cold_ms: Math.round(coldMs), levels, pages_at_once: platform.renderer.concurrency, launches: platform.renderer.launches };
    });
  } finally {
    await platform.renderer.close();
    platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function reportCertificates() {
  const r = await benchCertificates();
  console.log(
    `  certificate PDF: first (browser starting) ${r.cold_ms} ms; ${r.pages_at_once} page(s) drawn at a time, ${r.launches} browser(s) started`,
  );
  for (const level of r.levels) {
    console.log(
      `    ${String(level.at_once).padStart(2)} at once: p50 ${level.p50_ms} ms, p95 ${level.p95_ms} ms, ${level.pdfs_per_minute} PDFs/min`,
    );
  }
  return r;
}
