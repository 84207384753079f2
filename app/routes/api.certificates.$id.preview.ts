import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { certificatePdf } from "~/screens/certificate-pdf.server";
import { certificateCaller, visibleCertificate } from "~/screens/certificate-api.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT } from "~/utils/api.server";

/**
 * `GET /api/certificates/{id}/preview`: the PDF through the files mechanism, `{ url, expires_at }` (a
 * signed address); while it is being rendered, 202 `{ status: "preparing", job_id }`: call again
 * (a second or two later) until the address comes.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const caller = await certificateCaller(request, context);
  const c = visibleCertificate(caller, params.id);
  if (!c) return apiNotFound(request, context);
  const pdf = certificatePdf(context, caller.organization, c);
  if (pdf.state === "ready" && pdf.url) {
    return apiOk({ url: `${context.platform.originFor(caller.organization)}${pdf.url}`, expires_at: pdf.expiresAt, status: "ready" });
  }
  if (pdf.state === "failed") {
    const t = await apiT(request, context);
    return apiError(503, { message: t("certificates.learner.failed"), code: "render_failed" });
  }
  return apiOk({ status: "preparing", job_id: "jobId" in pdf ? pdf.jobId : null }, 202);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
