import { Form } from "@remix-run/react";
import { CoverField } from "~/components/cover-field";
import { ErrorList } from "~/components/form";
import type { PathEditorData } from "~/screens/organization-paths.server";
import { useTranslation } from "~/utils/translate";

type Errors = Record<string, string[] | null | undefined> | undefined;

/** A select of some rows by id, with "none" first. */
function Choice({
  id,
  name,
  label,
  value,
  options,
  errors,
}: {
  id: string;
  name: string;
  label: string;
  value: number | null;
  options: Array<{ id: number; name: string }>;
  errors?: string[] | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ""} aria-invalid={errors?.length ? true : undefined}>
        <option value="">{t("paths.admin.none")}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** A whole number with its bounds, a hint under it and the server's message. */
function NumberField({
  id,
  name,
  label,
  hint,
  range: [min, max],
  value,
  errors,
}: {
  id: string;
  name: string;
  label: string;
  hint: string;
  range: [number, number];
  value: number | "";
  errors?: string[] | null;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="number" min={min} max={max} defaultValue={value} aria-describedby={`${id}-hint`} />
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}

function Check({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <div className="field checkbox">
      <label>
        <input type="checkbox" name={name} defaultChecked={checked} /> {label}
      </label>
    </div>
  );
}

/**
 * A learning path's own fields (issue 49): what learners read, who sees it and may enrol, and what finishing it
 * gives. One plain form; the server's messages come back beside each field.
 */
export function PathFieldsForm({ data, errors }: { data: PathEditorData; errors: Errors }) {
  const { t } = useTranslation();
  const { path } = data;
  return (
    <Form method="post" className="panel" aria-labelledby="path-fields-title">
      <h3 id="path-fields-title">{t("paths.admin.fields")}</h3>
      <div className="field">
        <label htmlFor="path-title">{t("paths.admin.title")}</label>
        <input
          id="path-title"
          name="title"
          defaultValue={path.title}
          maxLength={200}
          required
          aria-invalid={errors?.title ? true : undefined}
        />
        <ErrorList id="path-title-error" errors={errors?.title} />
      </div>
      <div className="field">
        <label htmlFor="path-description">{t("paths.admin.description")}</label>
        <textarea id="path-description" name="description" defaultValue={path.description} rows={4} maxLength={20_000} />
      </div>
      <CoverField id="path-cover" value={path.coverFileId} preview={data.preview} images={data.images} errors={errors?.cover_file_id} />
      <Choice
        id="path-category"
        name="category_id"
        label={t("paths.admin.category")}
        value={path.categoryId}
        options={data.categories}
        errors={errors?.category_id}
      />
      <fieldset className="field-group">
        <legend>{t("paths.admin.access")}</legend>
        <Check name="published" label={t("paths.admin.published")} checked={path.published} />
        <Check name="self_enrol" label={t("paths.admin.selfEnrol")} checked={path.selfEnrol} />
        <Check name="block_default_access" label={t("paths.admin.blocked")} checked={path.blockDefaultAccess} />
      </fieldset>
      <fieldset className="field-group">
        <legend>{t("paths.admin.rewards")}</legend>
        <Check name="allow_certificates" label={t("paths.admin.certificates")} checked={path.allowCertificates} />
        <Choice
          id="path-template"
          name="certificate_template_id"
          label={t("paths.admin.template")}
          value={path.certificateTemplateId}
          options={data.templates}
          errors={errors?.certificate_template_id}
        />
        <NumberField
          id="path-points"
          name="points"
          label={t("paths.admin.points")}
          hint={t("paths.admin.pointsHint")}
          range={[0, 10_000]}
          value={path.points}
          errors={errors?.points}
        />
        <Choice
          id="path-badge"
          name="badge_id"
          label={t("paths.admin.badge")}
          value={path.badgeId}
          options={data.badges}
          errors={errors?.badge_id}
        />
        <NumberField
          id="path-validity"
          name="validity_months"
          label={t("paths.admin.validity")}
          hint={t("paths.admin.validityHint")}
          range={[1, 120]}
          value={path.validityMonths ?? ""}
          errors={errors?.validity_months}
        />
        <NumberField
          id="path-reassign"
          name="reassign_days_before"
          label={t("recertification.fields.reassignDays")}
          hint={t("recertification.fields.reassignHint")}
          range={[1, 365]}
          value={path.reassignDaysBefore}
          errors={errors?.reassign_days_before}
        />
      </fieldset>
      <button type="submit" name="intent" value="save" className="primary" data-testid="save-path">
        {t("paths.admin.save")}
      </button>
    </Form>
  );
}
