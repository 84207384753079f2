import { Form } from "@remix-run/react";
import { ErrorList } from "~/components/form";
import type { PathEditorData } from "~/screens/organization-paths.server";
import { useTranslation } from "~/utils/translate";

type Step = PathEditorData["steps"][number];
type Errors = Record<string, string[] | null | undefined> | undefined;

/** A step's fields: its kind, a choice's title, its courses (a list box: several with Ctrl or Shift), how many, the delay. */
function StepFields({
  prefix,
  step,
  courses,
  errors,
}: {
  prefix: string;
  step?: Step;
  courses: PathEditorData["courses"];
  errors: Errors;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-kind`}>{t("paths.admin.kind")}</label>
        <select id={`${prefix}-kind`} name="kind" defaultValue={step?.kind ?? "course"}>
          <option value="course">{t("paths.admin.kinds.course")}</option>
          <option value="choice">{t("paths.admin.kinds.choice")}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-title`}>{t("paths.admin.stepTitle")}</label>
        <input id={`${prefix}-title`} name="title" defaultValue={step?.title ?? ""} maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-courses`}>{t("paths.admin.stepCourses")}</label>
        <select
          id={`${prefix}-courses`}
          name="course_ids"
          multiple
          size={Math.min(8, Math.max(3, courses.length))}
          defaultValue={(step?.course_ids ?? []).map(String)}
          aria-describedby={`${prefix}-courses-hint`}
          aria-invalid={errors?.course_ids ? true : undefined}
          required
        >
          {courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.published ? c.title : t("paths.admin.draft", { title: c.title })}
            </option>
          ))}
        </select>
        <p className="hint" id={`${prefix}-courses-hint`}>
          {t("paths.admin.stepCoursesHint")}
        </p>
        <ErrorList id={`${prefix}-courses-error`} errors={errors?.course_ids} />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${prefix}-required`}>{t("paths.admin.required")}</label>
          <input id={`${prefix}-required`} name="required" type="number" min={1} max={50} defaultValue={step?.required ?? 1} />
          <ErrorList id={`${prefix}-required-error`} errors={errors?.required} />
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-delay`}>{t("paths.admin.delay")}</label>
          <input id={`${prefix}-delay`} name="delay_days" type="number" min={0} max={365} defaultValue={step?.delay_days ?? 0} />
          <ErrorList id={`${prefix}-delay-error`} errors={errors?.delay_days} />
        </div>
      </div>
    </>
  );
}

/** What a step asks for, in one line. */
function stepSummary(step: Step, t: ReturnType<typeof useTranslation>["t"]) {
  const ask = step.kind === "choice" ? t("paths.choose", { required: step.required, count: step.courses.length }) : null;
  const delay = step.delay_days > 0 ? t("paths.admin.delaySummary", { count: step.delay_days }) : null;
  return [step.title, ask, delay].filter(Boolean).join(" · ");
}

/**
 * A path's steps on the editor (issue 49): each with its courses, moved up or down, removed, or changed in place
 * (its form behind a disclosure), and a form to add one. Every change is one plain form post: it works without
 * JavaScript and with the keyboard alone.
 */
export function PathStepsEditor({
  data,
  failed,
}: {
  data: PathEditorData;
  failed: { form: string; index?: number; errors: Errors } | null;
}) {
  const { t } = useTranslation();
  const { steps, courses } = data;
  return (
    <section className="panel" id="steps" aria-labelledby="path-steps-admin">
      <h3 id="path-steps-admin">{t("paths.stepsTitle")}</h3>
      {steps.length === 0 ? <p className="empty-state">{t("paths.admin.noSteps")}</p> : null}
      <ol className="path-admin-steps" data-testid="path-admin-steps">
        {steps.map((step, index) => (
          <li key={`${index}-${step.course_ids.join(",")}`} data-step={index + 1}>
            <div className="path-admin-step-head">
              <strong>{t("paths.stepNumber", { number: index + 1 })}</strong>
              <span>{stepSummary(step, t)}</span>
              <span className="actions">
                <Form method="post" className="inline-form">
                  <input type="hidden" name="index" value={index} />
                  <input type="hidden" name="direction" value="up" />
                  <button
                    type="submit"
                    name="intent"
                    value="move-step"
                    disabled={index === 0}
                    aria-label={t("paths.admin.moveUp", { number: index + 1 })}
                  >
                    ↑
                  </button>
                </Form>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="index" value={index} />
                  <input type="hidden" name="direction" value="down" />
                  <button
                    type="submit"
                    name="intent"
                    value="move-step"
                    disabled={index === steps.length - 1}
                    aria-label={t("paths.admin.moveDown", { number: index + 1 })}
                  >
                    ↓
                  </button>
                </Form>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="index" value={index} />
                  <button
                    type="submit"
                    name="intent"
                    value="remove-step"
                    className="danger"
                    aria-label={t("paths.admin.remove", { number: index + 1 })}
                  >
                    {t("paths.admin.removeShort")}
                  </button>
                </Form>
              </span>
            </div>
            <ul className="path-admin-courses">
              {step.courses.map((c) => (
                <li key={c.id}>{c.published ? c.title : t("paths.admin.draft", { title: c.title })}</li>
              ))}
            </ul>
            <details open={failed?.form === "update-step" && failed.index === index}>
              <summary>{t("paths.admin.editStep", { number: index + 1 })}</summary>
              <Form method="post">
                <input type="hidden" name="index" value={index} />
                <StepFields
                  prefix={`step-${index}`}
                  step={step}
                  courses={courses}
                  errors={failed?.form === "update-step" && failed.index === index ? failed.errors : undefined}
                />
                <button type="submit" name="intent" value="update-step">
                  {t("paths.admin.saveStep")}
                </button>
              </Form>
            </details>
          </li>
        ))}
      </ol>
      <Form method="post" className="path-admin-add" aria-labelledby="path-add-step">
        <h4 id="path-add-step">{t("paths.admin.addStep")}</h4>
        <StepFields prefix="new-step" courses={courses} errors={failed?.form === "add-step" ? failed.errors : undefined} />
        <button type="submit" name="intent" value="add-step" className="primary" data-testid="add-step">
          {t("paths.admin.addStep")}
        </button>
      </Form>
    </section>
  );
}
