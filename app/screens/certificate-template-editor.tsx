import { getFormProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, FormErrors, FormMessage, useZodForm } from "~/components/form";
import { MAX_BLOCKS, templateFormSchema } from "~/models/forms/certificates";
import { parseForm } from "~/utils/form";
import {
  courseChoices,
  PLACEHOLDERS,
  templateCourseIds,
  updateTemplate,
  type CertificateBlock,
  type CertificateLayout,
} from "~/models/certificate.server";
import { renderPreviewPng } from "~/models/certificate-render.server";
import { listFiles } from "~/models/file.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { languageFor } from "~/utils/preferences.server";
import { handleUpload } from "~/kernel/upload.server";
import { templateFrom, templatesBase } from "./certificate-templates";
import { readForm } from "~/utils/form-data.server";

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

/** The form's values of a layout: the blocks in slots (and an empty one for a new block), ticks as "on". */
function templateDefaults(name: string, layout: CertificateLayout, ticked: number[], isDefault: boolean) {
  const blocks: Array<CertificateBlock | null> = [...layout.blocks, ...(layout.blocks.length < MAX_BLOCKS ? [null] : [])];
  const on = (b: boolean) => (b ? "on" : undefined);
  const slots = blocks.map((block, i) => {
    const b = block ?? NEW_BLOCK;
    const n = (part: string) => `block_${i}_${part}`;
    return {
      [n("text")]: b.text,
      [n("x")]: String(b.x),
      [n("y")]: String(b.y),
      [n("width")]: String(b.width),
      [n("size")]: String(b.size),
      [n("align")]: b.align,
      [n("color")]: b.color,
      [n("bold")]: on(b.bold),
    };
  });
  return Object.assign(
    {
      name,
      page_size: layout.pageSize,
      orientation: layout.orientation,
      background_file_id: layout.backgroundFileId ? String(layout.backgroundFileId) : "",
      show_logo: on(layout.showLogo),
      show_qr: on(layout.showQr),
      is_default: on(isDefault),
      course_id: ticked.map(String),
      block_count: String(blocks.length),
    },
    ...slots,
  );
}

const NEW_BLOCK: CertificateBlock = { text: "", x: 10, y: 80, width: 80, size: 14, align: "center", bold: false, color: "#1f2937" };

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

