import { z } from "zod";
import { mayEnrolInPath } from "~/access/paths";
import { pathStepsSchema } from "~/models/forms/paths";
import { enrolInPath, progressOnPath, settledProgressOnPath } from "~/models/paths/enrolments.server";
import { pathResource } from "~/models/paths/path-resource.server";
import { getPath, setPathSteps } from "~/models/paths/paths.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { call, E, guarded, id, isoDate, type ApiCall } from "../contract.server";
import { idOf, resourceCalls } from "../resource.server";

/**
 * Learning paths through /api (issue 49; docs/decisions/045-learning-paths.md): the paths (as courses are listed
 * and written), their steps replaced whole, a learner's own enrolment where the path takes it, and a person's
 * progress on a path they are enrolled in.
 */
const stepView = z.object({ id, required: z.number().int(), delay_days: z.number().int(), course_ids: z.array(id) });

const pathView = z.object({
  id,
  title: z.string(),
  description: z.string(),
  published: z.boolean(),
  block_default_access: z.boolean(),
  force_groups: z.boolean(),
  self_enrol: z.boolean(),
  category_id: id.nullable(),
  cover_file_id: id.nullable(),
  allow_certificates: z.boolean(),
  points: z.number().int(),
  validity_months: z.number().int().nullable(),
  reassign_days_before: z.number().int(),
  certificate_template_id: z.number().int().nullable(),
  badge_id: z.number().int().nullable(),
  position: z.number().int(),
  steps: z.array(stepView),
  created_at: isoDate,
  updated_at: isoDate,
});

const stamp = "2026-05-04T09:30:00.000Z";
const pathExample = {
  id: 2,
  title: "Onboarding",
  description: "<p>Your first month.</p>",
  published: true,
  block_default_access: false,
  force_groups: false,
  self_enrol: true,
  category_id: null,
  cover_file_id: null,
  allow_certificates: true,
  points: 50,
  validity_months: null,
  reassign_days_before: 30,
  certificate_template_id: null,
  badge_id: null,
  position: 0,
  steps: [
    { id: 5, required: 1, delay_days: 0, course_ids: [1] },
    { id: 6, required: 2, delay_days: 7, course_ids: [2, 3, 4] },
  ],
  created_at: stamp,
  updated_at: stamp,
};

const progressView = z.object({
  path_id: id,
  enrolled_at: isoDate,
  source: z.enum(["self", "assigned"]),
  completed_at: isoDate.nullable(),
  percent: z.number().int(),
  next_course_id: id.nullable(),
  steps: z.array(
    z.object({
      id,
      state: z.enum(["done", "open", "waiting", "locked"]),
      completed: z.number().int(),
      required: z.number().int(),
      opens_at: isoDate.nullable(),
    }),
  ),
});

export const pathCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/learning-paths",
    tag: "Learning paths",
    noun: "learning path",
    view: pathView,
    resource: pathResource,
    readNote: "Learners see the published paths open to them (or given to one of their groups).",
    createExample: { title: "Onboarding", published: false },
    updateExample: { title: "Onboarding", published: true },
    replyExample: pathExample,
  }),
  call({
    method: "PUT",
    path: "/api/learning-paths/{id}/steps",
    tag: "Learning paths",
    summary: "Replace a path's steps",
    description:
      "The steps in order, all at once: a `course` step holds one course, a `choice` any `required` of its courses; `delay_days` spaces a step from the one before. Refused whole (422) for a course the organization does not have.",
    access: "write:course",
    body: pathStepsSchema,
    reply: z.object({ steps: z.array(stepView) }),
    errors: guarded(E.invalid, E.invalidBody, E.notFound),
    example: {
      body: { steps: [{ course_ids: [1] }, { kind: "choice", course_ids: [2, 3, 4], required: 2, delay_days: 7 }] },
      reply: { steps: pathExample.steps },
    },
    handler: async ({ request, context, params, body }) => {
      const set = setPathSteps(context.db!, await idOf(request, context, params), body);
      if (set === null) return apiNotFound(request, context);
      if (!set.ok) {
        const t = await apiT(request, context);
        return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { [set.field]: [t(set.message)] } });
      }
      return { steps: set.value.map((s) => ({ id: s.id, required: s.required, delay_days: s.delayDays, course_ids: [...s.courseIds] })) };
    },
  }),
  call({
    method: "POST",
    path: "/api/learning-paths/{id}/enrolments",
    tag: "Learning paths",
    summary: "Enrol in a path",
    description: "The caller enrols themselves in a path they see that takes enrolments (once: again changes nothing).",
    access: "learn:course",
    reply: progressView,
    status: 201,
    errors: guarded(E.notFound),
    example: { reply: { path_id: 2, enrolled_at: stamp, source: "self", completed_at: null, percent: 0, next_course_id: 1, steps: [] } },
    handler: async ({ request, context, params, viewer }) => {
      const db = context.db!;
      const path = getPath(db, await idOf(request, context, params));
      if (!viewer.person || !path || !mayEnrolInPath(db, viewer, path)) return apiNotFound(request, context);
      enrolInPath(db, { pathId: path.id, userId: viewer.person.id, source: "self" });
      return progressReply(db, path.id, viewer.person.id);
    },
  }),
  call({
    method: "GET",
    path: "/api/learning-paths/{id}/progress",
    tag: "Learning paths",
    summary: "My progress on a path",
    description:
      "Each step's state (done, open, waiting out its delay, locked), the courses counted, and the next course. 404 when not enrolled.",
    access: "learn:course",
    reply: progressView,
    errors: guarded(E.notFound),
    example: { reply: { path_id: 2, enrolled_at: stamp, source: "self", completed_at: null, percent: 25, next_course_id: 2, steps: [] } },
    handler: async ({ request, context, params, viewer }) => {
      const id = await idOf(request, context, params);
      const reply = viewer.person ? progressReply(context.db!, id, viewer.person.id) : null;
      return reply ?? apiNotFound(request, context);
    },
  }),
];

function progressReply(db: Parameters<typeof progressOnPath>[0], pathId: number, userId: number) {
  const found = settledProgressOnPath(db, { pathId, userId });
  if (!found) return null;
  const { enrolment, progress } = found;
  return {
    path_id: pathId,
    enrolled_at: enrolment.enrolledAt.toISOString(),
    source: enrolment.source,
    completed_at: enrolment.completedAt?.toISOString() ?? null,
    percent: progress.percent,
    next_course_id: progress.next?.courseId ?? null,
    steps: progress.steps.map((s) => ({
      id: s.id,
      state: s.state,
      completed: s.completed,
      required: s.required,
      opens_at: s.state === "waiting" ? s.opensAt.toISOString() : null,
    })),
  };
}
