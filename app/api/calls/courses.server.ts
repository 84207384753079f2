import { z } from "zod";
import { carouselResource, moveCarousel } from "~/models/carousel.server";
import { categoryResource, moveCategory } from "~/models/category.server";
import { courseResource, getCourse, moveCourse } from "~/models/course.server";
import { getJob, jobView as jobReply } from "~/models/job.server";
import { courseAccess } from "~/access/courses";
import { findCourse } from "~/models/course-lookup.server";
import { courseRating, rateCourse } from "~/models/ratings.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { isLanguage } from "~/utils/i18n";
import { getFixedT } from "~/utils/i18n.server";
import { call, E, guarded, id, isoDate, type ApiCall } from "../contract.server";
import { moveCall, resourceCalls } from "../resource.server";

/** The catalogue: courses, their categories and carousels (docs/product.md §7 "Courses"). */
const nullableId = id.nullable();

export const courseView = z.object({
  id,
  title: z.string(),
  description: z.string(),
  type: z.string(),
  published: z.boolean(),
  block_default_access: z.boolean(),
  prerequisite_course_id: nullableId,
  category_id: nullableId,
  allow_certificates: z.boolean(),
  allow_quizzes: z.boolean(),
  force_groups: z.boolean(),
  external_url: z.string().nullable(),
  file_id: nullableId,
  cover_file_id: nullableId,
  sequential_lessons: z.boolean(),
  position: z.number().int(),
  // Recertification (issue 34): months a completion is valid (null: for good), days before expiry it is assigned again.
  validity_months: z.number().int().nullable(),
  reassign_days_before: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
});

const categoryView = z.object({
  id,
  name: z.string(),
  position: z.number().int(),
  course_count: z.number().int().optional(),
  created_at: isoDate,
  updated_at: isoDate,
});

const carouselView = z.object({
  id,
  title: z.string(),
  published: z.boolean(),
  position: z.number().int(),
  course_ids: z.array(id),
  created_at: isoDate,
  updated_at: isoDate,
});

const stamp = { created_at: "2026-05-04T09:30:00.000Z", updated_at: "2026-05-04T09:30:00.000Z" };

const courseExample = {
  id: 7,
  title: "Safety basics",
  description: "What everyone on site needs to know.",
  type: "video",
  published: true,
  block_default_access: false,
  prerequisite_course_id: null,
  category_id: 2,
  allow_certificates: true,
  allow_quizzes: true,
  force_groups: false,
  external_url: null,
  file_id: null,
  cover_file_id: 12,
  sequential_lessons: false,
  position: 0,
  validity_months: 12,
  reassign_days_before: 30,
  ...stamp,
};

export const ratingQuery = z.object({ course_id: z.coerce.number().int().positive() });
export const ratingBody = z.object({ course_id: z.number().int().positive(), stars: z.number().int().min(1).max(5) });

export const jobView = z.object({
  id,
  kind: z.string(),
  status: z.enum(["queued", "running", "done", "failed"]),
  progress: z.number(),
  result: z.unknown(),
  error: z.string().nullable(),
  created_at: isoDate,
  started_at: isoDate.nullable(),
  finished_at: isoDate.nullable(),
});
export const jobExample = {
  id: 4,
  kind: "course.clone",
  status: "queued",
  progress: 0,
  result: null,
  error: null,
  created_at: stamp.created_at,
  started_at: null,
  finished_at: null,
};

