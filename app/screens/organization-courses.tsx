import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ZodError } from "zod";
import { COURSE_TYPES, LESSON_KINDS } from "../../db/tenant";
import { ConfirmDelete } from "~/components/confirm-delete";
import { ErrorList, FormMessage } from "~/components/form";
import { MoveButtons } from "~/components/move-buttons";
import { listCategories } from "~/models/category.server";
import { courseLinks, courseResource, getCourse, moveCourse } from "~/models/course.server";
import { addMaterial, deleteMaterial, listMaterials } from "~/models/material.server";
import { createLesson, deleteLesson, getLesson, lessonResource, listLessons, moveLesson, updateLesson } from "~/models/lesson.server";
import { getFile, listFiles, receiveUpload, storeUpload, UploadError } from "~/models/file.server";
import { getJob } from "~/models/job.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { checkbox, moveIntent, optionalNumber, optionalText, text } from "~/utils/form-data.server";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/utils/manage.server";
import { languageFor } from "~/utils/preferences.server";
import type { ResourceScope, WriteResult } from "~/utils/resource.server";
import { uploadLimits, uploadProblem } from "~/utils/upload.server";

/**
 * Course authoring (spec §2 courses tabs, create and detail pages), built once for /admin and /dashboard.
 * Every form posts and redirects, so all of it works without JavaScript; reordering is by move buttons.
 */
type Errors = Record<string, string[]>;

function scopeOf(managed: Managed): ResourceScope {
  return { db: managed.db, organization: managed.organization, viewer: managed.auth };
}

function zodErrors(error: ZodError): Errors {
  const errors: Errors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "_");
    (errors[key] ??= []).push(/^(validation|auth)\./.test(issue.message) ? issue.message : "validation.invalid");
  }
  return errors;
}

function failed(result: WriteResult<unknown>): Errors {
  return result.ok ? {} : { [result.field]: [result.message] };
}

const coursesBase = (managed: Managed) => `${managed.base}/courses`;

/** The course form as the /api schema's input. */
function courseInput(formData: FormData) {
  return {
    title: text(formData, "title") ?? "",
    description: text(formData, "description") ?? "",
    type: text(formData, "type"),
    category_id: optionalNumber(formData, "category_id"),
    prerequisite_course_id: optionalNumber(formData, "prerequisite_course_id"),
    external_url: optionalText(formData, "external_url"),
    file_id: optionalNumber(formData, "file_id"),
    cover_file_id: optionalNumber(formData, "cover_file_id"),
    published: checkbox(formData, "published"),
    sequential_lessons: checkbox(formData, "sequential_lessons"),
    block_default_access: checkbox(formData, "block_default_access"),
    force_groups: checkbox(formData, "force_groups"),
    allow_certificates: checkbox(formData, "allow_certificates"),
    allow_quizzes: checkbox(formData, "allow_quizzes"),
  };
}

function formChoices(managed: Managed) {
  return {
    categories: listCategories(managed.db).map((c) => ({ id: c.id, name: c.name })),
    courses: courseResource.list(scopeOf(managed), { page: 1, perPage: 500 }, {}) as { items: Array<{ id: number; title: string }> },
    documents: listFiles(managed.db, { page: { page: 1, perPage: 200 } }).items.map((f) => ({ id: f.id, name: f.name, kind: f.kind })),
  };
}

// ——— list ———

export function coursesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const { items } = courseResource.list(scopeOf(managed), { page: 1, perPage: 500 }, {}) as { items: Array<{ id: number; title: string; type: string; published: boolean }> };
      return { base: coursesBase(managed), courses: items.map((c) => ({ id: c.id, title: c.title, type: c.type, published: c.published })) };
    });
}

export function coursesAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const move = moveIntent(await request.formData());
      if (move) moveCourse(managed.db, move.id, { direction: move.direction });
      return redirect(coursesBase(managed));
    });
}

