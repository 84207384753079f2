import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/utils/translate";
import { COURSE_TYPES } from "~/models/vocabulary";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { courseSchema } from "~/models/forms/courses";
import type { FormChoices } from "./organization-courses.server";

/** The course form's page: the choices of its selects, where the list is, and the course's values. */
export type CourseFormData = FormChoices & {
  base: string;
  values: Record<string, string | boolean | null>;
};

const CHECKS = ["published", "sequential_lessons", "block_default_access", "force_groups", "allow_certificates", "allow_quizzes"] as const;

/** The course form's values as its fields show them: numbers as text, a ticked box as "on". */
function courseDefaults(values: CourseFormData["values"]) {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "boolean" ? (v ? "on" : undefined) : (v ?? "")]));
}

/** The course form (creating and editing one), with the server's reply to it. */
export function useCourseForm(data: CourseFormData, lastResult: SubmissionResult<string[]> | undefined) {
  return useZodForm({ id: "course", schema: courseSchema, lastResult, defaultValue: courseDefaults(data.values) });
}

type CourseMeta = ReturnType<typeof useCourseForm>[1];
type FieldName = keyof CourseMeta & string;
type Input = (props: ReturnType<typeof controlProps>) => React.ReactNode;
/** One labelled field of the course form, with its error list. */
type FieldRenderer<Name extends string = FieldName> = (name: Name, label: string, input: Input) => React.ReactNode;

function fieldRenderer(fields: CourseMeta): FieldRenderer {
  return (name, label, input) => {
    const id = `course-${name}`;
    return (
      <div className="field" key={fields[name].key}>
        <label htmlFor={id}>{label}</label>
        {input(controlProps(fields[name], id))}
        <ErrorList id={`${id}-error`} errors={fields[name].errors} />
      </div>
    );
  };
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Every field of a course, in the order the form shows them. */
export function CourseFields({ data, fields }: { data: CourseFormData; fields: CourseMeta }) {
  const { t } = useTranslation();
  const field = fieldRenderer(fields);
  return (
    <>
      <AboutFields data={data} field={field} />
      <AttachedFields data={data} field={field} />
      {CHECKS.map((name) => (
        <div className="field field-check" key={name}>
          <label>
            <input type="checkbox" name={fields[name].name} defaultChecked={fields[name].initialValue === "on"} key={fields[name].key} />{" "}
            {t(`courses.fields.${camel(name)}`)}
          </label>
          <ErrorList errors={fields[name].errors} />
        </div>
      ))}
      <RecertificationFields field={field} />
    </>
  );
}

/** What the course is: its title, type, description, category and outside address. */
function AboutFields({ data, field }: { data: CourseFormData; field: FieldRenderer }) {
  const { t } = useTranslation();
  return (
    <>
      {field("title", t("courses.fields.title"), (props) => (
        <input {...props} maxLength={200} required />
      ))}
      {field("type", t("courses.fields.type"), (props) => (
        <select {...props}>
          {COURSE_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`courseType.${type}`)}
            </option>
          ))}
        </select>
      ))}
      {field("description", t("courses.fields.description"), (props) => (
        <textarea {...props} rows={5} />
      ))}
      <p className="hint">{t("courses.fields.descriptionHint")}</p>
      {field("category_id", t("courses.fields.category"), (props) => (
        <select {...props}>
          <option value="">{t("courses.fields.noCategory")}</option>
          {data.categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      ))}
      {field("external_url", t("courses.fields.externalUrl"), (props) => (
        <input {...props} type="url" />
      ))}
    </>
  );
}

/** What the course is tied to: a file, a cover picture (from the organization's files) and a prerequisite course. */
function AttachedFields({ data, field }: { data: CourseFormData; field: FieldRenderer }) {
  const { t } = useTranslation();
  return (
    <>
      {field("file_id", t("courses.fields.file"), (props) => (
        <select {...props}>
          <option value="">—</option>
          {data.documents.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      ))}
      {field("cover_file_id", t("courses.fields.cover"), (props) => (
        <select {...props}>
          <option value="">—</option>
          {data.documents
            .filter((f) => f.kind === "image")
            .map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
        </select>
      ))}
      {field("prerequisite_course_id", t("courses.fields.prerequisite"), (props) => (
        <select {...props}>
          <option value="">{t("courses.fields.noPrerequisite")}</option>
          {data.courses.items
            .filter((c) => String(c.id) !== String(data.values.id ?? ""))
            .map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
        </select>
      ))}
    </>
  );
}

/** Recertification (issue 34): how long a completion is valid, and how early its holders are assigned the course again. */
function RecertificationFields({ field }: { field: FieldRenderer<"validity_months" | "reassign_days_before"> }) {
  const { t } = useTranslation();
  return (
    <fieldset className="recertification-fieldset" data-testid="recertification-fields">
      <legend>{t("recertification.fields.legend")}</legend>
      {field("validity_months", t("recertification.fields.validityMonths"), (props) => (
        <input {...props} type="number" inputMode="numeric" min={1} max={120} step={1} placeholder={t("recertification.fields.forever")} />
      ))}
      <p className="hint">{t("recertification.fields.validityHint")}</p>
      {field("reassign_days_before", t("recertification.fields.reassignDays"), (props) => (
        <input {...props} type="number" inputMode="numeric" min={1} max={365} step={1} />
      ))}
      <p className="hint">{t("recertification.fields.reassignHint")}</p>
    </fieldset>
  );
}
