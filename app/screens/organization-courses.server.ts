import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import type { SubmissionResult } from "@conform-to/react";
import { listCategories } from "~/models/category.server";
import { courseLinks, courseResource, getCourse, moveCourse } from "~/models/course.server";
import { courseList, courseListCategories } from "~/models/course-list.server";
import { COURSE_LIST } from "~/models/forms/course-list";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { addMaterial, deleteMaterial, listMaterials } from "~/models/material.server";
import { createLesson, deleteLesson, getLesson, listLessons, moveLesson, updateLesson } from "~/models/lesson.server";
import { getFile, listFiles } from "~/models/file.server";
import { getJob } from "~/models/job.server";
import { getQuiz, listQuizzes } from "~/models/quiz.server";
import { linkQuizLesson, quizIdOfLesson, unlinkQuizLesson } from "~/models/quiz-lessons.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { moveIntent, readForm, text } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { courseLinkFormSchema, lessonFormSchema } from "~/models/forms/courses";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { languageFor } from "~/utils/preferences.server";
import type { TenantConn } from "~/models/database.server";
import type { WriteResult } from "~/models/resource";
import { handleUpload } from "~/kernel/upload.server";

/**
 * Course authoring's loaders and actions (docs/product.md §2 courses tabs, create and detail pages), built once for /admin and /dashboard.
 * Every form posts and redirects, so all of it works without JavaScript; reordering is by move buttons.
 * Server-only: the screens (organization-courses.tsx) never reference these values, so the browser's
 * empty copy of this module is never read.
 */
export type Errors = Record<string, string[]>;

/**
 * What the course page answers when one of its forms is refused: the course's, a lesson's or a link's form
 * (conform's reply, which keeps what was typed), or a message for publishing or an upload.
 */
export type CoursePageReply =
  | { form: "course" | "lesson" | "link"; result: SubmissionResult<string[]> }
  | { form: "publish" | "material"; errors: string[] };

function failed(result: WriteResult<unknown>): Errors {
  return result.ok ? {} : { [result.field]: [result.message] };
}

/** A lesson write's refusal on the lesson form: the course's (a movie has one episode) for the whole form. */
function lessonRefusal(result: WriteResult<unknown>) {
  if (result.ok) return {};
  return result.field === "course_id"
    ? { formErrors: [result.message] }
    : { fieldErrors: { [`lesson_${result.field}`]: [result.message] } };
}

/** The lesson form read, and its quiz one of this organization's (the tenant database holds only its own). */
function lessonSubmission(db: TenantConn, formData: FormData) {
  const submission = parseForm(formData, lessonFormSchema);
  if (submission.status !== "success") return { ok: false as const, reply: submission.reply() };
  const { quizId } = submission.value;
  if (quizId !== null && !getQuiz(db, quizId))
    return { ok: false as const, reply: submission.reply({ fieldErrors: { lesson_quiz_id: ["fixes.lessonQuiz.unknown"] } }) };
  return { ok: true as const, submission, ...submission.value };
}

const MAX_LINKS = 50;

const coursesBase = (managed: Managed) => `${managed.base}/courses`;

export type FormChoices = ReturnType<typeof formChoices>;

function formChoices(managed: Managed) {
  return {
    categories: listCategories(managed.db).map((c) => ({ id: c.id, name: c.name })),
    courses: courseResource.list(managed.db, managed.viewer, { page: 1, perPage: 500 }, {}) as {
      items: Array<{ id: number; title: string }>;
    },
    documents: listFiles(managed.db, { page: { page: 1, perPage: 200 } }).items.map((f) => ({ id: f.id, name: f.name, kind: f.kind })),
  };
}

// ——— list ———