function TemplateForm({
  data,
  layout,
  defaultValue,
  lastResult,
  onPreview,
}: {
  data: EditorData;
  layout: CertificateLayout;
  defaultValue: Record<string, unknown>;
  lastResult?: SubmissionResult<string[]>;
  onPreview: (body: FormData) => void;
}) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({ id: "template", schema: templateFormSchema, lastResult, defaultValue });
  const field = (name: string) => fields[name as keyof typeof fields];
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const checked = (name: string) => field(name).initialValue === "on";
  const courseIds = [field("course_id").initialValue ?? []].flat().map(String);
  const slots = Math.min(MAX_BLOCKS + 1, Math.max(0, Number(fields.block_count.initialValue) || 0));

  // With JavaScript: a preview on open and after each change (debounced), without leaving the page.
  const refresh = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const body = new FormData(formRef.current);
      body.set("intent", "preview");
      onPreview(body);
    }, 700);
  };
  useEffect(() => {
    refresh();
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Form method="post" className="panel editor-form" ref={formRef} onChange={refresh} {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <input type="hidden" name="block_count" value={slots} />
      <ErrorList errors={fields.block_count.errors} />
      <div className="field">
        <label htmlFor="template-name">{t("certificates.templates.name")}</label>
        <input {...controlProps(fields.name, "template-name")} key={fields.name.key} maxLength={200} required />
        <ErrorList id="template-name-error" errors={fields.name.errors} />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="page-size">{t("certificates.editor.pageSize")}</label>
          <select {...controlProps(fields.page_size, "page-size")} key={fields.page_size.key}>
            <option value="a4">{t("certificates.pageSize.a4")}</option>
            <option value="letter">{t("certificates.pageSize.letter")}</option>
          </select>
          <ErrorList id="page-size-error" errors={fields.page_size.errors} />
        </div>
        <div className="field">
          <label htmlFor="orientation">{t("certificates.editor.orientation")}</label>
          <select {...controlProps(fields.orientation, "orientation")} key={fields.orientation.key}>
            <option value="landscape">{t("certificates.orientation.landscape")}</option>
            <option value="portrait">{t("certificates.orientation.portrait")}</option>
          </select>
          <ErrorList id="orientation-error" errors={fields.orientation.errors} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="background">{t("certificates.editor.background")}</label>
        <select {...controlProps(fields.background_file_id, "background")} key={fields.background_file_id.key}>
          <option value="">{t("certificates.editor.noBackground")}</option>
          {data.images.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        <ErrorList id="background-error" errors={fields.background_file_id.errors} />
      </div>
      <div className="field field-check">
        <label>
          <input type="checkbox" name="show_logo" defaultChecked={checked("show_logo")} key={fields.show_logo.key} />{" "}
          {t("certificates.editor.showLogo")}
        </label>
      </div>
      <div className="field field-check">
        <label>
          <input type="checkbox" name="show_qr" defaultChecked={checked("show_qr")} key={fields.show_qr.key} />{" "}
          {t("certificates.editor.showQr")}
        </label>
      </div>
      <div className="field field-check">
        <label>
          <input
            type="checkbox"
            name="is_default"
            defaultChecked={data.template.isDefault || checked("is_default")}
            disabled={data.template.isDefault}
            key={fields.is_default.key}
          />{" "}
          {t("certificates.editor.isDefault")}
        </label>
      </div>

      <h3 id="blocks">{t("certificates.editor.blocks")}</h3>
      <p className="muted">
        {t("certificates.editor.placeholders")}{" "}
        {data.placeholders.map((p) => (
          <code key={p} className="placeholder">{`{${p}}`}</code>
        ))}
      </p>
      <p className="muted">{t("recertification.editor.expiryHint")}</p>
      <ol className="block-list">
        {Array.from({ length: slots }, (_, i) => (
          <BlockFields key={i} index={i} isNew={i >= layout.blocks.length} field={field} />
        ))}
      </ol>

      <fieldset className="field">
        <legend>{t("certificates.editor.courses")}</legend>
        <p className="muted">{t("certificates.editor.coursesHelp")}</p>
        {data.courses.length === 0 ? <p className="empty-state">{t("certificates.editor.noCourses")}</p> : null}
        <ul className="check-list">
          {data.courses.map((c) => (
            <li key={c.id}>
              <label>
                <input
                  type="checkbox"
                  name="course_id"
                  value={c.id}
                  defaultChecked={courseIds.includes(String(c.id))}
                  key={`${fields.course_id.key}-${c.id}`}
                />{" "}
                {c.title}
                {c.allowCertificates ? null : <span className="muted"> · {t("certificates.editor.certificatesOff")}</span>}
              </label>
            </li>
          ))}
        </ul>
        <ErrorList errors={field("course_ids").errors ?? fields.course_id.errors} />
      </fieldset>

      <div className="form-actions">
        <button type="submit" name="intent" value="save" className="primary" data-testid="save-template">
          {t("certificates.editor.save")}
        </button>
        <button type="submit" name="intent" value="preview" data-testid="preview-template">
          {t("certificates.editor.preview")}
        </button>
      </div>
    </Form>
  );
}

type SlotField = (name: string) => FieldMetadata<unknown>;

function BlockFields({ index, isNew, field }: { index: number; isNew: boolean; field: SlotField }) {
  const { t } = useTranslation();
  const n = (name: string) => `block_${index}_${name}`;
  const value = (name: string) => String(field(n(name)).initialValue ?? "");
  const props = (name: string) => ({ name: n(name), defaultValue: value(name), key: field(n(name)).key });
  const { key: textKey, ...text } = props("text");
  return (
    <li className={isNew ? "block-fields new-block" : "block-fields"}>
      <div className="field">
        <label htmlFor={n("text")}>
          {isNew ? t("certificates.editor.newBlock") : t("certificates.editor.blockText", { n: index + 1 })}
        </label>
        <textarea id={n("text")} {...text} key={textKey} rows={1} maxLength={500} />
      </div>
      <div className="field-row compact">
        {(["x", "y", "width"] as const).map((k) => {
          const { key, ...rest } = props(k);
          return (
            <label key={k}>
              {t(`certificates.editor.${k}`)}
              <input type="number" {...rest} key={key} min={k === "width" ? 5 : 0} max={100} step="0.5" />
            </label>
          );
        })}
        <label>
          {t("certificates.editor.size")}
          <input type="number" name={n("size")} defaultValue={value("size")} key={field(n("size")).key} min={6} max={96} />
        </label>
        <label>
          {t("certificates.editor.align")}
          <select name={n("align")} defaultValue={value("align") || "center"} key={field(n("align")).key}>
            <option value="left">{t("certificates.align.left")}</option>
            <option value="center">{t("certificates.align.center")}</option>
            <option value="right">{t("certificates.align.right")}</option>
          </select>
        </label>
        <label>
          {t("certificates.editor.color")}
          <input type="color" name={n("color")} defaultValue={value("color") || "#1f2937"} key={field(n("color")).key} />
        </label>
        <label className="inline-check">
          <input type="checkbox" name={n("bold")} defaultChecked={value("bold") === "on"} key={field(n("bold")).key} />{" "}
          {t("certificates.editor.bold")}
        </label>
        {isNew ? null : (
          <label className="inline-check">
            <input type="checkbox" name={n("remove")} defaultChecked={value("remove") === "on"} key={field(n("remove")).key} />{" "}
            {t("certificates.editor.remove")}
          </label>
        )}
      </div>
      <ErrorList errors={field(`block_${index}`).errors} />
    </li>
  );
}
