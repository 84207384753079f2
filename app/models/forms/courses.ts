import { z } from "zod";
import { COURSE_TYPES, LESSON_KINDS } from "../vocabulary";

/**
 * A course's and a lesson's fields, as /api takes them (app/models/course.server.ts and lesson.server.ts build
 * their resource schemas from these) and as the authoring forms post them (app/screens/organization-courses.tsx).
 * Not a .server module: the browser checks the forms with the same schemas (app/utils/form.ts).
 */
const httpUrl = z
  .string()
  .max(2000)
  .url("validation.url")
  .refine((v) => /^https?:\/\//i.test(v), "validation.url");

/** One of a course's links. */
export const courseLinkSchema = z.object({ title: z.string().trim().min(1, "validation.required").max(200), url: httpUrl });

export const courseFields = {
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  description: z.string().max(20_000).default(""),
  type: z.enum(COURSE_TYPES).default("movie"),
  published: z.boolean().default(false),
  block_default_access: z.boolean().default(false),
  prerequisite_course_id: z.number().int().positive().nullable().default(null),
  category_id: z.number().int().positive().nullable().default(null),
  allow_certificates: z.boolean().default(false),
  allow_quizzes: z.boolean().default(false),
  force_groups: z.boolean().default(false),
  external_url: httpUrl.nullable().default(null),
  file_id: z.number().int().positive().nullable().default(null),
  cover_file_id: z.number().int().positive().nullable().default(null),
  sequential_lessons: z.boolean().default(false),
  /** Left out, a new course goes to the end of the list; order is changed with move. */
  position: z.number().int().min(0).optional(),
  links: z.array(courseLinkSchema).max(50).optional(),
  // Recertification (issue 34; app/models/recertification.server.ts): a completion is valid this many
  // months (null or empty: for good), and its holders are assigned the course again this many days before.
  validity_months: z.number().int().min(1).max(120).nullable().default(null),
  reassign_days_before: z.number().int().min(1).max(365).default(30),
};

/** A new course (/api's create body and the course form: unknown fields such as `id` are dropped). */
export const courseSchema = z.object(courseFields);

/** The course page's link form: one more link. */
export const courseLinkFormSchema = z.object({ link_title: courseLinkSchema.shape.title, link_url: courseLinkSchema.shape.url });

export const lessonFields = {
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  kind: z.enum(LESSON_KINDS).default("text"),
  body: z.string().max(100_000).default(""),
  file_id: z.number().int().positive().nullable().default(null),
  video_url: httpUrl.nullable().default(null),
  duration_seconds: z.number().int().min(0).max(86_400).nullable().default(null),
};

/**
 * The lesson form (added on the course page, edited on the lesson page): the lesson's fields under `lesson_`
 * names, and for a `quiz` lesson the quiz it shows, one of the organization's (whether it is one is the
 * server's to say). Read as the lesson's fields and its quiz (null for any other kind).
 */
export const lessonFormSchema = z
  .object({
    lesson_title: lessonFields.title,
    lesson_kind: lessonFields.kind,
    lesson_body: lessonFields.body,
    lesson_video_url: lessonFields.video_url,
    lesson_file_id: lessonFields.file_id,
    lesson_quiz_id: z.string().trim().optional(),
  })
  .superRefine((form, ctx) => {
    if (form.lesson_kind !== "quiz") return;
    if (!form.lesson_quiz_id) ctx.addIssue({ code: "custom", path: ["lesson_quiz_id"], message: "fixes.lessonQuiz.required" });
    else if (!/^[1-9]\d{0,14}$/.test(form.lesson_quiz_id))
      ctx.addIssue({ code: "custom", path: ["lesson_quiz_id"], message: "fixes.lessonQuiz.unknown" });
  })
  .transform((form) => ({
    lesson: {
      title: form.lesson_title,
      kind: form.lesson_kind,
      body: form.lesson_body,
      video_url: form.lesson_video_url,
      file_id: form.lesson_file_id,
    },
    quizId: form.lesson_kind === "quiz" && form.lesson_quiz_id ? Number(form.lesson_quiz_id) : null,
  }));
