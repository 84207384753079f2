import { z } from "zod";
import type { Viewer } from "~/access/viewer";
import {
  assignmentPeoplePage,
  assignmentSummaries,
  assignmentSummary,
  PERSON_STATES,
  type AssignmentSummary,
} from "~/models/assignment-reports.server";
import { createAssignment, deleteAssignment, type AssignmentTarget, type DueRule } from "~/models/assignment.server";
import { MAX_DUE_DAYS } from "~/models/forms/assignments";
import { whoCannotOpen } from "~/models/assignment-access.server";
import { getCourse } from "~/models/course.server";
import type { TenantDb } from "~/models/database.server";
import { apiForbidden, apiNotFound, apiRefusedFields } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, deleted, E, guarded, id, isoDate, page, type ApiCall } from "../contract.server";

/**
 * Compliance assignments (issue 34; app/models/assignment.server.ts): list a course's (or a group's, or a
 * person's) assignments with their numbers, assign a course to a person or a group with a due date, take an
 * assignment back, and one assignment's people with their states. Who may is app/access/rules.ts
 * `mayAssign`: organization admins every assignment; a group admin those of the groups they administer
 * (another's is not found, assigning to it is forbidden); `write:group` opens the door, so a learner, or a
 * token without it, is refused.
 */
const stamp = "2026-05-04T09:30:00.000Z";
const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };

const counts = z.object({
  assigned: z.number().int().describe("people assigned now (those who left the group are history, not counted)"),
  done: z.number().int(),
  overdue: z.number().int().describe("not done, and past the due day in the organization's time zone"),
});

const assignmentView = z.object({
  id,
  course_id: id,
  course_title: z.string(),
  target: z.enum(["person", "group"]),
  user: z.object({ id, email: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() }).nullable(),
  group: z
    .object({ id, name: z.string(), rule_group: z.boolean() })
    .nullable()
    .describe("null for a person, or for a group deleted since (its people keep their rows)"),
  due: z.object({
    kind: z.enum(["date", "days"]),
    date: z.string().nullable().describe("`date`: the local day (YYYY-MM-DD, the organization's time zone)"),
    days: z.number().int().nullable().describe("`days`: due this many days after each person is assigned or joins the group"),
  }),
  counts,
  created_at: isoDate,
});
const assignmentExample = {
  id: 4,
  course_id: 7,
  course_title: "Workplace Safety Essentials",
  target: "group",
  user: null,
  group: { id: 2, name: "Warehouse", rule_group: true },
  due: { kind: "days", date: null, days: 30 },
  counts: { assigned: 14, done: 9, overdue: 2 },
  created_at: stamp,
};

const REASONS = ["login", "limited", "prerequisite"] as const;
const cannotOpenView = z.object({
  user_id: id,
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  reason: z.enum(REASONS).describe("the access message that keeps them out: `limited` (a draft, or other groups), `prerequisite`, `login`"),
});

const personView = z.object({
  user_id: id,
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  assigned_at: isoDate,
  due_on: z.string().describe("YYYY-MM-DD, the organization's time zone; due by the end of that day"),
  completed_at: isoDate.nullable(),
  left_at: isoDate.nullable(),
  state: z.enum(PERSON_STATES),
  cannot_open: z.enum(REASONS).nullable().describe("why the access policy keeps them out of the course now, if it does"),
});

const idParam = (params: Record<string, string>) => (/^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : null);
const filterId = z.coerce.number().int().positive().optional();
export const assignmentListQuery = pageSchema.extend({ course_id: filterId, group_id: filterId, user_id: filterId });
export const assignmentPeopleQuery = pageSchema.extend({ state: z.enum(PERSON_STATES).optional() });

/** `POST assignments` body: a course, one of a person or a group, and one of a due day or a number of days. */
export const assignmentBody = z.object({
  course_id: z.number().int().positive(),
  user_id: z.number().int().positive().optional(),
  group_id: z.number().int().positive().optional(),
  due_date: z.string().max(10).optional(),
  due_days: z.number().int().min(0).max(MAX_DUE_DAYS).optional(),
});

