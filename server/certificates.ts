import type { JobContext } from "../app/models/clone.server";
import { JobError } from "../app/models/job.server";
import { renderCertificatePdf } from "../app/models/certificate-render.server";
import { getOrganization } from "../app/models/organization.server";
import type { CertificateServices } from "./services";
import { RendererUnavailableError, RenderTimeoutError } from "./pdf-renderer";

/** The "certificate.render" job: one certificate's PDF, through the platform's sandboxed renderer. */
export async function renderCertificateJob(context: JobContext, platform: CertificateServices) {
  const certificateId = Number(context.job.payload.certificateId);
  const organization = getOrganization(platform.db, context.organizationId);
  if (!organization || !Number.isSafeInteger(certificateId)) throw new JobError("The certificate could not be found.");
  try {
    return await renderCertificatePdf(
      context.db,
      { dataDir: platform.dataDir, organization, origin: platform.originFor(organization) },
      platform.renderer,
      certificateId,
    );
  } catch (error) {
    if (error instanceof RendererUnavailableError || error instanceof RenderTimeoutError) throw new JobError(error.message);
    throw error;
  }
}
