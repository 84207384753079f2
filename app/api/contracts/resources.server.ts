import { z, type ZodTypeAny } from "zod";
import { carouselResource } from "~/models/carousel.server";
import { categoryResource } from "~/models/category.server";
import { templateResource } from "~/models/certificate.server";
import { courseResource } from "~/models/course.server";
import { lessonResource } from "~/models/lesson.server";
import { levelResource } from "~/models/level-resource.server";
import { materialResource } from "~/models/material.server";
import { moveSchema } from "~/models/ordering.server";
import { quizResource } from "~/models/quiz-resource.server";
import { userResource } from "~/models/user-resource.server";
import { pageSchema } from "~/utils/pagination";
import { searchSchema } from "~/kernel/resource.server";
import type { Resource } from "~/models/resource";
import type { Capability } from "~/utils/capabilities";
import { deleted, E, guarded, id, isoDate, moved, page, type ApiCall } from "../contract.server";

/* ---------- the views the generic calls answer with ---------- */

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
  created_at: isoDate,
  updated_at: isoDate,
});

export const lessonView = z.object({
  id,
  course_id: id,
  title: z.string(),
  kind: z.string(),
  body: z.string(),
  file_id: nullableId,
  video_url: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  position: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
});

const materialView = z.object({ id, course_id: id, file_id: id, title: z.string(), position: z.number().int(), created_at: isoDate });

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

const templateView = z.object({
  id,
  name: z.string(),
  is_default: z.boolean(),
  layout: z.object({
    page_size: z.string(),
    orientation: z.string(),
    background_file_id: nullableId,
    show_logo: z.boolean(),
    show_qr: z.boolean(),
    blocks: z.array(z.object({}).passthrough()),
  }),
  course_ids: z.array(id),
  created_at: isoDate,
  updated_at: isoDate,
});

const levelView = z.object({ id, name: z.string(), threshold: z.number().int(), color: z.string(), updated_at: isoDate });

const quizSummary = z.object({
  id,
  title: z.string(),
  description: z.string(),
  deadline: isoDate.nullable(),
  pass_min: z.number(),
  max_attempts: z.number().int().nullable(),
  question_count: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
});
/** Learners get the summary; those who may read quizzes also get the questions with their answers. */
const quizView = quizSummary.extend({ questions: z.array(z.object({ id, type: z.string(), prompt: z.string() }).passthrough()).optional() });

export const userView = z.object({
  id,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  language: z.string().nullable(),
  type: z.string().nullable(),
  managed_externally: z.boolean(),
  disabled: z.boolean(),
  created_at: isoDate,
});

/* ---------- the generic calls of a resource ---------- */

interface ResourceDoc {
  base: string;
  tag: string;
  noun: string;
  view: ZodTypeAny;
  resource: Resource<unknown, ZodTypeAny, ZodTypeAny>;
  createExample?: unknown;
  updateExample?: unknown;
  replyExample: unknown;
  /** Filters of the list call beyond the page (e.g. `course_id`). */
  filters?: string;
  /** The list and read calls' capability when it differs from the resource's `read`. */
  readNote?: string;
  /** Set when the route modules answer PUT/DELETE themselves (users). */
  itemWrites?: false;
}

function resourceCalls(doc: ResourceDoc): ApiCall[] {
  const { base, tag, noun, view, resource } = doc;
  const read = resource.read;
  const write = resource.write;
  const calls: ApiCall[] = [
    {
      method: "GET",
      path: base,
      tag,
      summary: `List ${noun}s`,
      description: `Paginated, oldest position first.${doc.filters ? ` ${doc.filters}` : ""}${doc.readNote ? ` ${doc.readNote}` : ""}`,
      access: read,
      query: pageSchema,
      reply: page(view),
      errors: guarded(E.invalid),
      example: { query: { page: "1", per_page: "20" }, reply: { data: [doc.replyExample], meta: { current_page: 1, per_page: 20, total: 1, last_page: 1 } } },
    },
    {
      method: "GET",
      path: `${base}/search`,
      tag,
      summary: `Search ${noun}s`,
      description: "`q` is matched against the names and titles; paginated.",
      access: read,
      query: searchSchema,
      reply: page(view),
      errors: guarded(E.invalid),
      example: { query: { q: "intro" }, reply: { data: [doc.replyExample], meta: { current_page: 1, per_page: 20, total: 1, last_page: 1 } } },
    },
    {
      method: "GET",
      path: `${base}/{id}`,
      tag,
      summary: `Read one ${noun}`,
      access: read,
      reply: view,
      errors: guarded(),
      example: { reply: doc.replyExample },
    },
  ];
  if (resource.create) {
    calls.push({
      method: "POST",
      path: base,
      tag,
      summary: `Create a ${noun}`,
      description: "Unknown fields are ignored.",
      access: write,
      body: resource.createSchema,
      reply: view,
      status: 201,
      errors: guarded(E.invalid, E.invalidBody),
      example: { body: doc.createExample, reply: doc.replyExample },
    });
  }
  if (resource.update && doc.itemWrites !== false) {
    calls.push({
      method: "PUT",
      path: `${base}/{id}`,
      tag,
      summary: `Change a ${noun}`,
      description: "Only the fields sent change.",
      access: write,
      body: resource.updateSchema,
      reply: view,
      errors: guarded(E.invalid, E.invalidBody),
      example: { body: doc.updateExample, reply: doc.replyExample },
    });
  }
  if (resource.remove && doc.itemWrites !== false) {
    calls.push({
      method: "DELETE",
      path: `${base}/{id}`,
      tag,
      summary: `Delete a ${noun}`,
      access: write,
      reply: deleted,
      errors: guarded(),
      example: { reply: { id: 7, deleted: true } },
    });
  }
  return calls;
}