export function CoursesList() {
  const { t } = useTranslation();
  const { base, courses } = useLoaderData<{ base: string; courses: Array<{ id: number; title: string; type: string; published: boolean }> }>();
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
                <td>{c.published ? <span className="badge published">{t("courses.published")}</span> : <span className="badge">{t("courses.draft")}</span>}</td>
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

type CourseFormData = ReturnType<typeof formChoices> & {
  base: string;
  values: Record<string, string | boolean | null>;
};

function CourseFields({ data, errors }: { data: CourseFormData; errors: Errors }) {
  const { t } = useTranslation();
  const v = data.values;
  const field = (name: string, label: string, input: React.ReactNode) => (
    <div className="field">
      <label htmlFor={`course-${name}`}>{label}</label>
      {input}
      <ErrorList errors={errors[name]} />
    </div>
  );
  const check = (name: string) => (
    <div className="field field-check" key={name}>
      <label>
        <input type="checkbox" name={name} defaultChecked={Boolean(v[name])} /> {t(`courses.fields.${camel(name)}`)}
      </label>
    </div>
  );
  return (
    <>
      {field("title", t("courses.fields.title"), <input id="course-title" name="title" defaultValue={String(v.title ?? "")} maxLength={200} required />)}
      {field(
        "type",
        t("courses.fields.type"),
        <select id="course-type" name="type" defaultValue={String(v.type ?? "series")}>
          {COURSE_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`courseType.${type}`)}
            </option>
          ))}
        </select>,
      )}
      {field("description", t("courses.fields.description"), <textarea id="course-description" name="description" rows={5} defaultValue={String(v.description ?? "")} />)}
      <p className="hint">{t("courses.fields.descriptionHint")}</p>
      {field(
        "category_id",
        t("courses.fields.category"),
        <select id="course-category_id" name="category_id" defaultValue={String(v.category_id ?? "")}>
          <option value="">{t("courses.fields.noCategory")}</option>
          {data.categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>,
      )}
      {field("external_url", t("courses.fields.externalUrl"), <input id="course-external_url" name="external_url" type="url" defaultValue={String(v.external_url ?? "")} />)}
      {field(
        "file_id",
        t("courses.fields.file"),
        <select id="course-file_id" name="file_id" defaultValue={String(v.file_id ?? "")}>
          <option value="">—</option>
          {data.documents.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>,
      )}
      {field(
        "cover_file_id",
        t("courses.fields.cover"),
        <select id="course-cover_file_id" name="cover_file_id" defaultValue={String(v.cover_file_id ?? "")}>
          <option value="">—</option>
          {data.documents
            .filter((f) => f.kind === "image")
            .map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
        </select>,
      )}
      {field(
        "prerequisite_course_id",
        t("courses.fields.prerequisite"),
        <select id="course-prerequisite_course_id" name="prerequisite_course_id" defaultValue={String(v.prerequisite_course_id ?? "")}>
          <option value="">{t("courses.fields.noPrerequisite")}</option>
          {data.courses.items
            .filter((c) => String(c.id) !== String(v.id ?? ""))
            .map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
        </select>,
      )}
      {["published", "sequential_lessons", "block_default_access", "force_groups", "allow_certificates", "allow_quizzes"].map(check)}
    </>
  );
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export function createCourseLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => ({
      base: coursesBase(managed),
      values: { type: "series" } as Record<string, string | boolean | null>,
      ...formChoices(managed),
    }));
}

export function createCourseAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const parsed = courseResource.createSchema.safeParse(courseInput(await request.formData()));
      if (!parsed.success) return json({ errors: zodErrors(parsed.error) }, { status: 400 });
      const result = courseResource.create!(scopeOf(managed), parsed.data);
      if (!result.ok) return json({ errors: failed(result) }, { status: 400 });
      return redirectWithFlash(`${coursesBase(managed)}/${result.value.id}`, "flash.courseCreated");
    });
}

export function CreateCourse() {
  const { t } = useTranslation();
  const data = useLoaderData<CourseFormData>();
  const errors = useActionData<{ errors: Errors }>()?.errors ?? {};
  return (
    <section>
      <h2>{t("courses.create")}</h2>
      <Form method="post" className="panel">
        <CourseFields data={data} errors={errors} />
        <button type="submit" className="primary" data-testid="save-course">
          {t("courses.save")}
        </button>{" "}
        <Link to={data.base}>{t("confirm.cancel")}</Link>
      </Form>
    </section>
  );
}

function courseFrom(managed: Managed, id: string | undefined) {
  const course = /^\d{1,15}$/.test(id ?? "") ? getCourse(managed.db, Number(id)) : undefined;
  if (!course) throw new Response("Not Found", { status: 404 });
  return course;
}

