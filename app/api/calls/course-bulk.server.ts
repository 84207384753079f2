import { z } from "zod";
import { mayStartCourseBulk } from "~/access/rules";
import { COURSE_BULK_JOB, courseBulkJobOf, courseBulkView, MAX_COURSES, prepareCourseBulk } from "~/models/course-bulk/job.server";
import { courseListIds } from "~/models/course-list.server";
import { COURSE_BULK_ACTIONS } from "~/models/forms/course-bulk";
import { courseListFilters } from "~/models/forms/course-list";
import { COURSE_TYPES } from "~/models/vocabulary";
import { getJob } from "~/models/job.server";
import { apiNotFound } from "~/utils/api.server";
import { bulkFilterRefused, bulkJobReply, bulkRefused } from "../bulk.server";
import { call, E, guarded, id, type ApiCall } from "../contract.server";

/**
 * Bulk actions on courses (issue 50; app/models/course-bulk/): the same as the courses list's, by ids or by the
 * list's filters, as a background job whose progress and outcome are read back. Whoever may change courses
 * (`write:course`) does them all, each course as its own page would change it.
 */
const filter = z
  .object({
    q: z.string().trim().max(200).optional(),
    category: id.optional(),
    kind: z.enum(COURSE_TYPES).optional(),
    state: z.enum(["published", "draft"]).optional(),
  })
  .strict();

const bulkBody = z
  .object({
    action: z.enum(COURSE_BULK_ACTIONS),
    course_ids: z.array(id).max(MAX_COURSES).optional(),
    filter: filter.optional(),
    category_id: id.nullable().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.course_ids === undefined) === (v.filter === undefined))
      ctx.addIssue({ code: "custom", path: ["course_ids"], message: "Give either course_ids or filter." });
    if (v.action === "move" && v.category_id === undefined)
      ctx.addIssue({ code: "custom", path: ["category_id"], message: "Required for this action (null: no category)." });
  });

const jobReply = bulkJobReply(COURSE_BULK_ACTIONS);

const exampleJob = {
  id: 42,
  status: "done",
  progress: 100,
  action: "unpublish",
  total: 40,
  done: 37,
  unchanged: 3,
  refused: {},
  error: null,
};

export const courseBulkCalls: ApiCall[] = [
  call({
    method: "POST",
    path: "/api/courses/bulk",
    tag: "Courses",
    summary: "Act on many courses at once",
    description:
      "Publishes or unpublishes courses, moves them to a category (`category_id`; null takes them out of every category) or deletes them with everything in them (lessons, materials, links, and every learner's progress, completions, ratings and assignments in them; certificates issued stay): the courses named by `course_ids`, or every course the courses list's `filter` matches (its `q`, `category`, `kind` and `state`; a filter that does not parse is refused, never widened). Runs as a background job: the reply is the job, to be read with `GET /api/courses/bulk/{id}` until its `status` is `done`, then `done`, `unchanged` and `refused` (counts by reason: `gone`, `invalid` — a course its own page would refuse so, such as a download course without its file published). Every course changed is in the audit. Nothing is changed when the action is refused.",
    access: "write:course",
    body: bulkBody,
    reply: jobReply,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { action: "unpublish", filter: { category: 3, state: "published" } },
      reply: { ...exampleJob, status: "queued", progress: 0, done: null, unchanged: null, refused: null },
    },
    handler: async ({ request, context, viewer, body }) => {
      const db = context.db!;
      let ids = body.course_ids ?? [];
      if (body.filter) {
        const filter: Record<string, unknown> = body.filter;
        const { query, invalid } = courseListFilters((name) => filter[name]);
        if (invalid) return bulkFilterRefused(request, context, "courseBulk.errors.filters");
        ids = courseListIds(db, viewer, query);
      }
      const prepared = prepareCourseBulk(db, viewer, { action: body.action, params: { categoryId: body.category_id }, ids }, "api");
      if (!prepared.ok) return bulkRefused(request, context, prepared, { bulkCategory: "category_id", ids: "course_ids" });
      const job = context.platform.jobs.enqueue(context.organization!.id, db, COURSE_BULK_JOB, prepared.payload);
      return courseBulkView(job);
    },
  }),
  call({
    method: "GET",
    path: "/api/courses/bulk/{id}",
    tag: "Courses",
    summary: "A bulk action on courses: its progress and outcome",
    description: "The job `POST /api/courses/bulk` started, as it is now.",
    access: "write:course",
    reply: jobReply,
    errors: guarded(),
    example: { reply: exampleJob },
    handler: ({ request, context, params, viewer }) => {
      const job = /^\d{1,15}$/.test(params.id ?? "") ? courseBulkJobOf(getJob(context.db!, Number(params.id))) : undefined;
      if (!job || !mayStartCourseBulk(viewer)) return apiNotFound(request, context);
      return courseBulkView(job);
    },
  }),
];
