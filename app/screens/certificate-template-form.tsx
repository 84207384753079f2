import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { MAX_BLOCKS, templateFormSchema } from "~/models/forms/certificates";
import type { CertificateLayout } from "~/models/certificate-templates.server";
import { BlockFields, type SlotField } from "./certificate-block-fields";

/** What the template form offers to choose from (the editor's loader gives it). */
export interface TemplateChoices {
  template: { isDefault: boolean };
  images: Array<{ id: number; name: string }>;
  placeholders: string[];
  courses: Array<{ id: number; title: string; allowCertificates: boolean }>;
}

type TemplateFields = ReturnType<typeof useZodForm<typeof templateFormSchema>>[1];

/**
 * With JavaScript: a preview on open and after each change (debounced, 0.7 s), without leaving the page. The
 * form's own fields are posted with `intent=preview`.
 */
function usePreviewOnChange(onPreview: (body: FormData) => void) {
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
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
  return { formRef, refresh };
}

/** The template's settings, blocks and courses; saved, or posted for a preview. */
export function TemplateForm({
  data,
  layout,
  defaultValue,
  lastResult,
  onPreview,
}: {
  data: TemplateChoices;
  layout: CertificateLayout;
  defaultValue: Record<string, unknown>;
  lastResult?: SubmissionResult<string[]>;
  onPreview: (body: FormData) => void;
}) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({ id: "template", schema: templateFormSchema, lastResult, defaultValue });
  const field: SlotField = (name) => fields[name as keyof typeof fields];
  const { formRef, refresh } = usePreviewOnChange(onPreview);
  const slots = Math.min(MAX_BLOCKS + 1, Math.max(0, Number(fields.block_count.initialValue) || 0));
  return (
    <Form method="post" className="panel editor-form" ref={formRef} onChange={refresh} {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <input type="hidden" name="block_count" value={slots} />
      <ErrorList errors={fields.block_count.errors} />
      <PageFields fields={fields} images={data.images} />
      <MarkChecks fields={fields} field={field} isDefault={data.template.isDefault} />

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

      <CourseChecks fields={fields} field={field} courses={data.courses} />

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

/** The template's name, page size and orientation, and its background picture. */
function PageFields({ fields, images }: { fields: TemplateFields; images: TemplateChoices["images"] }) {
  const { t } = useTranslation();
  return (
    <>
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
          {images.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        <ErrorList id="background-error" errors={fields.background_file_id.errors} />
      </div>
    </>
  );
}

/** The logo, the QR code, and whether this is the organization's default template (the default stays so). */
function MarkChecks({ fields, field, isDefault }: { fields: TemplateFields; field: SlotField; isDefault: boolean }) {
  const { t } = useTranslation();
  const checked = (name: string) => field(name).initialValue === "on";
  return (
    <>
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
            defaultChecked={isDefault || checked("is_default")}
            disabled={isDefault}
            key={fields.is_default.key}
          />{" "}
          {t("certificates.editor.isDefault")}
        </label>
      </div>
    </>
  );
}

/** The courses that issue with this template (a course whose certificates are off is marked). */
function CourseChecks({ fields, field, courses }: { fields: TemplateFields; field: SlotField; courses: TemplateChoices["courses"] }) {
  const { t } = useTranslation();
  const courseIds = [field("course_id").initialValue ?? []].flat().map(String);
  return (
    <fieldset className="field">
      <legend>{t("certificates.editor.courses")}</legend>
      <p className="muted">{t("certificates.editor.coursesHelp")}</p>
      {courses.length === 0 ? <p className="empty-state">{t("certificates.editor.noCourses")}</p> : null}
      <ul className="check-list">
        {courses.map((c) => (
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
  );
}