export const courseCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/courses",
    tag: "Courses",
    noun: "course",
    view: courseView,
    resource: courseResource,
    readNote: "Learners see published courses only.",
    createExample: { title: "Safety basics", description: "What everyone on site needs to know.", published: false },
    updateExample: { published: true },
    replyExample: courseExample,
  }),
  moveCall("/api/courses", "Courses", "course", "write:course", " in the catalogue", (db, _viewer, id, to) => moveCourse(db, id, to)),
  ...resourceCalls({
    base: "/api/courses/categories",
    tag: "Categories",
    noun: "category",
    view: categoryView,
    resource: categoryResource,
    createExample: { name: "Onboarding" },
    updateExample: { name: "Onboarding 2026" },
    replyExample: { id: 2, name: "Onboarding", position: 0, course_count: 3, ...stamp },
  }),
  moveCall("/api/courses/categories", "Categories", "category", "write:category", "", (db, _viewer, id, to) => moveCategory(db, id, to)),
  ...resourceCalls({
    base: "/api/courses-carousels",
    tag: "Carousels",
    noun: "carousel",
    view: carouselView,
    resource: carouselResource,
    createExample: { title: "New this month", published: true, course_ids: [7, 9] },
    updateExample: { published: false },
    replyExample: { id: 3, title: "New this month", published: true, position: 0, course_ids: [7, 9], ...stamp },
  }),
  moveCall("/api/courses-carousels", "Carousels", "carousel", "write:carousel", "", (db, _viewer, id, to) => moveCarousel(db, id, to)),
  call({
    method: "POST",
    path: "/api/courses/{id}/clone",
    tag: "Courses",
    summary: "Copy a course in the background",
    description: "Answers 202 with the job; `GET /api/jobs/{id}` follows it.",
    access: "write:course",
    reply: jobView,
    status: 202,
    errors: guarded(),
    example: { reply: jobExample },
    // The copy may take up to about ten minutes (docs/product.md §4): it runs as a job.
    handler: async ({ request, context, params }) => {
      const organization = context.organization!;
      const db = context.db!;
      const course = /^\d{1,15}$/.test(params.id) ? getCourse(db, Number(params.id)) : undefined;
      if (!course) return apiNotFound(request, context);
      const language = organization.language;
      const t = await getFixedT(isLanguage(language) ? language : "en");
      const job = context.platform.jobs.enqueue(organization.id, db, "course.clone", {
        course_id: course.id,
        title: t("courses.copyTitle", { title: course.title }),
      });
      return jobReply(job);
    },
  }),
  call({
    method: "GET",
    path: "/api/jobs/{id}",
    tag: "Courses",
    summary: "A background job",
    description: "Status, progress (0–1) and result.",
    access: "write:course",
    reply: jobView,
    errors: guarded(),
    example: {
      reply: {
        ...jobExample,
        status: "done",
        progress: 1,
        result: { course_id: 9 },
        started_at: stamp.created_at,
        finished_at: stamp.created_at,
      },
    },
    handler: ({ request, context, params }) => {
      const job = /^\d{1,15}$/.test(params.id) ? getJob(context.db!, Number(params.id)) : undefined;
      return job ? jobReply(job) : apiNotFound(request, context);
    },
  }),
  call({
    method: "GET",
    path: "/api/courses/ratings",
    tag: "Learning",
    summary: "A course's rating",
    description: "The average (one decimal), the count and the caller's own stars.",
    access: "read:course",
    query: ratingQuery,
    reply: z.object({ course_id: id, average: z.number().nullable(), count: z.number().int(), mine: z.number().int().nullable() }),
    errors: guarded(E.invalid),
    example: { query: { course_id: "7" }, reply: { course_id: 7, average: 4.5, count: 12, mine: 5 } },
    handler: ({ request, context, viewer, query }) => {
      if (!findCourse(context.db!, viewer, query.course_id)) return apiNotFound(request, context);
      return { course_id: query.course_id, ...courseRating(context.db!, query.course_id, viewer.person?.id) };
    },
  }),
  call({
    method: "POST",
    path: "/api/courses/ratings",
    tag: "Learning",
    summary: "Rate a course (1–5)",
    description: "One rating per learner; a new one replaces it.",
    access: "learn:course",
    body: ratingBody,
    reply: z.object({ course_id: id, average: z.number().nullable(), count: z.number().int(), mine: z.number().int().nullable() }),
    errors: guarded(E.invalid, E.invalidBody, {
      status: 403,
      code: "prerequisite",
      when: "the caller may not open the course (also `limited`, `login`)",
    }),
    example: { body: { course_id: 7, stars: 5 }, reply: { course_id: 7, average: 4.6, count: 13, mine: 5 } },
    handler: async ({ request, context, viewer, body }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const course = findCourse(db, viewer, body.course_id);
      if (!course) return apiNotFound(request, context);
      const access = courseAccess(db, viewer, course);
      if (!access.allowed) {
        const t = await apiT(request, context);
        return apiError(403, { message: t(`access.${access.reason}`), code: access.reason });
      }
      rateCourse(db, viewer.person.id, course.id, body.stars);
      return { course_id: course.id, ...courseRating(db, course.id, viewer.person.id) };
    },
  }),
];
