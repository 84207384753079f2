import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { courseLinkFormSchema, lessonFormSchema } from "~/models/forms/courses";
import { MoveButtons } from "~/components/move-buttons";
import { LessonFields, type QuizChoice } from "./organization-lesson-fields";

/**
 * What a course holds, each a panel of the course's page (app/screens/organization-courses.tsx): its lessons
 * in order, its materials (files to download) and its links.
 */

/** A remove button for one of the course's materials or links. */
function RemoveForm({ id, intent }: { id: number; intent: "remove-material" | "remove-link" }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value={intent} className="danger">
        {t("courses.remove")}
      </button>
    </Form>
  );
}

/** The course's lessons (open, move, delete) and the form that adds one. */
export function LessonsPanel({
  base,
  courseId,
  lessons,
  media,
  quizzes,
  lastResult,
}: {
  base: string;
  courseId: number;
  lessons: Array<{ id: number; title: string; kind: string }>;
  media: Array<{ id: number; name: string }>;
  quizzes: QuizChoice[];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({ id: "add-lesson", schema: lessonFormSchema, lastResult, defaultValue: { lesson_kind: "text" } });
  return (
    <div className="panel">
      <h3>{t("courses.lessons")}</h3>
      {lessons.length === 0 ? (
        <p className="empty-state">{t("courses.noLessons")}</p>
      ) : (
        <ol className="lesson-list" data-testid="lessons">
          {lessons.map((l, i) => (
            <li key={l.id} data-lesson={l.title}>
              <Link to={`${base}/${courseId}/lessons/${l.id}`}>{l.title}</Link>{" "}
              <span className="badge">{t(`courses.kinds.${l.kind}`)}</span>
              <MoveButtons intent="move-lesson" id={l.id} first={i === 0} last={i === lessons.length - 1} />
              <Form method="post" className="inline-form">
                <input type="hidden" name="id" value={l.id} />
                <button type="submit" name="intent" value="delete-lesson" className="danger">
                  {t("courses.deleteLesson")}
                </button>
              </Form>
            </li>
          ))}
        </ol>
      )}
      <Form method="post" className="subform" data-testid="add-lesson-form" {...getFormProps(form)}>
        <h4>{t("courses.addLesson")}</h4>
        <FormErrors errors={form.errors} />
        <LessonFields fields={fields} media={media} quizzes={quizzes} />
        <button type="submit" name="intent" value="add-lesson" data-testid="add-lesson">
          {t("courses.addLesson")}
        </button>
      </Form>
    </div>
  );
}

/** The course's materials (files to download beside it) and the upload that adds one. */
export function MaterialsPanel({
  materials,
  errors,
}: {
  materials: Array<{ id: number; title: string; file: string }>;
  errors: string[] | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="panel">
      <h3>{t("courses.materials")}</h3>
      {materials.length === 0 ? <p className="empty-state">{t("courses.noMaterials")}</p> : null}
      <ul className="plain-list">
        {materials.map((m) => (
          <li key={m.id}>
            {m.title} <span className="hint-inline">{m.file}</span>
            <RemoveForm id={m.id} intent="remove-material" />
          </li>
        ))}
      </ul>
      <Form method="post" encType="multipart/form-data" className="subform">
        <FormErrors errors={errors} />
        <label>
          {t("courses.materialTitle")} <input name="title" maxLength={200} />
        </label>{" "}
        <label>
          {t("courses.materialFile")} <input type="file" name="file" required data-testid="upload-file" />
        </label>{" "}
        <label>
          <input type="checkbox" name="as_material" defaultChecked /> {t("courses.asMaterial")}
        </label>{" "}
        <button type="submit" data-testid="upload-submit">
          {t("courses.upload")}
        </button>
        <p className="hint">{t("courses.uploadHint")}</p>
      </Form>
    </div>
  );
}

/** The course's links (opened in a new tab) and the form that adds one. */
export function LinksPanel({
  links,
  lastResult,
}: {
  links: Array<{ id: number; title: string; url: string }>;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({ id: "add-link", schema: courseLinkFormSchema, lastResult });
  return (
    <div className="panel">
      <h3>{t("courses.links")}</h3>
      {links.length === 0 ? <p className="empty-state">{t("courses.noLinks")}</p> : null}
      <ul className="plain-list">
        {links.map((l) => (
          <li key={l.id}>
            <a href={l.url} rel="noopener noreferrer nofollow" target="_blank">
              {l.title}
            </a>
            <RemoveForm id={l.id} intent="remove-link" />
          </li>
        ))}
      </ul>
      <Form method="post" className="subform" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <label>
          {t("courses.linkTitle")}{" "}
          <input {...controlProps(fields.link_title, "link_title")} key={fields.link_title.key} maxLength={200} required />
        </label>{" "}
        <label>
          {t("courses.linkUrl")} <input {...controlProps(fields.link_url, "link_url")} key={fields.link_url.key} type="url" required />
        </label>{" "}
        <button type="submit" name="intent" value="add-link">
          {t("courses.addLink")}
        </button>
        <ErrorList id="link_title-error" errors={fields.link_title.errors} />
        <ErrorList id="link_url-error" errors={fields.link_url.errors} />
      </Form>
    </div>
  );
}
