import type { SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ErrorList, FormMessage } from "~/components/form";
import { templateFormSchema } from "~/models/forms/certificates";
import { parseForm } from "~/utils/form";
import {
  courseChoices,
  PLACEHOLDERS,
  templateCourseIds,
  updateTemplate,
  type CertificateLayout,
} from "~/models/certificate-templates.server";
import { renderPreviewPng } from "~/models/certificate-render.server";
import { listFiles } from "~/models/file.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { languageFor } from "~/utils/preferences.server";
import { handleUpload } from "~/kernel/upload.server";
import { templateFrom, templatesBase } from "./certificate-templates";
import { readForm } from "~/utils/form-data.server";
import { templateDefaults } from "./certificate-template-defaults";
import { TemplateForm } from "./certificate-template-form";

/**
 * One certificate template's editor: page, background (from the file library, or uploaded here), logo,
 * QR code, text blocks with placeholders, the courses that use it, and a preview of it filled with sample
 * data. Without JavaScript the Preview button posts the form and the page comes back with the image;
 * with JavaScript the preview follows the form as it changes.
 */
const CAPABILITY = "write:certificate-template" as const;

export function templateLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const template = templateFrom(m, params.certificateTemplateId);
      return {
        base: templatesBase(m),
        template: { id: template.id, name: template.name, isDefault: template.isDefault, layout: template.layout },
        courseIds: templateCourseIds(m.db, template.id),
        courses: courseChoices(m.db),
        placeholders: [...PLACEHOLDERS],
        images: listFiles(m.db, { kind: "image", page: { page: 1, perPage: 100 } }).items.map((f) => ({ id: f.id, name: f.name })),
      };
    });
}

async function preview(request: Request, context: ActionFunctionArgs["context"], m: Managed, layout: CertificateLayout) {
  const language = await languageFor(request, context);
  const t = await getFixedT(language);
  const drawn = await renderPreviewPng(
    m.db,
    { dataDir: context.platform.dataDir, organization: m.organization, origin: context.platform.originFor(m.organization) },
    context.platform.renderer,
    layout,
    { learnerName: t("certificates.sample.learner"), courseTitle: t("certificates.sample.course"), language },
  );
  if ("failure" in drawn) return { preview: null, previewError: drawn.failure.message, retryAfterSeconds: drawn.failure.retryAfterSeconds };
  return { preview: `data:image/png;base64,${drawn.png.toString("base64")}`, previewError: null, retryAfterSeconds: null };
}

async function uploadBackground(request: Request, context: ActionFunctionArgs["context"], m: Managed, templateId: number, here: string) {
  return handleUpload(
    request,
    context,
    { organizationId: m.organization.id, field: "file", allowed: ["image"] },
    async (upload) => {
      const stored = await upload.store(m.db, m.area === "dashboard" ? m.viewer.person.id : null);
      const template = templateFrom(m, String(templateId));
      updateTemplate(m.db, templateId, { layout: { ...template.layout, backgroundFileId: stored.id } });
      return redirect(here);
    },
    ({ status, message }) => json({ uploadErrors: [message] }, { status }),
  );
}

export function templateAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const template = templateFrom(m, params.certificateTemplateId);
      const here = `${templatesBase(m)}/${template.id}`;
      if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
        return uploadBackground(request, context, m, template.id, here);
      }
      const formData = await readForm(request, context);
      const submission = parseForm(formData, templateFormSchema);
      if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
      const { intent, name, is_default, layout, course_ids } = submission.value;
      if (intent === "preview") {
        // The page comes back with the preview and the form as it was posted (nothing is saved); a preview
        // refused under load is a 503 with Retry-After, the page and its message all the same.
        const { retryAfterSeconds, ...drawn } = await preview(request, context, m, layout);
        const busy = retryAfterSeconds ? { status: 503, headers: { "Retry-After": String(retryAfterSeconds) } } : undefined;
        return json({ ...drawn, draft: layout, draftName: name, draftCourseIds: course_ids }, busy);
      }
      const result = updateTemplate(m.db, template.id, { name, is_default: is_default || undefined, layout, course_ids });
      if (result && !result.ok)
        return json({ result: submission.reply({ fieldErrors: { [result.field]: [result.message] } }) }, { status: 400 });
      return redirectWithFlash(intent === "add-block" ? `${here}#blocks` : here, "certificates.flash.saved");
    });
}

type EditorData = Awaited<ReturnType<ReturnType<typeof templateLoader>>>;
interface PreviewReply {
  preview?: string | null;
  previewError?: string | null;
  draft?: CertificateLayout;
  draftName?: string;
  draftCourseIds?: number[];
  result?: SubmissionResult<string[]>;
  uploadErrors?: string[];
}

export function EditTemplate() {
  const { t } = useTranslation();
  const data = useLoaderData<EditorData>();
  const reply = useActionData<PreviewReply>();
  const fetcher = useFetcher<PreviewReply>();
  const layout = reply?.draft ?? data.template.layout;
  const name = reply?.draftName ?? data.template.name;
  const ticked = reply?.draftCourseIds ?? data.courseIds;
  const image = fetcher.data?.preview ?? reply?.preview ?? null;
  const previewError = fetcher.data?.previewError ?? reply?.previewError ?? null;

  return (
    <section className="certificate-editor">
      <p>
        <Link to={data.base}>← {t("certificates.templates.title")}</Link>
      </p>
      <h2>{t("certificates.editor.title", { name: data.template.name })}</h2>
      <div className="editor-grid">
        {/* A preview posted without JavaScript comes back as a draft: a new form from it. */}
        <TemplateForm
          key={JSON.stringify([layout, name, ticked])}
          data={data}
          layout={layout}
          defaultValue={templateDefaults(name, layout, ticked, data.template.isDefault)}
          lastResult={reply?.result}
          onPreview={(body) => fetcher.submit(body, { method: "post" })}
        />

        <aside className="panel preview-panel" aria-live="polite">
          <h3>{t("certificates.editor.previewTitle")}</h3>
          {previewError ? <FormMessage>{t(previewError)}</FormMessage> : null}
          {image ? (
            <img src={image} alt={t("certificates.editor.previewAlt")} className="certificate-preview" data-testid="template-preview" />
          ) : (
            <p className="muted">{fetcher.state !== "idle" ? t("certificates.editor.rendering") : t("certificates.editor.previewHelp")}</p>
          )}
          <Form method="post" encType="multipart/form-data" className="subform upload-form">
            <label htmlFor="background-upload">{t("certificates.editor.uploadBackground")}</label>
            <input id="background-upload" type="file" name="file" accept="image/png,image/jpeg,image/webp" required />
            <button type="submit">{t("certificates.editor.upload")}</button>
            <ErrorList errors={reply?.uploadErrors} />
          </Form>
        </aside>
      </div>
      <div className="panel danger-zone">
        <Link to={`${data.base}/${data.template.id}/delete`} className="button danger">
          {t("certificates.editor.delete")}
        </Link>
      </div>
    </section>
  );
}
