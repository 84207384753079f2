import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z, type ZodError } from "zod";
import { listCategories } from "~/models/category.server";
import { courseLinks, courseResource, getCourse, moveCourse } from "~/models/course.server";
import { addMaterial, deleteMaterial, listMaterials } from "~/models/material.server";
import { createLesson, deleteLesson, getLesson, lessonResource, listLessons, moveLesson, updateLesson } from "~/models/lesson.server";
import { getFile, listFiles } from "~/models/file.server";
import { getJob } from "~/models/job.server";
import { getQuiz, linkQuizLesson, listQuizzes, quizIdOfLesson, unlinkQuizLesson } from "~/models/quiz.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { checkbox, moveIntent, optionalNumber, optionalText, text } from "~/utils/form-data.server";
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

export type FormChoices = ReturnType<typeof formChoices>;

function formChoices(managed: Managed) {
  return {
    categories: listCategories(managed.db).map((c) => ({ id: c.id, name: c.name })),
    courses: courseResource.list(managed.db, managed.viewer, { page: 1, perPage: 500 }, {}) as { items: Array<{ id: number; title: string }> },
    documents: listFiles(managed.db, { page: { page: 1, perPage: 200 } }).items.map((f) => ({ id: f.id, name: f.name, kind: f.kind })),
  };
}

// ——— list ———

export function coursesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const { items } = courseResource.list(managed.db, managed.viewer, { page: 1, perPage: 500 }, {}) as { items: Array<{ id: number; title: string; type: string; published: boolean }> };
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
      const result = courseResource.create!(managed.db, managed.viewer, parsed.data);
      if (!result.ok) return json({ errors: failed(result) }, { status: 400 });
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
        } as Record<string, string | boolean | null>,
        lessons: listLessons(managed.db, course.id).map((l) => ({ id: l.id, title: l.title, kind: l.kind })),
        materials: listMaterials(managed.db, course.id).map((m) => ({ id: m.id, title: m.title, file: getFile(managed.db, m.fileId)?.name ?? "" })),
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
          const result = courseResource.update!(managed.db, managed.viewer, course.id, changes);
          if (result && !result.ok) return json({ errors: failed(result) }, { status: 400 });
          return redirectWithFlash(here, "flash.courseSaved");
        }
        case "publish":
        case "unpublish": {
          const result = courseResource.update!(managed.db, managed.viewer, course.id, { published: intent === "publish" });
          if (result && !result.ok) return json({ errors: failed(result) }, { status: 400 });
          return redirectWithFlash(here, "flash.courseSaved");
        }
        case "add-lesson": {
          const parsed = lessonInput(formData, course.id);
          if (!parsed.success) return json({ errors: prefix("lesson_", zodErrors(parsed.error)) }, { status: 400 });
          const quiz = lessonQuiz(managed.db, parsed.data.kind, formData);
          if (!quiz.ok) return json({ errors: quiz.errors }, { status: 400 });
          const result = managed.db.transaction((tx) => {
            const created = createLesson(tx, parsed.data);
            if (created.ok && quiz.quizId) linkQuizLesson(tx, quiz.quizId, created.value.id);
            return created;
          });
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
          const result = courseResource.update!(managed.db, managed.viewer, course.id, parsed.data);
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
  return lessonResource.createSchema.safeParse({
    course_id: courseId,
    title: text(formData, "lesson_title") ?? "",
    kind: text(formData, "lesson_kind") ?? "text",
    body: text(formData, "lesson_body") ?? "",
    video_url: optionalText(formData, "lesson_video_url"),
    file_id: optionalNumber(formData, "lesson_file_id"),
  });
}

/** A `quiz` lesson shows one of this organization's quizzes, picked in the lesson form. */
const quizIdSchema = z.number({ required_error: "fixes.lessonQuiz.required", invalid_type_error: "fixes.lessonQuiz.unknown" }).int("fixes.lessonQuiz.unknown").positive("fixes.lessonQuiz.unknown");

function lessonQuiz(db: TenantConn, kind: string, formData: FormData): { ok: true; quizId: number | null } | { ok: false; errors: Errors } {
  if (kind !== "quiz") return { ok: true, quizId: null };
  const parsed = quizIdSchema.safeParse(optionalNumber(formData, "lesson_quiz_id") ?? undefined);
  if (!parsed.success) return { ok: false, errors: { lesson_quiz_id: [parsed.error.issues[0]?.message ?? "fixes.lessonQuiz.required"] } };
  // The tenant database holds only this organization's quizzes: another organization's id is not found.
  if (!getQuiz(db, parsed.data)) return { ok: false, errors: { lesson_quiz_id: ["fixes.lessonQuiz.unknown"] } };
  return { ok: true, quizId: parsed.data };
}

function quizChoices(db: TenantConn) {
  return listQuizzes(db, { limit: 500 }).items.map((row) => ({ id: row.quiz.id, title: row.quiz.title }));
}

async function addMaterialFromUpload(request: Request, context: ActionFunctionArgs["context"], managed: Managed, courseId: number, here: string) {
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
        if (!added.ok) return json({ errors: { material: [added.message] } }, { status: 400 });
      }
      return redirect(here);
    },
    ({ status, message }) => json({ errors: { material: [message] } }, { status }),
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
      const quiz = lessonQuiz(managed.db, String(parsed.data.kind ?? lesson.kind), formData);
      if (!quiz.ok) return json({ errors: quiz.errors }, { status: 400 });
      const result = managed.db.transaction((tx) => {
        const updated = updateLesson(tx, lesson.id, parsed.data);
        if (updated?.ok) {
          if (quiz.quizId) linkQuizLesson(tx, quiz.quizId, lesson.id);
          else unlinkQuizLesson(tx, lesson.id);
        }
        return updated;
      });
      if (result && !result.ok) return json({ errors: prefix("lesson_", failed(result)) }, { status: 400 });
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
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const course = courseFrom(managed, params.courseId);
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