export function editCourseLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const course = courseFrom(managed, params.courseId);
      return {
        base: coursesBase(managed),
        course: { id: course.id, title: course.title, published: course.published, type: course.type },
        values: {
          id: String(course.id),
          title: course.title,
          description: course.description,
          type: course.type,
          category_id: course.categoryId ? String(course.categoryId) : "",
          prerequisite_course_id: course.prerequisiteCourseId ? String(course.prerequisiteCourseId) : "",
          external_url: course.externalUrl ?? "",
          file_id: course.fileId ? String(course.fileId) : "",
          cover_file_id: course.coverFileId ? String(course.coverFileId) : "",
          published: course.published,
          sequential_lessons: course.sequentialLessons,
          block_default_access: course.blockDefaultAccess,
          force_groups: course.forceGroups,
          allow_certificates: course.allowCertificates,
          allow_quizzes: course.allowQuizzes,
        } as Record<string, string | boolean | null>,
        lessons: listLessons(managed.db, course.id).map((l) => ({ id: l.id, title: l.title, kind: l.kind })),
        materials: listMaterials(managed.db, course.id).map((m) => ({ id: m.id, title: m.title, file: getFile(managed.db, m.fileId)?.name ?? "" })),
        links: courseLinks(managed.db, course.id).map((l) => ({ id: l.id, title: l.title, url: l.url })),
        ...formChoices(managed),
      };
    });
}

/** The course page's many small forms, told apart by `intent`. */
export function editCourseAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const course = courseFrom(managed, params.courseId);
      const here = `${coursesBase(managed)}/${course.id}`;
      const scope = scopeOf(managed);
      if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
        return addMaterialFromUpload(request, context, managed, course.id, here);
      }
      const formData = await request.formData();
      const intent = text(formData, "intent") ?? "save";
      const lessonMove = moveIntent(formData, "move-lesson");
      if (lessonMove) {
        if (getLesson(managed.db, lessonMove.id)?.courseId === course.id) moveLesson(managed.db, lessonMove.id, { direction: lessonMove.direction });
        return redirect(here);
      }
      switch (intent) {
        case "save": {
          const parsed = courseResource.createSchema.safeParse(courseInput(formData));
          if (!parsed.success) return json({ errors: zodErrors(parsed.error) }, { status: 400 });
          const { links: _links, ...changes } = parsed.data;
          const result = courseResource.update!(scope, course.id, changes);
          if (result && !result.ok) return json({ errors: failed(result) }, { status: 400 });
          return redirectWithFlash(here, "flash.courseSaved");
        }
        case "publish":
        case "unpublish": {
          const result = courseResource.update!(scope, course.id, { published: intent === "publish" });
          if (result && !result.ok) return json({ errors: failed(result) }, { status: 400 });
          return redirectWithFlash(here, "flash.courseSaved");
        }
        case "add-lesson": {
          const parsed = lessonInput(formData, course.id);
          if (!parsed.success) return json({ errors: prefix("lesson_", zodErrors(parsed.error)) }, { status: 400 });
          const result = createLesson(managed.db, parsed.data);
          if (!result.ok) return json({ errors: prefix("lesson_", failed(result)) }, { status: 400 });
          return redirectWithFlash(here, "flash.lessonSaved");
        }
        case "delete-lesson": {
          const lesson = getLesson(managed.db, Number(text(formData, "id")));
          if (lesson?.courseId === course.id) deleteLesson(managed.db, lesson.id);
          return redirectWithFlash(here, "flash.lessonDeleted");
        }
        case "remove-material": {
          const id = Number(text(formData, "id"));
          if (listMaterials(managed.db, course.id).some((m) => m.id === id)) deleteMaterial(managed.db, id);
          return redirect(here);
        }
        case "add-link":
        case "remove-link": {
          const current = courseLinks(managed.db, course.id).map((l) => ({ id: l.id, title: l.title, url: l.url }));
          const next =
            intent === "add-link"
              ? [...current, { title: text(formData, "link_title") ?? "", url: text(formData, "link_url") ?? "" }]
              : current.filter((l) => l.id !== Number(text(formData, "id")));
          const parsed = courseResource.updateSchema.safeParse({ links: next.map(({ title, url }) => ({ title, url })) });
          if (!parsed.success) return json({ errors: { link: ["validation.url"] } }, { status: 400 });
          const result = courseResource.update!(scope, course.id, parsed.data);
          if (result && !result.ok) return json({ errors: { link: [result.message] } }, { status: 400 });
          return redirect(here);
        }
        case "clone": {
          const t = await getFixedT(await languageFor(request, context));
          const job = context.platform.jobs.enqueue(managed.organization.id, managed.db, "course.clone", {
            course_id: course.id,
            title: t("courses.copyTitle", { title: course.title }),
          });
          return redirectWithFlash(`${managed.base}/jobs/${job.id}`, "flash.cloneStarted");
        }
        default:
          throw new Response("Bad Request", { status: 400 });
      }
    });
}

function prefix(p: string, errors: Errors): Errors {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [`${p}${k}`, v]));
}

