import type { JobContext } from "../app/models/clone.server";
import { JobError } from "../app/models/job.server";
import { renderCertificatePdf } from "../app/models/certificate-render.server";
import { getOrganization } from "../app/models/organization.server";
import type { CertificateServices } from "./services";
import { RendererBusyError, RendererUnavailableError, RenderTimeoutError } from "./pdf-renderer";

/** Renders a job makes before it fails, when each was stopped by load rather than by its page. */
const RENDER_TRIES = 3;

/** Whether a render failed because the renderer was busy or still starting: the same page may well render next time. */
function stoppedByLoad(error: unknown) {
  return error instanceof RendererBusyError || (error instanceof RenderTimeoutError && (error.busy || error.stage === "starting"));
}

/**
 * The "certificate.render" job: one certificate's PDF, through the platform's sandboxed renderer. A learner
 * waiting for their certificate is not asked to try again because the server was busy: a render stopped by
 * load is tried again (after 1 s, then 2 s); one stopped by its own page, or a missing Chromium, fails the job.
 */
export async function renderCertificateJob(context: JobContext, platform: CertificateServices) {
  const certificateId = Number(context.job.payload.certificateId);
  const organization = getOrganization(platform.db, context.organizationId);
  if (!organization || !Number.isSafeInteger(certificateId)) throw new JobError("The certificate could not be found.");
  const env = { dataDir: platform.dataDir, organization, origin: platform.originFor(organization) };
  for (let attempt = 1; ; attempt++) {
    try {
      return await renderCertificatePdf(context.db, env, platform.renderer, certificateId);
    } catch (error) {
      if (stoppedByLoad(error) && attempt < RENDER_TRIES) {
        await new Promise((resolve) => setTimeout(resolve, attempt * 1_000));
        continue;
      }
      if (error instanceof RendererUnavailableError || error instanceof RenderTimeoutError || error instanceof RendererBusyError) {
        throw new JobError(error.message);
      }
      throw error;
    }
  }
}
