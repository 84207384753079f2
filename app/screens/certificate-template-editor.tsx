import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/utils/translate";
import { ErrorList, FormMessage } from "~/components/form";
import { courseChoices, layoutSchema, PLACEHOLDERS, templateCourseIds, updateTemplate, type CertificateBlock, type CertificateLayout } from "~/models/certificate.server";
import { renderPreviewPng } from "~/models/certificate-render.server";
import { listFiles } from "~/models/file.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { checkbox, text } from "~/utils/form-data.server";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { languageFor } from "~/utils/preferences.server";
import { handleUpload } from "~/kernel/upload.server";
import { templateFrom, templatesBase } from "./certificate-templates";

/**
 * One certificate template's editor: page, background (from the file library, or uploaded here), logo,
 * QR code, text blocks with placeholders, the courses that use it, and a preview of it filled with sample
 * data. Without JavaScript the Preview button posts the form and the page comes back with the image;
 * with JavaScript the preview follows the form as it changes.
 */
const CAPABILITY = "write:certificate-template" as const;
const MAX_BLOCKS = 20;

type Errors = Record<string, string[]>;

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

/** The posted form as a layout: existing blocks (unless removed) and the new one, if filled in. */
function formLayout(formData: FormData) {
  const count = Math.min(MAX_BLOCKS + 1, Math.max(0, Number(text(formData, "block_count")) || 0));
  const blocks: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const f = (name: string) => text(formData, `block_${i}_${name}`);
    if (checkbox(formData, `block_${i}_remove`) || !(f("text") ?? "").trim()) continue;
    blocks.push({
      text: f("text") ?? "",
      x: f("x") ?? "",
      y: f("y") ?? "",
      width: f("width") ?? "",
      size: f("size") ?? "",
      align: f("align") ?? "center",
      bold: checkbox(formData, `block_${i}_bold`),
      color: f("color") ?? "#1f2937",
    });
  }
  const background = text(formData, "background_file_id") ?? "";
  return layoutSchema.safeParse({
    pageSize: text(formData, "page_size") ?? "a4",
    orientation: text(formData, "orientation") ?? "landscape",
    backgroundFileId: background === "" ? null : Number(background),
    showLogo: checkbox(formData, "show_logo"),
    showQr: checkbox(formData, "show_qr"),
    blocks,
  });
}

function layoutErrors(issues: Array<{ path: (string | number)[]; message: string }>): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const key = issue.path[0] === "blocks" ? `block_${issue.path[1]}` : String(issue.path[0] ?? "layout");
    (errors[key] ??= []).push(issue.message.startsWith("certificates.") || issue.message.startsWith("validation.") ? issue.message : "validation.invalid");
  }
  return errors;
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
  if ("failure" in drawn) return { preview: null, previewError: drawn.failure.message };
  return { preview: `data:image/png;base64,${drawn.png.toString("base64")}`, previewError: null };
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
    ({ status, message }) => json({ errors: { upload: [message] } as Errors }, { status }),
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
      const formData = await request.formData();
      const intent = text(formData, "intent") ?? "save";
      const parsed = formLayout(formData);
      if (!parsed.success) return json({ errors: layoutErrors(parsed.error.issues) }, { status: 400 });
      const name = (text(formData, "name") ?? "").trim();
      const courseIds = formData.getAll("course_id").map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
      if (intent === "preview") {
        // The page comes back with the preview and the form as it was posted (nothing is saved).
        return json({ ...(await preview(request, context, m, parsed.data)), draft: parsed.data, draftName: name, draftCourseIds: courseIds, errors: {} as Errors });
      }
      if (!name || name.length > 200) return json({ errors: { name: ["validation.required"] } as Errors }, { status: 400 });
      const result = updateTemplate(m.db, template.id, { name, is_default: checkbox(formData, "is_default") || undefined, layout: parsed.data, course_ids: courseIds });
      if (result && !result.ok) return json({ errors: { [result.field]: [result.message] } as Errors }, { status: 400 });
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
  errors?: Errors;
}

