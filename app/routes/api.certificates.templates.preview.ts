import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getTemplate, previewQuerySchema } from "~/models/certificate.server";
import { pageBox } from "~/models/certificate-html.server";
import { renderPreviewPng } from "~/models/certificate-render.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { languageFor } from "~/utils/preferences.server";

/**
 * `GET /api/certificates/templates/preview?template_id=` (read:certificate-template): the template
 * filled with sample data, as a PNG data: URI, rendered by the same sandboxed renderer as the PDFs.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.organization || !context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "read:certificate-template" });
  const query = previewQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  const template = getTemplate(context.db, query.data.template_id);
  if (!template) return apiNotFound(request, context);
  const t = await apiT(request, context);
  const language = await languageFor(request, context);
  const drawn = await renderPreviewPng(
    context.db,
    { dataDir: context.platform.dataDir, organization: context.organization, origin: context.platform.originFor(context.organization) },
    context.platform.renderer,
    template.layout,
    { learnerName: t("certificates.sample.learner"), courseTitle: t("certificates.sample.course"), language },
  );
  if ("failure" in drawn) return apiError(503, { message: t(drawn.failure.message), code: drawn.failure.code });
  const box = pageBox(template.layout);
  return apiOk({ template_id: template.id, image: `data:image/png;base64,${drawn.png.toString("base64")}`, width_mm: box.widthMm, height_mm: box.heightMm });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