/** The courses list (issue 50): searched, filtered, sorted and paged from its address (app/utils/list-query.ts). */
export function coursesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const { query, errors } = parseListQuery(new URL(request.url), COURSE_LIST);
      const list = courseList(managed.db, managed.viewer, query);
      return {
        base: coursesBase(managed),
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        // Moving a course up or down is about the whole list in its own order.
        movable: isWholeList(query, COURSE_LIST),
        filtered: !isWholeList(query, COURSE_LIST),
        categories: courseListCategories(managed.db),
        locale: dateLocaleFor(managed.viewer),
        courses: list.rows.map((c) => ({
          id: c.id,
          title: c.title,
          type: c.type,
          published: c.published,
          category: c.category,
          updatedAt: c.updatedAt.toISOString(),
        })),
      };
    });
}

export function coursesAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const move = moveIntent(await readForm(request, context));
      if (move) moveCourse(managed.db, move.id, { direction: move.direction });
      // Back to the same view of the list (its state as read, never the address as sent).
      const { query } = parseListQuery(new URL(request.url), COURSE_LIST);
      return redirect(`${coursesBase(managed)}${listSearch(query, COURSE_LIST)}`);
    });
}

export function createCourseLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => ({
      base: coursesBase(managed),
      values: { type: "series", reassign_days_before: "30" } as Record<string, string | boolean | null>,
      ...formChoices(managed),
    }));
}

