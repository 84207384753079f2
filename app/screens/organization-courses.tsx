import { getFormProps, type SubmissionResult } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { COURSE_TYPES, LESSON_KINDS } from "~/models/vocabulary";
import { ConfirmDelete } from "~/components/confirm-delete";
import { controlProps, ErrorList, FormErrors, FormMessage, useZodForm } from "~/components/form";
import { courseLinkFormSchema, courseSchema, lessonFormSchema } from "~/models/forms/courses";
import { MoveButtons } from "~/components/move-buttons";
import type { CoursePageReply, FormChoices } from "./organization-courses.server";

/**
 * Course authoring screens (docs/product.md §2 courses tabs, create and detail pages), built once for /admin and
 * /dashboard. Their loaders and actions live in organization-courses.server.ts: nothing here touches a
 * server module's values, because in the browser those modules are empty.
 */

export function CoursesList() {
  const { t } = useTranslation();
  const { base, courses } = useLoaderData<{
    base: string;
    courses: Array<{ id: number; title: string; type: string; published: boolean }>;
  }>();
  return (
    <section>
      <div className="toolbar">
        <h2>{t("courses.title")}</h2>
        <Link to={`${base}/create`} className="button primary" data-testid="create-course">
          {t("courses.create")}
        </Link>
      </div>
      {courses.length === 0 ? (
        <p className="empty-state">{t("courses.empty")}</p>
      ) : (
        <table className="table" data-testid="courses">
          <tbody>
            {courses.map((c, i) => (
              <tr key={c.id} data-course={c.title}>
                <td>
                  <Link to={`${base}/${c.id}`}>{c.title}</Link>
                </td>
                <td>{t(`courseType.${c.type}`)}</td>
                <td>
                  {c.published ? (
                    <span className="badge published">{t("courses.published")}</span>
                  ) : (
                    <span className="badge">{t("courses.draft")}</span>
                  )}
                </td>
                <td className="actions">
                  <MoveButtons id={c.id} first={i === 0} last={i === courses.length - 1} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

// ——— create and edit ———

type CourseFormData = FormChoices & {
  base: string;
  values: Record<string, string | boolean | null>;
};

const CHECKS = ["published", "sequential_lessons", "block_default_access", "force_groups", "allow_certificates", "allow_quizzes"] as const;

/** The course form's values as its fields show them: numbers as text, a ticked box as "on". */
function courseDefaults(values: CourseFormData["values"]) {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "boolean" ? (v ? "on" : undefined) : (v ?? "")]));
}

function useCourseForm(data: CourseFormData, lastResult: SubmissionResult<string[]> | undefined) {
  return useZodForm({ id: "course", schema: courseSchema, lastResult, defaultValue: courseDefaults(data.values) });
}

type CourseMeta = ReturnType<typeof useCourseForm>[1];

function CourseFields({ data, fields }: { data: CourseFormData; fields: CourseMeta }) {
  const { t } = useTranslation();
  const field = (name: keyof CourseMeta & string, label: string, input: (props: ReturnType<typeof controlProps>) => React.ReactNode) => {
    const id = `course-${name}`;
    return (
      <div className="field" key={fields[name].key}>
        <label htmlFor={id}>{label}</label>
        {input(controlProps(fields[name], id))}
        <ErrorList id={`${id}-error`} errors={fields[name].errors} />
      </div>
    );
  };
  const check = (name: (typeof CHECKS)[number]) => (
    <div className="field field-check" key={name}>
      <label>
        <input type="checkbox" name={fields[name].name} defaultChecked={fields[name].initialValue === "on"} key={fields[name].key} />{" "}
        {t(`courses.fields.${camel(name)}`)}
      </label>
      <ErrorList errors={fields[name].errors} />
    </div>
  );
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
      {CHECKS.map(check)}
      <RecertificationFields field={field} />
    </>
  );
}

/** Recertification (issue 34): how long a completion is valid, and how early its holders are assigned the course again. */
function RecertificationFields({
  field,
}: {
  field: (
    name: "validity_months" | "reassign_days_before",
    label: string,
    input: (props: ReturnType<typeof controlProps>) => React.ReactNode,
  ) => React.ReactNode;
}) {
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

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export function CreateCourse() {
  const { t } = useTranslation();
  const data = useLoaderData<CourseFormData>();
  const [form, fields] = useCourseForm(data, useActionData<SubmissionResult<string[]>>());
  return (
    <section>
      <h2>{t("courses.create")}</h2>
      <Form method="post" className="panel" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <CourseFields data={data} fields={fields} />
        <button type="submit" className="primary" data-testid="save-course">
          {t("courses.save")}
        </button>{" "}
        <Link to={data.base}>{t("confirm.cancel")}</Link>
      </Form>
    </section>
  );
}

export function EditCourse() {
  const { t } = useTranslation();
  const data = useLoaderData<
    CourseFormData & {
      course: { id: number; title: string; published: boolean; type: string };
      lessons: Array<{ id: number; title: string; kind: string }>;
      materials: Array<{ id: number; title: string; file: string }>;
      links: Array<{ id: number; title: string; url: string }>;
      quizzes: QuizChoice[];
    }
  >();
  const reply = useActionData<CoursePageReply>();
  const resultOf = (form: "course" | "lesson" | "link") => (reply?.form === form && "result" in reply ? reply.result : undefined);
  const errorsOf = (form: "publish" | "material") => (reply?.form === form && "errors" in reply ? reply.errors : undefined);
  const [courseForm, courseFields] = useCourseForm(data, resultOf("course"));
  const [lessonForm, lessonFields] = useZodForm({
    id: "add-lesson",
    schema: lessonFormSchema,
    lastResult: resultOf("lesson"),
    defaultValue: { lesson_kind: "text" },
  });
  const [linkForm, linkFields] = useZodForm({ id: "add-link", schema: courseLinkFormSchema, lastResult: resultOf("link") });
  const { course } = data;
  return (
    <section>
      <div className="toolbar">
        <h2>{course.title}</h2>
        {/* Assigning the course with a due date (issue 34): app/screens/assignments.tsx. */}
        <Link to={`${data.base}/${course.id}/assignments`} className="button" data-testid="course-assignments">
          {t("assigning.link")}
        </Link>
        <Form method="post" className="inline-form">
          <button
            type="submit"
            name="intent"
            value={course.published ? "unpublish" : "publish"}
            className={course.published ? "" : "primary"}
            data-testid="toggle-publish"
          >
            {course.published ? t("courses.unpublish") : t("courses.publish")}
          </button>
        </Form>
      </div>
      <FormErrors errors={errorsOf("publish")} />
      <Form method="post" className="panel" {...getFormProps(courseForm)}>
        <FormErrors errors={courseForm.errors} />
        <CourseFields data={data} fields={courseFields} />
        <button type="submit" name="intent" value="save" className="primary" data-testid="save-course">
          {t("courses.save")}
        </button>
      </Form>

      <div className="panel">
        <h3>{t("courses.lessons")}</h3>
        {data.lessons.length === 0 ? (
          <p className="empty-state">{t("courses.noLessons")}</p>
        ) : (
          <ol className="lesson-list" data-testid="lessons">
            {data.lessons.map((l, i) => (
              <li key={l.id} data-lesson={l.title}>
                <Link to={`${data.base}/${course.id}/lessons/${l.id}`}>{l.title}</Link>{" "}
                <span className="badge">{t(`courses.kinds.${l.kind}`)}</span>
                <MoveButtons intent="move-lesson" id={l.id} first={i === 0} last={i === data.lessons.length - 1} />
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
        <Form method="post" className="subform" data-testid="add-lesson-form" {...getFormProps(lessonForm)}>
          <h4>{t("courses.addLesson")}</h4>
          <FormErrors errors={lessonForm.errors} />
          <LessonFields
            fields={lessonFields}
            media={data.documents.filter((f) => f.kind === "image" || f.kind === "video")}
            quizzes={data.quizzes}
          />
          <button type="submit" name="intent" value="add-lesson" data-testid="add-lesson">
            {t("courses.addLesson")}
          </button>
        </Form>
      </div>

      <div className="panel">
        <h3>{t("courses.materials")}</h3>
        {data.materials.length === 0 ? <p className="empty-state">{t("courses.noMaterials")}</p> : null}
        <ul className="plain-list">
          {data.materials.map((m) => (
            <li key={m.id}>
              {m.title} <span className="hint-inline">{m.file}</span>
              <Form method="post" className="inline-form">
                <input type="hidden" name="id" value={m.id} />
                <button type="submit" name="intent" value="remove-material" className="danger">
                  {t("courses.remove")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
        <Form method="post" encType="multipart/form-data" className="subform">
          <FormErrors errors={errorsOf("material")} />
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

      <div className="panel">
        <h3>{t("courses.links")}</h3>
        {data.links.length === 0 ? <p className="empty-state">{t("courses.noLinks")}</p> : null}
        <ul className="plain-list">
          {data.links.map((l) => (
            <li key={l.id}>
              <a href={l.url} rel="noopener noreferrer nofollow" target="_blank">
                {l.title}
              </a>
              <Form method="post" className="inline-form">
                <input type="hidden" name="id" value={l.id} />
                <button type="submit" name="intent" value="remove-link" className="danger">
                  {t("courses.remove")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
        <Form method="post" className="subform" {...getFormProps(linkForm)}>
          <FormErrors errors={linkForm.errors} />
          <label>
            {t("courses.linkTitle")}{" "}
            <input {...controlProps(linkFields.link_title, "link_title")} key={linkFields.link_title.key} maxLength={200} required />
          </label>{" "}
          <label>
            {t("courses.linkUrl")}{" "}
            <input {...controlProps(linkFields.link_url, "link_url")} key={linkFields.link_url.key} type="url" required />
          </label>{" "}
          <button type="submit" name="intent" value="add-link">
            {t("courses.addLink")}
          </button>
          <ErrorList id="link_title-error" errors={linkFields.link_title.errors} />
          <ErrorList id="link_url-error" errors={linkFields.link_url.errors} />
        </Form>
      </div>

      <div className="panel">
        <h3>{t("courses.clone")}</h3>
        <p className="hint">{t("courses.cloneHint")}</p>
        <Form method="post">
          <button type="submit" name="intent" value="clone" data-testid="clone-course">
            {t("courses.clone")}
          </button>
        </Form>
      </div>
      <div className="panel danger-zone">
        <Link to={`${data.base}/${course.id}/delete`} className="button danger" data-testid="delete-course">
          {t("courses.delete")}
        </Link>
      </div>
    </section>
  );
}

// ——— lesson fields (add on the course page, edit on the lesson page) ———

type QuizChoice = { id: number; title: string };

type LessonMeta = ReturnType<typeof useZodForm<typeof lessonFormSchema>>[1];

function LessonFields({
  fields,
  media,
  quizzes,
}: {
  fields: LessonMeta;
  media: Array<{ id: number; name: string }>;
  quizzes: QuizChoice[];
}) {
  const { t } = useTranslation();
  const props = (name: keyof LessonMeta & string) => controlProps(fields[name], name);
  const errors = (name: keyof LessonMeta & string) => <ErrorList id={`${name}-error`} errors={fields[name].errors} />;
  return (
    <div className="lesson-fields">
      <div className="field" key={fields.lesson_title.key}>
        <label htmlFor="lesson_title">{t("courses.lessonTitle")}</label>
        <input {...props("lesson_title")} maxLength={200} />
        {errors("lesson_title")}
      </div>
      <div className="field" key={fields.lesson_kind.key}>
        <label htmlFor="lesson_kind">{t("courses.lessonKind")}</label>
        <select {...props("lesson_kind")}>
          {LESSON_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`courses.kinds.${kind}`)}
            </option>
          ))}
        </select>
        {errors("lesson_kind")}
      </div>
      <div className="field" key={fields.lesson_body.key}>
        <label htmlFor="lesson_body">{t("courses.lessonBody")}</label>
        <textarea {...props("lesson_body")} rows={4} />
        {errors("lesson_body")}
      </div>
      <div className="field" key={fields.lesson_video_url.key}>
        <label htmlFor="lesson_video_url">{t("courses.videoUrl")}</label>
        <input {...props("lesson_video_url")} type="url" />
        {errors("lesson_video_url")}
      </div>
      <div className="field" key={fields.lesson_file_id.key}>
        <label htmlFor="lesson_file_id">{t("courses.lessonFile")}</label>
        <select {...props("lesson_file_id")}>
          <option value="">—</option>
          {media.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        {errors("lesson_file_id")}
      </div>
      <div className="field lesson-quiz-field" key={fields.lesson_quiz_id.key}>
        <label htmlFor="lesson_quiz_id">{t("fixes.lessonQuiz.label")}</label>
        <select {...props("lesson_quiz_id")} data-testid="lesson-quiz">
          <option value="">{t("fixes.lessonQuiz.none")}</option>
          {quizzes.map((q) => (
            <option key={q.id} value={q.id}>
              {q.title}
            </option>
          ))}
        </select>
        <p className="hint">{quizzes.length ? t("fixes.lessonQuiz.hint") : t("fixes.lessonQuiz.noQuizzes")}</p>
        {errors("lesson_quiz_id")}
      </div>
    </div>
  );
}

export function EditLesson() {
  const { t } = useTranslation();
  const { back, lesson, media, quizzes } = useLoaderData<{
    back: string;
    lesson: Record<string, string>;
    media: Array<{ id: number; name: string }>;
    quizzes: QuizChoice[];
  }>();
  const [form, fields] = useZodForm({
    id: "lesson",
    schema: lessonFormSchema,
    lastResult: useActionData<SubmissionResult<string[]>>(),
    defaultValue: {
      lesson_title: lesson.title,
      lesson_kind: lesson.kind,
      lesson_body: lesson.body,
      lesson_video_url: lesson.video_url,
      lesson_file_id: lesson.file_id,
      lesson_quiz_id: lesson.quiz_id,
    },
  });
  return (
    <section>
      <h2>{t("courses.editLesson")}</h2>
      <Form method="post" className="panel" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <LessonFields fields={fields} media={media} quizzes={quizzes} />
        <button type="submit" className="primary">
          {t("courses.saveLesson")}
        </button>{" "}
        <Link to={back}>{t("confirm.cancel")}</Link>
      </Form>
      <p className="panel">
        <Link to="scorm" data-testid="scorm-package-link">
          {t("scorm.admin.link")}
        </Link>
      </p>
      {lesson.kind === "video" ? (
        <p className="panel">
          <Link to="captions" data-testid="captions-link">
            {t("captions.admin.link")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

export function DeleteCourse() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}

/** Without JavaScript the page refreshes itself every two seconds until the job is over. */
export const jobMeta: MetaFunction = ({ data, matches }) => {
  const inherited = matches.flatMap((m) => m.meta ?? []);
  const status = (data as { status?: string } | undefined)?.status;
  return status === "queued" || status === "running" ? [...inherited, { httpEquiv: "refresh", content: "2" }] : inherited;
};

export function JobProgress() {
  const { t } = useTranslation();
  const job = useLoaderData<{ status: string; progress: number; error: string | null; copyUrl: string | null }>();
  return (
    <section className="panel" data-testid="job" data-status={job.status}>
      <h2>{t("jobs.title")}</h2>
      {job.status === "queued" ? <p>{t("jobs.queued")}</p> : null}
      {job.status === "running" ? (
        <>
          <p>{t("jobs.running", { progress: job.progress })}</p>
          <progress max={100} value={job.progress} />
        </>
      ) : null}
      {job.status === "queued" || job.status === "running" ? <p className="hint">{t("jobs.refreshHint")}</p> : null}
      {job.status === "done" ? (
        <p>
          {t("jobs.done")}{" "}
          {job.copyUrl ? (
            <Link to={job.copyUrl} data-testid="open-copy">
              {t("jobs.open")}
            </Link>
          ) : null}
        </p>
      ) : null}
      {job.status === "failed" ? <FormMessage>{t("jobs.failed", { error: job.error ?? "" })}</FormMessage> : null}
    </section>
  );
}
