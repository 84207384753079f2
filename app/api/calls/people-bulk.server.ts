import { z } from "zod";
import { manageableGroupIds, mayReadPeopleBulk, mayStartAnyPeopleBulk } from "~/access/rules";
import { PEOPLE_BULK_ACTIONS } from "~/models/forms/people-bulk";
import { userListFilters } from "~/models/forms/user-list";
import { getJob } from "~/models/job.server";
import { MAX_PEOPLE, PEOPLE_BULK_JOB, peopleBulkJobOf, peopleBulkView, preparePeopleBulk } from "~/models/people-bulk/job.server";
import { userListIds } from "~/models/user-list.server";
import { apiForbidden, apiNotFound } from "~/utils/api.server";
import { bulkFilterRefused, bulkJobReply, bulkRefused } from "../bulk.server";
import { isDate } from "~/utils/calendar";
import { call, E, guarded, id, type ApiCall } from "../contract.server";

/**
 * Bulk actions on people (issue 50; app/models/people-bulk/): the same as the people list's, by ids or by the list's
 * filters, as a background job whose progress and outcome are read back. Organization admins do them all; a group
 * admin adds to and takes out of the groups they administer, each person as the group screens allow.
 */
const filterFields = {
  q: z.string().trim().max(200).optional(),
  role: z.enum(["admin", "learner", "none"]).optional(),
  group: id.optional(),
  status: z.enum(["active", "disabled"]).optional(),
  language: z.string().max(10).optional(),
};
const filter = z.object(filterFields).strict();

/**
 * The people list's search and filters in a query (`GET /api/users/export`), and the ticked rows as `ids`: an unknown
 * parameter is refused (422) rather than left out, as a misspelt filter would otherwise export everyone.
 */
export const peopleExportQuery = z
  .object({
    ...filterFields,
    group: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    ids: z
      .string()
      .max(16_000)
      .regex(/^\d{1,15}(,\d{1,15}){0,999}$/, "Up to 1,000 ids, separated by commas.")
      .optional()
      .describe("the people chosen, by id, separated by commas (at most 1,000)"),
  })
  .strict();

const bulkBody = z
  .object({
    action: z.enum(PEOPLE_BULK_ACTIONS),
    user_ids: z.array(id).max(MAX_PEOPLE).optional(),
    filter: filter.optional(),
    group_id: id.optional(),
    course_id: id.optional(),
    path_id: id.optional(),
    due_date: z.string().refine(isDate, "bulk.errors.due").optional(),
    role: z.enum(["learner", "admin", "none"]).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.user_ids === undefined) === (v.filter === undefined))
      ctx.addIssue({ code: "custom", path: ["user_ids"], message: "Give either user_ids or filter." });
    if ((v.action === "add_to_group" || v.action === "remove_from_group") && v.group_id === undefined)
      ctx.addIssue({ code: "custom", path: ["group_id"], message: "Required for this action." });
    if (v.action === "assign_course" && (v.course_id === undefined || v.due_date === undefined))
      ctx.addIssue({ code: "custom", path: [v.course_id === undefined ? "course_id" : "due_date"], message: "Required for this action." });
    if (v.action === "assign_path" && (v.path_id === undefined || v.due_date === undefined))
      ctx.addIssue({ code: "custom", path: [v.path_id === undefined ? "path_id" : "due_date"], message: "Required for this action." });
    if (v.action === "change_role" && v.role === undefined)
      ctx.addIssue({ code: "custom", path: ["role"], message: "Required for this action." });
  });

const jobReply = bulkJobReply(PEOPLE_BULK_ACTIONS);

const exampleJob = {
  id: 31,
  status: "done",
  progress: 100,
  action: "add_to_group",
  total: 1200,
  done: 1180,
  unchanged: 15,
  refused: { not_managed: 5 },
  error: null,
};

export const peopleBulkCalls: ApiCall[] = [
  call({
    method: "POST",
    path: "/api/users/bulk",
    tag: "Users",
    summary: "Act on many people at once",
    description:
      "Adds people to a group or takes them out (`group_id`), assigns them a course or a learning path due on a day (`course_id` or `path_id`, `due_date`), deactivates or reactivates them, gives them a type (`role`), or mails the invitation to choose a password again (`resend_invitation`: to those who never signed in, none twice within an hour): the people named by `user_ids`, or every person the people list's `filter` matches (its `q`, `role`, `group`, `status` and `language`). Runs as a background job: the reply is the job, to be read with `GET /api/users/bulk/{id}` until its `status` is `done`, then `done`, `unchanged` and `refused` (counts by reason: `gone`, `not_managed`, `not_member`, `self`; for invitations `signed_in`, `deactivated`, `external`, `recently_invited`, `mail_failed`). Group admins may add to and remove from their own groups only; the rest is the organization admins'. Nothing is changed when the action is refused. To download the same people as CSV: `GET /api/users/export`.",
    access: "signed-in",
    body: bulkBody,
    reply: jobReply,
    errors: guarded(E.invalid, E.invalidBody),
    // A learner is told no before their body is read.
    before: ({ request, context, viewer }) => (mayStartAnyPeopleBulk(viewer) ? undefined : apiForbidden(request, context)),
    example: {
      body: { action: "add_to_group", filter: { status: "active", language: "pl" }, group_id: 4 },
      reply: { ...exampleJob, status: "queued", progress: 0, done: null, unchanged: null, refused: null },
    },
    handler: async ({ request, context, viewer, body }) => {
      const db = context.db!;
      let ids = body.user_ids ?? [];
      if (body.filter) {
        const filter: Record<string, unknown> = body.filter;
        const { query, invalid } = userListFilters((name) => filter[name]);
        if (invalid) return bulkFilterRefused(request, context, "bulk.errors.filters");
        // A group admin's filter reaches the people of their own groups only: its count tells them of nobody else.
        ids = userListIds(db, query, manageableGroupIds(viewer));
      }
      const role = body.role === undefined ? undefined : body.role === "none" ? null : body.role;
      const prepared = preparePeopleBulk(
        db,
        viewer,
        {
          action: body.action,
          params: { groupId: body.group_id, courseId: body.course_id, pathId: body.path_id, dueDate: body.due_date, role },
          ids,
        },
        "api",
      );
      if (!prepared.ok)
        return bulkRefused(request, context, prepared, {
          bulkGroup: "group_id",
          bulkCourse: "course_id",
          bulkPath: "path_id",
          ids: "user_ids",
        });
      const job = context.platform.jobs.enqueue(context.organization!.id, db, PEOPLE_BULK_JOB, prepared.payload);
      return peopleBulkView(job);
    },
  }),
  call({
    method: "GET",
    path: "/api/users/bulk/{id}",
    tag: "Users",
    summary: "A bulk action's progress and outcome",
    description: "The job `POST /api/users/bulk` started, as it is now. Only whoever may start bulk actions reads them.",
    access: "signed-in",
    reply: jobReply,
    errors: guarded(),
    example: { reply: exampleJob },
    handler: ({ request, context, params, viewer }) => {
      const job = /^\d{1,15}$/.test(params.id ?? "") ? peopleBulkJobOf(getJob(context.db!, Number(params.id))) : undefined;
      const startedBy = (job?.payload as { actor?: { person?: { id: number } | null } } | undefined)?.actor?.person?.id ?? null;
      if (!job || !mayReadPeopleBulk(viewer, startedBy)) return apiNotFound(request, context);
      return peopleBulkView(job);
    },
  }),
];