export function createCourseAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const submission = parseForm(await readForm(request, context), courseResource.createSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const result = courseResource.create!(managed.db, managed.viewer, submission.value);
      if (!result.ok) return json(submission.reply({ fieldErrors: failed(result) }), { status: 400 });
      return redirectWithFlash(`${coursesBase(managed)}/${result.value.id}`, "flash.courseCreated");
    });
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
          validity_months: course.validityMonths ? String(course.validityMonths) : "",
          reassign_days_before: String(course.reassignDaysBefore),
        } as Record<string, string | boolean | null>,
        lessons: listLessons(managed.db, course.id).map((l) => ({ id: l.id, title: l.title, kind: l.kind })),
        materials: listMaterials(managed.db, course.id).map((m) => ({
          id: m.id,
          title: m.title,
          file: getFile(managed.db, m.fileId)?.name ?? "",
        })),
        links: courseLinks(managed.db, course.id).map((l) => ({ id: l.id, title: l.title, url: l.url })),
        quizzes: quizChoices(managed.db),
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
      if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
        return addMaterialFromUpload(request, context, managed, course.id, here);
      }
      const formData = await readForm(request, context);
      const intent = text(formData, "intent") ?? "save";
      const refuse = (reply: CoursePageReply) => json(reply, { status: 400 });
      const lessonMove = moveIntent(formData, "move-lesson");
      if (lessonMove) {
        if (getLesson(managed.db, lessonMove.id)?.courseId === course.id)
          moveLesson(managed.db, lessonMove.id, { direction: lessonMove.direction });
        return redirect(here);
      }
      switch (intent) {
        case "save": {
          const submission = parseForm(formData, courseResource.createSchema);
          if (submission.status !== "success") return refuse({ form: "course", result: submission.reply() });
          const { links: _links, ...changes } = submission.value;
          const result = courseResource.update!(managed.db, managed.viewer, course.id, changes);
          if (result && !result.ok) return refuse({ form: "course", result: submission.reply({ fieldErrors: failed(result) }) });
          return redirectWithFlash(here, "flash.courseSaved");
        }
        case "publish":
        case "unpublish": {
          const result = courseResource.update!(managed.db, managed.viewer, course.id, { published: intent === "publish" });
          if (result && !result.ok) return refuse({ form: "publish", errors: [result.message] });
          return redirectWithFlash(here, "flash.courseSaved");
        }
        case "add-lesson": {
          const read = lessonSubmission(managed.db, formData);
          if (!read.ok) return refuse({ form: "lesson", result: read.reply });
          const result = managed.db.transaction((tx) => {
            const created = createLesson(tx, { course_id: course.id, ...read.lesson, duration_seconds: null });
            if (created.ok && read.quizId) linkQuizLesson(tx, read.quizId, created.value.id);
            return created;
          });
          if (!result.ok) return refuse({ form: "lesson", result: read.submission.reply(lessonRefusal(result)) });
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
        case "add-link": {
          const submission = parseForm(formData, courseLinkFormSchema);
          if (submission.status !== "success") return refuse({ form: "link", result: submission.reply() });
          const current = courseLinks(managed.db, course.id).map(({ title, url }) => ({ title, url }));
          if (current.length >= MAX_LINKS)
            return refuse({ form: "link", result: submission.reply({ formErrors: [`courses.tooManyLinks|${MAX_LINKS}`] }) });
          const result = courseResource.update!(managed.db, managed.viewer, course.id, {
            links: [...current, { title: submission.value.link_title, url: submission.value.link_url }],
          });
          if (result && !result.ok) return refuse({ form: "link", result: submission.reply({ formErrors: [result.message] }) });
          return redirect(here);
        }
        case "remove-link": {
          const id = Number(text(formData, "id"));
          const links = courseLinks(managed.db, course.id);
          if (links.some((l) => l.id === id)) {
            courseResource.update!(managed.db, managed.viewer, course.id, {
              links: links.filter((l) => l.id !== id).map(({ title, url }) => ({ title, url })),
            });
          }
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

function quizChoices(db: TenantConn) {
  return listQuizzes(db, { limit: 500 }).items.map((row) => ({ id: row.quiz.id, title: row.quiz.title }));
}

async function addMaterialFromUpload(
  request: Request,
  context: ActionFunctionArgs["context"],
  managed: Managed,
  courseId: number,
  here: string,
) {
  return handleUpload(
    request,
    context,
    { organizationId: managed.organization.id, field: "file" },
    async (upload) => {
      const stored = await upload.store(managed.db, managed.area === "dashboard" ? managed.viewer.person.id : null);
      // Uploaded here, a file can become a material of this course, or wait in the organization's library
      // to be chosen as a lesson's image or video, the cover, or a download course's file.
      if (upload.fields.get("as_material") === "on") {
        const title = String(upload.fields.get("title") ?? "").trim() || stored.name;
        const added = addMaterial(managed.db, { course_id: courseId, file_id: stored.id, title: title.slice(0, 200) });
        if (!added.ok) return json<CoursePageReply>({ form: "material", errors: [added.message] }, { status: 400 });
      }
      return redirect(here);
    },
    ({ status, message }) => json<CoursePageReply>({ form: "material", errors: [message] }, { status }),
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
        lesson: {
          title: lesson.title,
          kind: lesson.kind,
          body: lesson.body,
          video_url: lesson.videoUrl ?? "",
          file_id: lesson.fileId ? String(lesson.fileId) : "",
          quiz_id: String(quizIdOfLesson(managed.db, lesson.id) ?? ""),
        },
        quizzes: quizChoices(managed.db),
        media: listFiles(managed.db, { page: { page: 1, perPage: 200 } })
          .items.filter((f) => f.kind === "image" || f.kind === "video")
          .map((f) => ({ id: f.id, name: f.name })),
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
      const formData = await readForm(request, context);
      const read = lessonSubmission(managed.db, formData);
      if (!read.ok) return json(read.reply, { status: 400 });
      const result = managed.db.transaction((tx) => {
        const updated = updateLesson(tx, lesson.id, read.lesson);
        if (updated?.ok) {
          if (read.quizId) linkQuizLesson(tx, read.quizId, lesson.id);
          else unlinkQuizLesson(tx, lesson.id);
        }
        return updated;
      });
      if (result && !result.ok) return json(read.submission.reply(lessonRefusal(result)), { status: 400 });
      return redirectWithFlash(`${coursesBase(managed)}/${course.id}`, "flash.lessonSaved");
    });
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
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const course = courseFrom(managed, params.courseId);
      await readForm(request, context);
      courseResource.remove!(managed.db, managed.viewer, course.id);
      return redirectWithFlash(coursesBase(managed), "flash.courseDeleted");
    });
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