function lessonInput(formData: FormData, courseId: number) {
  return createLessonSchema.safeParse({
    course_id: courseId,
    title: text(formData, "lesson_title") ?? "",
    kind: text(formData, "lesson_kind") ?? "text",
    body: text(formData, "lesson_body") ?? "",
    video_url: optionalText(formData, "lesson_video_url"),
    file_id: optionalNumber(formData, "lesson_file_id"),
  });
}
const createLessonSchema = lessonResource.createSchema;

async function addMaterialFromUpload(request: Request, context: ActionFunctionArgs["context"], managed: Managed, courseId: number, here: string) {
  const limits = uploadLimits(context);
  let received: Awaited<ReturnType<typeof receiveUpload>> | undefined;
  try {
    received = await receiveUpload(request, { dataDir: context.platform.dataDir, organizationId: managed.organization.id, limits });
    const key = String(received.formData.get("file") ?? "").split(":")[1];
    const stored = await storeUpload(managed.db, {
      dataDir: context.platform.dataDir,
      organizationId: managed.organization.id,
      pending: key ? received.pending.get(key) : undefined,
      limits,
      uploadedBy: managed.area === "dashboard" ? managed.auth.person.id : null,
    });
    // Uploaded here, a file can become a material of this course, or wait in the organization's library
    // to be chosen as a lesson's image or video, the cover, or a download course's file.
    if (received.formData.get("as_material") === "on") {
      const title = String(received.formData.get("title") ?? "").trim() || stored.name;
      const added = addMaterial(managed.db, { course_id: courseId, file_id: stored.id, title: title.slice(0, 200) });
      if (!added.ok) return json({ errors: { material: [added.message] } }, { status: 400 });
    }
    return redirect(here);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const t = await getFixedT(await languageFor(request, context));
    const { status, message } = uploadProblem(error, t, limits.maxBytes);
    return json({ errors: { material: [message] } }, { status });
  } finally {
    received?.cleanup();
  }
}

