import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { issueCertificate } from "../../app/models/certificate.server";
import { renderCertificatePdf } from "../../app/models/certificate-render.server";
import { createCourse } from "../../app/models/course.server";
import { createOrganization } from "../../app/models/organization.server";
import { createUser } from "../../app/models/user.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

/**
 * Certificates (issue 12): the time to render one certificate PDF through the sandboxed Chromium, and
 * PDFs per minute with the default concurrency (CERTIFICATE_RENDERERS, 1 unless set), all through the
 * render job's own function.
 */
export async function benchCertificates({ count = Number(process.env.BENCH_CERTIFICATES ?? 8) } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-certificates-"));
  const platform = new Platform({ ...readConfig(process.env), DATA_DIR: dataDir });
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "Certificate bench", urlPrefix: "certs", language: "en" });
    return await platform.tenants.withTenant(organization.id, async (db) => {
      const course = createCourse(db, { title: "Workplace Safety Essentials", type: "series", position: 0, allowCertificates: true });
      const ids: number[] = [];
      for (let i = 0; i < count + 1; i++) {
        const user = await createUser(db, { email: `l${i}@bench.test`, firstName: `Łucja ${i}`, lastName: "Ærø 山田", role: "learner", password: null });
        ids.push(db.transaction((tx) => issueCertificate(tx, { userId: user.id, courseId: course.id, at: new Date() }))!.id);
      }
      const env = { dataDir, organization, origin: platform.originFor(organization) };
      const started = process.hrtime.bigint();
      await renderCertificatePdf(db, env, platform.renderer, ids[0]);
      const oneMs = Number(process.hrtime.bigint() - started) / 1e6;
      const batchStarted = process.hrtime.bigint();
      await Promise.all(ids.slice(1).map((id) => renderCertificatePdf(db, env, platform.renderer, id)));
      const batchSeconds = Number(process.hrtime.bigint() - batchStarted) / 1e9;
      return {
        one_pdf_ms: Math.round(oneMs),
        pdfs_per_minute: Math.round((count / batchSeconds) * 60 * 10) / 10,
        concurrency: platform.renderer.concurrency,
        rendered: count,
      };
    });
  } finally {
    platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function reportCertificates() {
  const r = await benchCertificates();
  console.log(`  certificate PDF: one in ${r.one_pdf_ms} ms; ${r.pdfs_per_minute} PDFs/min over ${r.rendered} with ${r.concurrency} Chromium at a time`);
  return r;
}
