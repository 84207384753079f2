import type { AppLoadContext } from "@remix-run/node";
import { pdfState, RENDER_JOB, type PdfState } from "~/models/certificate-pdf.server";
import type { Certificate } from "~/models/certificate.server";
import { getFile } from "~/models/file.server";
import type { Organization } from "~/models/organization.server";

/**
 * A certificate's PDF for pages and /api: a signed download address when it is rendered; otherwise a
 * render job is queued (once: a pending one is reused) and the caller shows "being prepared". A failed
 * render is queued again only when `retry` is asked for.
 */
export function certificatePdf(
  context: AppLoadContext,
  organization: Organization,
  certificate: Certificate,
  { retry = false }: { retry?: boolean } = {},
): PdfState & { url?: string; expiresAt?: string } {
  const db = context.db!;
  const state = pdfState(db, certificate);
  if (state.state === "ready") {
    const file = getFile(db, state.fileId);
    if (file) {
      const { url, expires } = context.platform.signFileUrl(organization.id, file, context.platform.config.DOWNLOAD_TTL_SECONDS);
      return { ...state, url, expiresAt: new Date(expires * 1000).toISOString() };
    }
  }
  if (state.state === "preparing" || (state.state === "failed" && !retry)) return state;
  const job = context.platform.jobs.enqueue(organization.id, db, RENDER_JOB, { certificateId: certificate.id });
  return { state: "preparing", jobId: job.id };
}