export function EditCourse() {
  const { t } = useTranslation();
  const data = useLoaderData<CourseFormData & {
    course: { id: number; title: string; published: boolean; type: string };
    lessons: Array<{ id: number; title: string; kind: string }>;
    materials: Array<{ id: number; title: string; file: string }>;
    links: Array<{ id: number; title: string; url: string }>;
  }>();
  const errors = useActionData<{ errors: Errors }>()?.errors ?? {};
  const { course } = data;
  return (
    <section>
      <div className="toolbar">
        <h2>{course.title}</h2>
        <Form method="post" className="inline-form">
          <button type="submit" name="intent" value={course.published ? "unpublish" : "publish"} className={course.published ? "" : "primary"} data-testid="toggle-publish">
            {course.published ? t("courses.unpublish") : t("courses.publish")}
          </button>
        </Form>
      </div>
      <Form method="post" className="panel">
        <CourseFields data={data} errors={errors} />
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
                <Link to={`${data.base}/${course.id}/lessons/${l.id}`}>{l.title}</Link> <span className="badge">{t(`courses.kinds.${l.kind}`)}</span>
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
        <Form method="post" className="subform" data-testid="add-lesson-form">
          <h4>{t("courses.addLesson")}</h4>
          <FormMessage>{errors.lesson_course_id?.map((e) => t(e)).join(" ")}</FormMessage>
          <LessonFields errors={errors} media={data.documents.filter((f) => f.kind === "image" || f.kind === "video")} />
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
          <FormMessage>{errors.material?.map((e) => t(e)).join(" ")}</FormMessage>
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
        <Form method="post" className="subform">
          <FormMessage>{errors.link?.map((e) => t(e)).join(" ")}</FormMessage>
          <label>
            {t("courses.linkTitle")} <input name="link_title" maxLength={200} required />
          </label>{" "}
          <label>
            {t("courses.linkUrl")} <input name="link_url" type="url" required />
          </label>{" "}
          <button type="submit" name="intent" value="add-link">
            {t("courses.addLink")}
          </button>
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

function LessonFields({ errors, media, values = {} }: { errors: Errors; media: Array<{ id: number; name: string }>; values?: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="field">
        <label htmlFor="lesson_title">{t("courses.lessonTitle")}</label>
        <input id="lesson_title" name="lesson_title" defaultValue={values.title ?? ""} maxLength={200} />
        <ErrorList errors={errors.lesson_title} />
      </div>
      <div className="field">
        <label htmlFor="lesson_kind">{t("courses.lessonKind")}</label>
        <select id="lesson_kind" name="lesson_kind" defaultValue={values.kind ?? "text"}>
          {LESSON_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`courses.kinds.${kind}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="lesson_body">{t("courses.lessonBody")}</label>
        <textarea id="lesson_body" name="lesson_body" rows={4} defaultValue={values.body ?? ""} />
      </div>
      <div className="field">
        <label htmlFor="lesson_video_url">{t("courses.videoUrl")}</label>
        <input id="lesson_video_url" name="lesson_video_url" type="url" defaultValue={values.video_url ?? ""} />
        <ErrorList errors={errors.lesson_video_url} />
      </div>
      <div className="field">
        <label htmlFor="lesson_file_id">{t("courses.lessonFile")}</label>
        <select id="lesson_file_id" name="lesson_file_id" defaultValue={values.file_id ?? ""}>
          <option value="">—</option>
          {media.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        <ErrorList errors={errors.lesson_file_id} />
      </div>
    </>
  );
}

// ——— lesson edit ———

export function editLessonLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const course = courseFrom(managed, params.courseId);
      const lesson = getLesson(managed.db, Number(params.lessonId));
      if (!lesson || lesson.courseId !== course.id) throw new Response("Not Found", { status: 404 });
      return {
        back: `${coursesBase(managed)}/${course.id}`,
        lesson: { title: lesson.title, kind: lesson.kind, body: lesson.body, video_url: lesson.videoUrl ?? "", file_id: lesson.fileId ? String(lesson.fileId) : "" },
        media: listFiles(managed.db, { page: { page: 1, perPage: 200 } }).items.filter((f) => f.kind === "image" || f.kind === "video").map((f) => ({ id: f.id, name: f.name })),
      };
    });
}

export function editLessonAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const course = courseFrom(managed, params.courseId);
      const lesson = getLesson(managed.db, Number(params.lessonId));
      if (!lesson || lesson.courseId !== course.id) throw new Response("Not Found", { status: 404 });
      // Only what the form shows changes (a duration set through /api, say, is kept).
      const formData = await request.formData();
      const parsed = lessonResource.updateSchema.safeParse({
        title: text(formData, "lesson_title") ?? "",
        kind: text(formData, "lesson_kind") ?? "text",
        body: text(formData, "lesson_body") ?? "",
        video_url: optionalText(formData, "lesson_video_url"),
        file_id: optionalNumber(formData, "lesson_file_id"),
      });
      if (!parsed.success) return json({ errors: prefix("lesson_", zodErrors(parsed.error)) }, { status: 400 });
      const result = updateLesson(managed.db, lesson.id, parsed.data);
      if (result && !result.ok) return json({ errors: prefix("lesson_", failed(result)) }, { status: 400 });
      return redirectWithFlash(`${coursesBase(managed)}/${course.id}`, "flash.lessonSaved");
    });
}

export function EditLesson() {
  const { t } = useTranslation();
  const { back, lesson, media } = useLoaderData<{ back: string; lesson: Record<string, string>; media: Array<{ id: number; name: string }> }>();
  const errors = useActionData<{ errors: Errors }>()?.errors ?? {};
  return (
    <section>
      <h2>{t("courses.editLesson")}</h2>
      <Form method="post" className="panel">
        <LessonFields errors={errors} media={media} values={lesson} />
        <button type="submit" className="primary">
          {t("courses.saveLesson")}
        </button>{" "}
        <Link to={back}>{t("confirm.cancel")}</Link>
      </Form>
      <p className="panel">
        <Link to="scorm" data-testid="scorm-package-link">{t("scorm.admin.link")}</Link>
      </p>
    </section>
  );
}

// ——— delete ———

export function deleteCourseLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const course = courseFrom(managed, params.courseId);
      return { name: course.title, back: `${coursesBase(managed)}/${course.id}` };
    });
}

export function deleteCourseAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const course = courseFrom(managed, params.courseId);
      courseResource.remove!(scopeOf(managed), course.id);
      return redirectWithFlash(coursesBase(managed), "flash.courseDeleted");
    });
}

export function DeleteCourse() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}

// ——— background job progress ———

export function jobLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const job = /^\d{1,15}$/.test(params.jobId ?? "") ? getJob(managed.db, Number(params.jobId)) : undefined;
      if (!job) throw new Response("Not Found", { status: 404 });
      const courseId = (job.result as { course_id?: number } | null)?.course_id;
      return {
        status: job.status,
        progress: job.progress,
        error: job.error,
        copyUrl: courseId ? `${coursesBase(managed)}/${courseId}` : null,
      };
    });
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