export function EditTemplate() {
  const { t } = useTranslation();
  const data = useLoaderData<EditorData>();
  const reply = useActionData<PreviewReply>();
  const fetcher = useFetcher<PreviewReply>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const errors = reply?.errors ?? {};
  const layout = reply?.draft ?? data.template.layout;
  const name = reply?.draftName ?? data.template.name;
  const ticked = reply?.draftCourseIds ?? data.courseIds;
  const image = fetcher.data?.preview ?? reply?.preview ?? null;
  const previewError = fetcher.data?.previewError ?? reply?.previewError ?? null;
  const blocks: Array<CertificateBlock | null> = [...layout.blocks, ...(layout.blocks.length < MAX_BLOCKS ? [null] : [])];

  // With JavaScript: a preview on open and after each change (debounced), without leaving the page.
  const refresh = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const body = new FormData(formRef.current);
      body.set("intent", "preview");
      fetcher.submit(body, { method: "post" });
    }, 700);
  };
  useEffect(() => {
    refresh();
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className="certificate-editor">
      <p>
        <Link to={data.base}>← {t("certificates.templates.title")}</Link>
      </p>
      <h2>{t("certificates.editor.title", { name: data.template.name })}</h2>
      <div className="editor-grid">
        <Form method="post" className="panel editor-form" ref={formRef} onChange={refresh} key={JSON.stringify([layout, name, ticked])}>
          <input type="hidden" name="block_count" value={blocks.length} />
          <div className="field">
            <label htmlFor="template-name">{t("certificates.templates.name")}</label>
            <input id="template-name" name="name" defaultValue={name} maxLength={200} required />
            <ErrorList errors={errors.name} />
          </div>
          <div className="field-row">
            <div className="field">
              <label htmlFor="page-size">{t("certificates.editor.pageSize")}</label>
              <select id="page-size" name="page_size" defaultValue={layout.pageSize}>
                <option value="a4">{t("certificates.pageSize.a4")}</option>
                <option value="letter">{t("certificates.pageSize.letter")}</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="orientation">{t("certificates.editor.orientation")}</label>
              <select id="orientation" name="orientation" defaultValue={layout.orientation}>
                <option value="landscape">{t("certificates.orientation.landscape")}</option>
                <option value="portrait">{t("certificates.orientation.portrait")}</option>
              </select>
            </div>
          </div>
          <div className="field">
            <label htmlFor="background">{t("certificates.editor.background")}</label>
            <select id="background" name="background_file_id" defaultValue={layout.backgroundFileId ?? ""}>
              <option value="">{t("certificates.editor.noBackground")}</option>
              {data.images.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
            <ErrorList errors={errors.background_file_id ?? errors.backgroundFileId} />
          </div>
          <div className="field field-check">
            <label>
              <input type="checkbox" name="show_logo" defaultChecked={layout.showLogo} /> {t("certificates.editor.showLogo")}
            </label>
          </div>
          <div className="field field-check">
            <label>
              <input type="checkbox" name="show_qr" defaultChecked={layout.showQr} /> {t("certificates.editor.showQr")}
            </label>
          </div>
          <div className="field field-check">
            <label>
              <input type="checkbox" name="is_default" defaultChecked={data.template.isDefault} disabled={data.template.isDefault} /> {t("certificates.editor.isDefault")}
            </label>
          </div>

          <h3 id="blocks">{t("certificates.editor.blocks")}</h3>
          <p className="muted">
            {t("certificates.editor.placeholders")}{" "}
            {data.placeholders.map((p) => (
              <code key={p} className="placeholder">{`{${p}}`}</code>
            ))}
          </p>
          <ol className="block-list">
            {blocks.map((b, i) => (
              <BlockFields key={i} index={i} block={b} errors={errors[`block_${i}`]} />
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
                    <input type="checkbox" name="course_id" value={c.id} defaultChecked={ticked.includes(c.id)} /> {c.title}
                    {c.allowCertificates ? null : <span className="muted"> · {t("certificates.editor.certificatesOff")}</span>}
                  </label>
                </li>
              ))}
            </ul>
            <ErrorList errors={errors.course_ids} />
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
            <ErrorList errors={errors.upload} />
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

function BlockFields({ index, block, errors }: { index: number; block: CertificateBlock | null; errors?: string[] }) {
  const { t } = useTranslation();
  const n = (name: string) => `block_${index}_${name}`;
  const b = block ?? { text: "", x: 10, y: 80, width: 80, size: 14, align: "center" as const, bold: false, color: "#1f2937" };
  return (
    <li className={block ? "block-fields" : "block-fields new-block"}>
      <div className="field">
        <label htmlFor={n("text")}>{block ? t("certificates.editor.blockText", { n: index + 1 }) : t("certificates.editor.newBlock")}</label>
        <textarea id={n("text")} name={n("text")} defaultValue={b.text} rows={1} maxLength={500} />
      </div>
      <div className="field-row compact">
        {(["x", "y", "width"] as const).map((k) => (
          <label key={k}>
            {t(`certificates.editor.${k}`)}
            <input type="number" name={n(k)} defaultValue={b[k]} min={k === "width" ? 5 : 0} max={100} step="0.5" />
          </label>
        ))}
        <label>
          {t("certificates.editor.size")}
          <input type="number" name={n("size")} defaultValue={b.size} min={6} max={96} />
        </label>
        <label>
          {t("certificates.editor.align")}
          <select name={n("align")} defaultValue={b.align}>
            <option value="left">{t("certificates.align.left")}</option>
            <option value="center">{t("certificates.align.center")}</option>
            <option value="right">{t("certificates.align.right")}</option>
          </select>
        </label>
        <label>
          {t("certificates.editor.color")}
          <input type="color" name={n("color")} defaultValue={b.color} />
        </label>
        <label className="inline-check">
          <input type="checkbox" name={n("bold")} defaultChecked={b.bold} /> {t("certificates.editor.bold")}
        </label>
        {block ? (
          <label className="inline-check">
            <input type="checkbox" name={n("remove")} /> {t("certificates.editor.remove")}
          </label>
        ) : null}
      </div>
      <ErrorList errors={errors} />
    </li>
  );
}
