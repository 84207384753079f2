import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { isPathVisible } from "~/access/paths";
import { MAX_DUE_DAYS } from "~/models/forms/assignments";
import { assignPath, pathAssignmentList, unassignPath } from "~/models/paths/assignments.server";
import { pathAssignmentReport } from "~/models/paths/path-report.server";
import { getPath } from "~/models/paths/paths.server";
import { apiForbidden, apiNotFound, apiRefusedFields } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, deleted, E, guarded, id, page, type ApiCall } from "../contract.server";
import { idOf } from "../resource.server";
import { targetAndDue } from "./assignments.server";

/**
 * Learning paths assigned through /api (issue 49), as courses are (`/api/assignments`): a path's assignments, one
 * made (to a person or a group, due on a day or N days after each is assigned), its people with each step's state,
 * and one taken back. Who may assign is the course assignments' rule (`write:group`; group admins their groups).
 */
const dueView = z.object({ kind: z.enum(["date", "days"]), date: z.string().nullable(), days: z.number().int().nullable() });
const assignmentView = z.object({
  id,
  path_id: id,
  target: z.enum(["person", "group"]),
  group_name: z.string().nullable(),
  email: z.string().nullable(),
  due: dueView,
  counts: z.object({ assigned: z.number().int(), done: z.number().int() }),
});
const body = z.object({
  user_id: id.optional(),
  group_id: id.optional(),
  due_date: z.string().optional(),
  due_days: z.number().int().min(0).max(MAX_DUE_DAYS).optional(),
});
const personView = z.object({
  user_id: id,
  name: z.string(),
  email: z.string(),
  due_on: z.string(),
  state: z.enum(["not_started", "in_progress", "overdue", "done"]),
  steps: z.array(z.enum(["done", "open", "waiting", "locked"])),
});
const example = {
  id: 3,
  path_id: 2,
  target: "group" as const,
  group_name: "Sales",
  email: null,
  due: { kind: "days" as const, date: null, days: 30 },
  counts: { assigned: 14, done: 3 },
};

const view = (a: ReturnType<typeof pathAssignmentList>[number], pathId: number) => ({
  id: a.id,
  path_id: pathId,
  target: a.target,
  group_name: a.groupName,
  email: a.email,
  due: { kind: a.dueKind, date: a.dueDate, days: a.dueDays },
  counts: { assigned: a.people, done: a.done },
});

/** The path of the address, when the caller sees it. */
async function pathOf(
  request: Request,
  context: AppLoadContext,
  params: Record<string, string>,
  viewer: Parameters<typeof isPathVisible>[1],
) {
  const path = getPath(context.db!, await idOf(request, context, params));
  return path && isPathVisible(context.db!, viewer, path) ? path : null;
}

export const pathAssignmentCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/learning-paths/{id}/assignments",
    tag: "Learning paths",
    summary: "A path's assignments",
    description: "Each with whom it is for, its due rule, and how many of its people are assigned and done.",
    access: "write:group",
    reply: z.object({ data: z.array(assignmentView) }),
    errors: guarded(E.notFound),
    example: { reply: { data: [example] } },
    handler: async ({ request, context, params, viewer }) => {
      const path = await pathOf(request, context, params, viewer);
      if (!path) return apiNotFound(request, context);
      return { data: pathAssignmentList(context.db!, path.id).map((a) => view(a, path.id)) };
    },
  }),
  call({
    method: "POST",
    path: "/api/learning-paths/{id}/assignments",
    tag: "Learning paths",
    summary: "Assign a path",
    description:
      "To a person (`user_id`, organization admins only) or a group (`group_id`; group admins: one of theirs), due on a local day (`due_date`, YYYY-MM-DD) or `due_days` after each person is assigned or joins. Its people are enrolled as assigned; `cannot_open` names, per course of the path, the people the access policy keeps out of it: the path never opens it for them.",
    access: "write:group",
    body,
    reply: z.object({
      assignment_id: id,
      assigned: z.number().int(),
      cannot_open: z.array(z.object({ course_id: id, title: z.string(), user_ids: z.array(id) })),
    }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody, E.notFound),
    example: { body: { group_id: 2, due_days: 30 }, reply: { assignment_id: 3, assigned: 14, cannot_open: [] } },
    handler: async ({ request, context, params, viewer, body }) => {
      const path = await pathOf(request, context, params, viewer);
      if (!path) return apiNotFound(request, context);
      const read = targetAndDue(body);
      if ("refused" in read) return apiRefusedFields(request, context, read.refused);
      const made = assignPath(context.db!, viewer, { pathId: path.id, ...read });
      if (!made.ok) {
        if (made.status === 403) return apiForbidden(request, context);
        const field = { userId: "user_id", groupId: "group_id", dueDate: "due_date", dueDays: "due_days" }[made.field ?? ""] ?? "group_id";
        return apiRefusedFields(request, context, { [field]: made.message });
      }
      return {
        assignment_id: made.assignmentId,
        assigned: made.assigned,
        cannot_open: made.cannotOpen.map((c) => ({ course_id: c.courseId, title: c.title, user_ids: c.people.map((p) => p.userId) })),
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/learning-path-assignments/{id}/people",
    tag: "Learning paths",
    summary: "A path assignment's people",
    description:
      "Its open people by name, a page at a time, each with their due day, state (as a course assignment's) and each step's state on the path. Group admins see their groups' people.",
    access: "write:group",
    query: pageSchema,
    reply: page(personView),
    errors: guarded(E.invalid, E.notFound),
    example: {
      reply: {
        data: [
          {
            user_id: 12,
            name: "Ada Lovelace",
            email: "ada@example.com",
            due_on: "2026-12-31",
            state: "in_progress",
            steps: ["done", "open"],
          },
        ],
        meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 },
      },
    },
    handler: async ({ request, context, params, viewer, query }) => {
      const report = pathAssignmentReport(context.db!, viewer, await idOf(request, context, params), {
        page: query.page,
        perPage: query.per_page,
      });
      if (!report) return apiNotFound(request, context);
      const path = getPath(context.db!, report.assignment.pathId);
      if (!path || !isPathVisible(context.db!, viewer, path)) return apiNotFound(request, context);
      return paginated(
        report.people.map((p) => ({ user_id: p.userId, name: p.name, email: p.email, due_on: p.dueOn, state: p.state, steps: p.steps })),
        report.total,
        { page: query.page, perPage: query.per_page },
      );
    },
  }),
  call({
    method: "DELETE",
    path: "/api/learning-path-assignments/{id}",
    tag: "Learning paths",
    summary: "Take a path assignment back",
    description: "With its people's rows; their enrolments stay, with what they did. The same rule as assigning decides who may.",
    access: "write:group",
    reply: deleted,
    errors: guarded(E.notFound),
    example: { reply: { id: 3, deleted: true } },
    handler: async ({ request, context, params, viewer }) => {
      const assignmentId = await idOf(request, context, params);
      const removed = unassignPath(context.db!, viewer, assignmentId);
      if (!removed.ok) return removed.status === 403 ? apiForbidden(request, context) : apiNotFound(request, context);
      return { id: assignmentId, deleted: true as const };
    },
  }),
];