function moveCall(base: string, tag: string, noun: string, access: Capability, note: string): ApiCall {
  return {
    method: "POST",
    path: `${base}/{id}/move`,
    tag,
    summary: `Reorder a ${noun}`,
    description: `Moves it to \`position\` (0-based) or one step \`up\`/\`down\`${note}.`,
    access,
    body: moveSchema,
    reply: moved,
    errors: guarded(E.invalid, E.invalidBody),
    example: { body: { direction: "up" }, reply: { id: 7, moved: true } },
  };
}

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
  ...stamp,
};

const lessonExample = {
  id: 31,
  course_id: 7,
  title: "Welcome",
  kind: "text",
  body: "<p>Hello!</p>",
  file_id: null,
  video_url: null,
  duration_seconds: null,
  position: 0,
  ...stamp,
};

export const resourceContracts: ApiCall[] = [
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
  moveCall("/api/courses", "Courses", "course", "write:course", " in the catalogue"),
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
  moveCall("/api/courses/categories", "Categories", "category", "write:category", ""),
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
  moveCall("/api/courses-carousels", "Carousels", "carousel", "write:carousel", ""),
  ...resourceCalls({
    base: "/api/lessons",
    tag: "Lessons",
    noun: "lesson",
    view: lessonView,
    resource: lessonResource,
    filters: "`course_id` narrows the list to one course.",
    createExample: { course_id: 7, title: "Welcome", kind: "text", body: "<p>Hello!</p>" },
    updateExample: { title: "Welcome aboard" },
    replyExample: lessonExample,
  }),
  moveCall("/api/lessons", "Lessons", "lesson", "write:course", " within its course"),
  ...resourceCalls({
    base: "/api/materials",
    tag: "Materials",
    noun: "material",
    view: materialView,
    resource: materialResource,
    filters: "`course_id` narrows the list to one course.",
    createExample: { course_id: 7, file_id: 12, title: "Checklist (PDF)" },
    updateExample: { title: "Site checklist (PDF)" },
    replyExample: { id: 4, course_id: 7, file_id: 12, title: "Checklist (PDF)", position: 0, created_at: stamp.created_at },
  }),
  ...resourceCalls({
    base: "/api/certificates/templates",
    tag: "Certificates",
    noun: "certificate template",
    view: templateView,
    resource: templateResource,
    createExample: { name: "Classic", is_default: false, course_ids: [7] },
    updateExample: { is_default: true },
    replyExample: {
      id: 1,
      name: "Classic",
      is_default: true,
      layout: { page_size: "A4", orientation: "landscape", background_file_id: null, show_logo: true, show_qr: true, blocks: [] },
      course_ids: [7],
      ...stamp,
    },
  }),
  ...resourceCalls({
    base: "/api/leaderboard/levels",
    tag: "Leaderboard",
    noun: "level",
    view: levelView,
    resource: levelResource,
    createExample: { name: "Gold", threshold: 1000, color: "#d4a017" },
    updateExample: { threshold: 1200 },
    replyExample: { id: 3, name: "Gold", threshold: 1000, color: "#d4a017", updated_at: stamp.updated_at },
  }),
  ...resourceCalls({
    base: "/api/quizzes",
    tag: "Quizzes",
    noun: "quiz",
    view: quizView,
    resource: quizResource,
    readNote: "Learners see the quizzes of courses they may open, without answers.",
    createExample: { title: "Safety check", pass_min: 80 },
    updateExample: { pass_min: 70 },
    replyExample: { id: 5, title: "Safety check", description: "", deadline: null, pass_min: 80, max_attempts: null, question_count: 0, ...stamp },
  }),
  ...resourceCalls({
    base: "/api/users",
    tag: "Users",
    noun: "user",
    view: userView,
    resource: userResource,
    itemWrites: false,
    readNote: "Group admins see the members of their groups.",
    replyExample: {
      id: 12,
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: null,
      language: "en",
      type: "learner",
      managed_externally: false,
      disabled: false,
      created_at: stamp.created_at,
    },
  }),
];
