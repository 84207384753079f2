import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCertificate } from "../../app/models/certificate.server";
import { issueCertificate } from "../../app/models/certificate-issuing.server";
import { RENDER_JOB } from "../../app/models/certificate-pdf.server";
import type { JobContext } from "../../app/models/clone.server";
import { createCourse } from "../../app/models/course.server";
import { fileOnDisk, getFile } from "../../app/models/file.server";
import { enqueueJob } from "../../app/models/job.server";
import { createOrganization } from "../../app/models/organization.server";
import { createUser } from "../../app/models/user.server";
import { renderCertificateJob } from "../../server/certificates";
import { readConfig } from "../../server/config";
import { PdfRenderer, RendererBusyError } from "../../server/pdf-renderer";
import { Platform } from "../../server/platform";
import { pdfText } from "../helpers/pdf";
import { tempDir } from "../helpers/temp";

/**
 * The certificate.render job under load: a learner waiting for their certificate is not told to try again
 * because the renderer was busy — the job asks again itself (server/certificates.ts) — while a missing
 * Chromium fails the job at once with a sentence an admin can act on.
 */
const A4 = { widthMm: 297, heightMm: 210 };
const CHROME = process.env.CHROME_PATH || "/usr/bin/chromium";
let platform: Platform;
let organizationId: number;

beforeAll(() => {
  const dataDir = tempDir("lectern-render-job-");
  platform = new Platform({ ...readConfig(process.env), DATA_DIR: dataDir });
  organizationId = createOrganization(platform.db, { dataDir }, { name: "Render job", urlPrefix: "render-job", language: "en" }).id;
});
afterAll(async () => {
  await platform?.renderer.close();
  platform?.close();
});

/** A certificate of a new learner, and a job context for rendering it, in the organization's database. */
async function certificateJob(email: string) {
  return platform.tenants.withTenant(organizationId, async (db) => {
    const course = createCourse(db, { title: "Fire Safety Basics", type: "series", position: 0, allowCertificates: true });
    const user = await createUser(db, { email, firstName: "Ingrid", lastName: "Holm", role: "learner", password: null });
    const certificate = db.transaction((tx) => issueCertificate(tx, { userId: user.id, courseId: course.id, at: new Date() }))!;
    const job = enqueueJob(db, RENDER_JOB, { certificateId: certificate.id });
    return { certificateId: certificate.id, job };
  });
}

function run(job: Awaited<ReturnType<typeof certificateJob>>["job"], renderer: PdfRenderer) {
  return platform.tenants.withTenant(organizationId, (db) => {
    const context: JobContext = { db, dataDir: platform.dataDir, organizationId, job, progress: () => {}, pause: async () => {} };
    return renderCertificateJob(context, { db: platform.db, dataDir: platform.dataDir, renderer, originFor: (o) => platform.originFor(o) });
  });
}

describe("the certificate render job", () => {
  it("asks again when the renderer is busy, and stores the PDF", async () => {
    // One page at a time and no waiting line: while another render draws, the job's first try is refused.
    const renderer = new PdfRenderer({ executablePath: CHROME, concurrency: 1, maxQueue: 0 });
    try {
      await renderer.png("<p>warm</p>", A4);
      const { certificateId, job } = await certificateJob("busy@render.test");
      const other = renderer.pdf("<p>someone else's certificate</p>", A4);
      await expect(renderer.pdf("<p>no room</p>", A4)).rejects.toBeInstanceOf(RendererBusyError);
      const result = await run(job, renderer);
      await other;
      expect(result).toMatchObject({ certificateId, fileId: expect.any(Number) });
      const pdf = await platform.tenants.withTenant(organizationId, async (db) => getCertificate(db, certificateId)!.pdfFileId);
      expect(pdf).toBe(result.fileId);
      expect(renderer.launches).toBe(1);
    } finally {
      await renderer.close();
    }
  });

  it("fails at once, saying what to install, when Chromium is missing", async () => {
    const { job } = await certificateJob("missing@render.test");
    const started = Date.now();
    const error = await run(job, new PdfRenderer({ executablePath: "/nowhere/chromium" })).catch((e) => e);
    expect(error?.name).toBe("JobError");
    expect(String(error.message)).toMatch(/Chromium was not found at \/nowhere\/chromium: install it/);
    expect(Date.now() - started).toBeLessThan(900); // not asked again: waiting would not install it
  });

  it("renders the learner's certificate through the platform's own renderer", async () => {
    const { certificateId, job } = await certificateJob("own@render.test");
    const result = await run(job, platform.renderer);
    const text = await platform.tenants.withTenant(organizationId, async (db) => {
      const fileId = getCertificate(db, certificateId)!.pdfFileId!;
      expect(fileId).toBe(result.fileId);
      return pdfText(fs.readFileSync(fileOnDisk(platform.dataDir, organizationId, getFile(db, fileId)!)));
    });
    expect(text).toContain("Ingrid Holm");
    expect(text).toContain("Fire Safety Basics");
  });
});
