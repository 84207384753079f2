import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { certificates, jobs, type Certificate } from "../../db/tenant";

/**
 * A certificate's PDF (docs/decisions/015-certificates.md): rendered later by a job
 * (app/models/certificate-render.server.ts); here, where that job stands, the file it made, and the
 * download's name.
 */

export const RENDER_JOB = "certificate.render";

/** The queued or running render job of a certificate, if any. */
export function pendingRender(db: TenantConn, certificateId: number) {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, RENDER_JOB),
        inArray(jobs.status, ["queued", "running"]),
        sql`json_extract(${jobs.payload}, '$.certificateId') = ${certificateId}`,
      ),
    )
    .get();
}

/** The last failed render of a certificate (to show why, and to offer a retry). */
export function lastRender(db: TenantConn, certificateId: number) {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, RENDER_JOB), sql`json_extract(${jobs.payload}, '$.certificateId') = ${certificateId}`))
    .orderBy(desc(jobs.id))
    .get();
}

export function setCertificatePdf(db: TenantConn, id: number, fileId: number) {
  db.update(certificates).set({ pdfFileId: fileId }).where(eq(certificates.id, id)).run();
}

/** The PDF's download name: ascii-friendly, from the course title and the id. */
export function pdfName(c: Certificate) {
  const title =
    c.courseTitle
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "certificate";
  return `certificate-${title}-${c.publicId}.pdf`;
}

export type PdfState =
  | { state: "ready"; fileId: number }
  | { state: "preparing"; jobId: number }
  | { state: "failed"; jobId: number; error: string | null }
  | { state: "none" };

/** Where a certificate's PDF stands: rendered, being rendered, failed last time, or never asked for. */
export function pdfState(db: TenantConn, certificate: Certificate): PdfState {
  if (certificate.pdfFileId) return { state: "ready", fileId: certificate.pdfFileId };
  const pending = pendingRender(db, certificate.id);
  if (pending) return { state: "preparing", jobId: pending.id };
  const last = lastRender(db, certificate.id);
  if (last?.status === "failed") return { state: "failed", jobId: last.id, error: last.error };
  return { state: "none" };
}
