import { getFormProps, type SubmissionResult } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { FormErrors, FormMessage, useZodForm } from "~/components/form";
import { lessonFormSchema } from "~/models/forms/courses";
import { MoveButtons } from "~/components/move-buttons";
import { ListControls, ListPager, type ListFilter } from "~/components/list/list-controls";
import { listSearch, type ListErrors } from "~/utils/list-query";
import { COURSE_LIST, type CourseListQuery } from "~/models/forms/course-list";
import { COURSE_TYPES } from "~/models/vocabulary";
import type { CoursePageReply } from "./organization-courses.server";
import { CourseFields, useCourseForm, type CourseFormData } from "./organization-course-fields";
import { LessonsPanel, LinksPanel, MaterialsPanel } from "./organization-course-contents";
import { LessonFields, type QuizChoice } from "./organization-lesson-fields";
import { CourseBulkStart, CourseTick } from "./course-bulk";

/**
 * Course authoring screens (docs/product.md §2 courses tabs, create and detail pages), built once for /admin and
 * /dashboard. Their loaders and actions live in organization-courses.server.ts: nothing here touches a
 * server module's values, because in the browser those modules are empty.
 */

export function CoursesList() {
  const { t } = useTranslation();
  const data = useLoaderData<CoursesListData>();
  const { base, courses, query, page } = data;
  const spec = COURSE_LIST;
  const link = (n: number) => `${base}${listSearch(query, spec, { page: n })}`;
  const filters: ListFilter[] = [
    {
      name: "category",
      label: t("lists.courses.category"),
      any: t("lists.courses.anyCategory"),
      options: data.categories.map((c) => ({ value: String(c.id), label: c.name })),
    },
    {
      name: "kind",
      label: t("lists.courses.kind"),
      any: t("lists.courses.anyKind"),
      options: COURSE_TYPES.map((k) => ({ value: k, label: t(`courseType.${k}`) })),
    },
    {
      name: "state",
      label: t("lists.courses.state"),
      any: t("lists.courses.anyState"),
      options: [
        { value: "published", label: t("courses.published") },
        { value: "draft", label: t("courses.draft") },
      ],
    },
  ];
  const sorts = COURSE_LIST.sorts.map((s) => ({
    value: s,
    label: t(`lists.courses.${s === "position" ? "order" : s}`),
  }));
  return (
    <section>
      <div className="toolbar">
        <h2>{t("courses.title")}</h2>
        <Link to={`${base}/create`} className="button primary" data-testid="create-course">
          {t("courses.create")}
        </Link>
      </div>
      {page.total === 0 && !data.filtered ? (
        <p className="empty-state">{t("courses.empty")}</p>
      ) : (
        <>
          <ListControls
            id="courses-list"
            label={t("lists.courses.label")}
            searchLabel={t("lists.courses.search")}
            query={query}
            filters={filters}
            sorts={sorts}
            errors={data.errors}
            clear={base}
          />
          {page.total > 0 ? (
            <CourseBulkStart base={base} total={page.total} filters={{ q: query.q, ...query.filters }} locale={data.locale} />
          ) : null}
          {courses.length > 0 && (
            <div className="table-scroll">
              <table className="table" data-testid="courses">
                <tbody>
                  {courses.map((c, i) => (
                    <tr key={c.id} data-course={c.title}>
                      <td className="tick">
                        <CourseTick id={c.id} title={c.title} />
                      </td>
                      <td>
                        <Link to={`${base}/${c.id}`}>{c.title}</Link>
                      </td>
                      <td>{t(`courseType.${c.type}`)}</td>
                      <td>{c.category ?? ""}</td>
                      <td>
                        {c.published ? (
                          <span className="badge published">{t("courses.published")}</span>
                        ) : (
                          <span className="badge">{t("courses.draft")}</span>
                        )}
                      </td>
                      {data.movable && (
                        <td className="actions">
                          <MoveButtons
                            id={c.id}
                            first={page.page === 1 && i === 0}
                            last={page.page === page.pages && i === courses.length - 1}
                          />
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ListPager {...page} shown={courses.length} locale={data.locale} link={link} label={t("lists.pages")} />
        </>
      )}
    </section>
  );
}

interface CoursesListData {
  base: string;
  query: CourseListQuery;
  errors: ListErrors | null;
  page: { page: number; pages: number; total: number; perPage: number };
  movable: boolean;
  filtered: boolean;
  categories: { id: number; name: string }[];
  locale: string;
  courses: Array<{ id: number; title: string; type: string; published: boolean; category: string | null }>;
}

// ——— create and edit ———

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
  const { course } = data;
  return (
    <section>
      <div className="toolbar">
        <h2>{course.title}</h2>
        {/* Assigning the course with a due date (issue 34): app/screens/assignments.tsx. */}
        <Link to={`${data.base}/${course.id}/assignments`} className="button" data-testid="course-assignments">
          {t("assigning.link")}
        </Link>
        {/* The course's learners and their progress (issue 50): app/screens/course-learners.tsx. */}
        <Link to={`${data.base}/${course.id}/learners`} className="button" data-testid="course-learners">
          {t("peopleLists.learners.link")}
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

      <LessonsPanel
        base={data.base}
        courseId={course.id}
        lessons={data.lessons}
        media={data.documents.filter((f) => f.kind === "image" || f.kind === "video")}
        quizzes={data.quizzes}
        lastResult={resultOf("lesson")}
      />
      <MaterialsPanel materials={data.materials} errors={errorsOf("material")} />
      <LinksPanel links={data.links} lastResult={resultOf("link")} />

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
          {t("packages.admin.link")}
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