/**
 * An assignment body's target (one of `user_id` and `group_id`) and due rule (one of `due_date` and `due_days`), or
 * the field to name when both or neither is given: a course's assignments and a learning path's read them alike.
 */
export function targetAndDue(body: {
  user_id?: number;
  group_id?: number;
  due_date?: string;
  due_days?: number;
}): { target: AssignmentTarget; due: DueRule } | { refused: Record<string, string> } {
  if ((body.user_id === undefined) === (body.group_id === undefined))
    return { refused: { [body.user_id === undefined ? "user_id" : "group_id"]: "assigning.errors.target" } };
  if ((body.due_date === undefined) === (body.due_days === undefined))
    return { refused: { [body.due_date === undefined ? "due_date" : "due_days"]: "assigning.errors.due" } };
  return {
    target: body.user_id !== undefined ? { kind: "person", userId: body.user_id } : { kind: "group", groupId: body.group_id! },
    due: body.due_date !== undefined ? { kind: "date", date: body.due_date } : { kind: "days", days: body.due_days! },
  };
}

function view(a: AssignmentSummary) {
  return {
    id: a.id,
    course_id: a.courseId,
    course_title: a.courseTitle,
    target: a.target,
    user:
      a.person && a.userId ? { id: a.userId, email: a.person.email, first_name: a.person.firstName, last_name: a.person.lastName } : null,
    group: a.groupId !== null && a.groupName !== null ? { id: a.groupId, name: a.groupName, rule_group: a.ruleGroup } : null,
    due: { kind: a.dueKind, date: a.dueDate, days: a.dueDays },
    counts: { assigned: a.assigned, done: a.done, overdue: a.overdue },
    created_at: a.createdAt.toISOString(),
  };
}

/** The model's field names as the body spells them. */
const BODY_FIELDS: Record<string, string> = {
  courseId: "course_id",
  userId: "user_id",
  groupId: "group_id",
  dueDate: "due_date",
  dueDays: "due_days",
};

function peopleOf(db: TenantDb, viewer: Viewer, assignmentId: number, query: z.infer<typeof assignmentPeopleQuery>) {
  const found = assignmentPeoplePage(db, viewer, assignmentId, { page: query.page, perPage: query.per_page, state: query.state });
  if (!found) return null;
  const course = getCourse(db, found.assignment.courseId);
  const blocked = new Map(
    course
      ? whoCannotOpen(
          db,
          viewer,
          course,
          found.items.map((p) => p.userId),
        ).map((p) => [p.userId, p.reason])
      : [],
  );
  return paginated(
    found.items.map((p) => ({
      user_id: p.userId,
      email: p.email,
      first_name: p.firstName,
      last_name: p.lastName,
      assigned_at: p.assignedAt.toISOString(),
      due_on: p.dueOn,
      completed_at: p.completedAt?.toISOString() ?? null,
      left_at: p.leftAt?.toISOString() ?? null,
      state: p.state,
      cannot_open: blocked.get(p.userId) ?? null,
    })),
    found.total,
    { page: query.page, perPage: query.per_page },
  );
}

export const assignmentCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/assignments",
    tag: "Assignments",
    summary: "Assignments",
    description:
      "The assignments the caller may manage (organization admins: all; group admins: their groups'), by course title, with their people counted on the organization's clock. Filter by `course_id`, `group_id` or `user_id` (the person assigned in person).",
    access: "write:group",
    query: assignmentListQuery,
    reply: page(assignmentView),
    errors: guarded(E.invalid),
    example: { query: { course_id: "7" }, reply: { data: [assignmentExample], meta: meta1 } },
    handler: ({ context, viewer, query }) => {
      const all = assignmentSummaries(context.db!, viewer, { courseId: query.course_id, groupId: query.group_id, userId: query.user_id });
      const p = { page: query.page, perPage: query.per_page };
      return paginated(all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map(view), all.length, p);
    },
  }),
  call({
    method: "POST",
    path: "/api/assignments",
    tag: "Assignments",
    summary: "Assign a course",
    description:
      "To a person (`user_id`, organization admins only) or a group or rule group (`group_id`; group admins: one of theirs), due on a local day (`due_date`, YYYY-MM-DD) or `due_days` after each person is assigned or joins the group. The group's members are assigned now (a course they completed already counts as done), later members when they join. `cannot_open` lists the people the access policy keeps out of the course (a draft, other groups, a prerequisite): they are assigned, but the assignment never opens the course for them.",
    access: "write:group",
    body: assignmentBody,
    reply: z.object({ assignment: assignmentView, assigned: z.number().int(), cannot_open: z.array(cannotOpenView) }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { course_id: 7, group_id: 2, due_days: 30 },
      reply: { assignment: assignmentExample, assigned: 14, cannot_open: [] },
    },
    handler: async ({ request, context, viewer, body }) => {
      const db = context.db!;
      const read = targetAndDue(body);
      if ("refused" in read) return apiRefusedFields(request, context, read.refused);
      const result = createAssignment(db, viewer, { courseId: body.course_id, ...read });
      if (!result.ok) {
        if (result.status === 403) return apiForbidden(request, context);
        if (result.status === 404) return apiNotFound(request, context);
        return apiRefusedFields(request, context, { [BODY_FIELDS[result.field ?? "courseId"] ?? "course_id"]: result.message });
      }
      return {
        assignment: view(assignmentSummary(db, viewer, result.assignment.id)!),
        assigned: result.assigned,
        cannot_open: result.cannotOpen.map((p) => ({
          user_id: p.userId,
          email: p.email,
          first_name: p.firstName,
          last_name: p.lastName,
          reason: p.reason,
        })),
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/assignments/{id}",
    tag: "Assignments",
    summary: "One assignment",
    access: "write:group",
    reply: assignmentView,
    errors: guarded(),
    example: { reply: assignmentExample },
    handler: ({ request, context, params, viewer }) => {
      const assignmentId = idParam(params);
      const found = assignmentId === null ? null : assignmentSummary(context.db!, viewer, assignmentId);
      return found ? view(found) : apiNotFound(request, context);
    },
  }),
  call({
    method: "DELETE",
    path: "/api/assignments/{id}",
    tag: "Assignments",
    summary: "Take an assignment back",
    description:
      "Its people's due days and states for it go with it; their progress and completions stay. Group admins: their groups' assignments only.",
    access: "write:group",
    reply: deleted,
    errors: guarded(),
    example: { reply: { id: 4, deleted: true } },
    handler: async ({ request, context, params, viewer }) => {
      const db = context.db!;
      const assignmentId = idParam(params);
      // One the caller may not manage does not exist for them.
      if (assignmentId === null || !assignmentSummary(db, viewer, assignmentId)) return apiNotFound(request, context);
      const removed = deleteAssignment(db, viewer, assignmentId);
      if (!removed.ok) return removed.status === 403 ? apiForbidden(request, context) : apiNotFound(request, context);
      return { id: assignmentId, deleted: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/assignments/{id}/people",
    tag: "Assignments",
    summary: "An assignment's people",
    description:
      "Its people with their state on the organization's clock (`not_started`, `in_progress`, `overdue`, `done`; `left` for someone no longer in its group, kept as history), by name; `state` picks one. `cannot_open` says when the access policy keeps someone out of the course.",
    access: "write:group",
    query: assignmentPeopleQuery,
    reply: page(personView),
    errors: guarded(E.invalid),
    example: {
      query: { state: "overdue" },
      reply: {
        data: [
          {
            user_id: 12,
            email: "ann@example.com",
            first_name: "Ann",
            last_name: "Berg",
            assigned_at: stamp,
            due_on: "2026-06-03",
            completed_at: null,
            left_at: null,
            state: "overdue",
            cannot_open: null,
          },
        ],
        meta: meta1,
      },
    },
    handler: ({ request, context, params, viewer, query }) => {
      const assignmentId = idParam(params);
      const found = assignmentId === null ? null : peopleOf(context.db!, viewer, assignmentId, query);
      return found ?? apiNotFound(request, context);
    },
  }),
];
