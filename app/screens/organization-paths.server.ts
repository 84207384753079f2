import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { z } from "zod";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { coverChoices } from "~/models/browse.server";
import { listCategories } from "~/models/category.server";
import { listTemplates } from "~/models/certificate-templates.server";
import { pathSchema, pathStepSchema } from "~/models/forms/paths";
import { listBadges } from "~/models/leaderboard-admin.server";
import { courseChoices, editableSteps, editSteps, pathAnalytics, pathsForAdmin, type StepEdit } from "~/models/paths/admin.server";
import { createPath, deletePath, getPath, updatePath } from "~/models/paths/paths.server";
import { assignPath, cannotOpenOfPathAssignment, pathAssignmentList, unassignPath } from "~/models/paths/assignments.server";
import { pathAssignmentReport } from "~/models/paths/path-report.server";
import { findPeople, type AssignmentTarget } from "~/models/assignment.server";
import { assignFormSchema, dueRuleOf } from "~/models/forms/assignments";
import { listGroups } from "~/models/group.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm } from "~/utils/form-data.server";
import { redirect } from "~/utils/redirect";
import { csvResponse, toCsv } from "~/utils/csv.server";
import { getFixedT } from "~/utils/i18n.server";

/*
 * The admins' learning path screens (issue 49): the list with a form to make a path, one path's fields, its steps
 * (each change a plain form post: JavaScript is not needed, and every control is a button or a field the keyboard
 * reaches) and its analytics, and deleting it. Paths are written as courses are (`write:course`).
 */
const CAPABILITY = "write:course" as const;
const base = (m: Managed) => `${m.base}/paths`;

function pathFrom(m: Managed, id: string | undefined) {
  const path = /^\d{1,15}$/.test(id ?? "") ? getPath(m.db, Number(id)) : undefined;
  if (!path) throw new Response("Not Found", { status: 404 });
  return path;
}

export function pathsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => ({
      base: base(m),
      paths: pathsForAdmin(m.db),
    }));
}

const createSchema = pathSchema.pick({ title: true });

export function pathsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const submission = parseForm(await readForm(request, context), createSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const made = createPath(m.db, pathSchema.parse({ title: submission.value.title }));
      if (!made.ok) return json(submission.reply({ fieldErrors: { [made.field]: [made.message] } }), { status: 400 });
      return redirectWithFlash(`${base(m)}/${made.value.id}`, "flash.pathSaved");
    });
}

export function pathLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const path = pathFrom(m, params.pathId);
      const titles = new Map(courseChoices(m.db).map((c) => [c.id, c]));
      return {
        base: base(m),
        learnerUrl: `/paths/${path.id}`,
        path: {
          id: path.id,
          title: path.title,
          description: path.description,
          published: path.published,
          selfEnrol: path.selfEnrol,
          blockDefaultAccess: path.blockDefaultAccess,
          categoryId: path.categoryId,
          coverFileId: path.coverFileId,
          allowCertificates: path.allowCertificates,
          certificateTemplateId: path.certificateTemplateId,
          points: path.points,
          badgeId: path.badgeId,
          validityMonths: path.validityMonths,
          reassignDaysBefore: path.reassignDaysBefore,
        },
        preview: path.coverFileId ? context.platform.imageUrl(m.organization.id, path.coverFileId, "cover") : null,
        steps: editableSteps(m.db, path.id).map((s) => ({
          ...s,
          courses: s.course_ids.map((id) => ({ id, title: titles.get(id)?.title ?? "", published: titles.get(id)?.published ?? false })),
        })),
        courses: [...titles.values()],
        categories: listCategories(m.db).map((c) => ({ id: c.id, name: c.name })),
        templates: listTemplates(m.db).map((t) => ({ id: t.id, name: t.name })),
        badges: listBadges(m.db).map((b) => ({ id: b.id, name: b.name })),
        images: coverChoices(m.db),
        ...assignmentsOf(m, path.id, new URL(request.url).searchParams),
      };
    });
}

export type PathEditorData = SerializeFrom<ReturnType<ReturnType<typeof pathLoader>>>;

const positive = (value: string | null) => (value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null);

/** The path's assignments and, for `?assignment=` (the one just made), the people who could not open some of its courses. */
function assignmentsOf(m: Managed, pathId: number, query: URLSearchParams) {
  const list = pathAssignmentList(m.db, pathId);
  const shownId = positive(query.get("assignment"));
  const shown = shownId !== null && list.some((a) => a.id === shownId) ? shownId : null;
  return {
    assignments: list,
    groups: listGroups(m.db, m.viewer).map((g) => ({ id: g.id, name: g.name })),
    cannotOpen: shown === null ? [] : cannotOpenOfPathAssignment(m.db, m.viewer, shown),
  };
}

/**
 * A path's analytics and, for `?assignment=`, that assignment's people a page at a time with each step's state (and
 * their CSV): a page of its own, so the editor does not work out every enrolment's progress each time it is shown.
 */
export function pathReportLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const path = pathFrom(m, params.pathId);
      const query = new URL(request.url).searchParams;
      const list = pathAssignmentList(m.db, path.id);
      const shownId = positive(query.get("assignment"));
      const shown = shownId !== null && list.some((a) => a.id === shownId) ? shownId : null;
      return {
        base: base(m),
        path: { id: path.id, title: path.title },
        analytics: pathAnalytics(m.db, path.id),
        assignments: list,
        report: shown === null ? null : pathAssignmentReport(m.db, m.viewer, shown, { page: positive(query.get("page")) ?? 1 }),
      };
    });
}

export type PathReportData = SerializeFrom<ReturnType<ReturnType<typeof pathReportLoader>>>;

/** Every open person of a path assignment with their due day, state and each step's state, as CSV. */
export function pathReportCsvLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const path = pathFrom(m, params.pathId);
      const id = positive(new URL(request.url).searchParams.get("assignment"));
      const first = id === null ? null : pathAssignmentReport(m.db, m.viewer, id, { perPage: 1 });
      if (!first || first.assignment.pathId !== path.id) throw new Response("Not Found", { status: 404 });
      const all = pathAssignmentReport(m.db, m.viewer, id!, { perPage: Math.max(1, first.total) })!;
      const t = await getFixedT(m.viewer.language);
      const header = [t("paths.assign.person"), "E-mail", t("assigning.columns.dueOn"), t("assigning.columns.state")];
      for (let i = 1; i <= all.steps; i++) header.push(t("paths.stepNumber", { number: i }));
      const rows = all.people.map((p) => [
        p.name,
        p.email,
        p.dueOn,
        t(`assigning.state.${p.state}`),
        ...p.steps.map((s) => t(`paths.stateName.${s}`)),
      ]);
      return csvResponse(`path-${path.id}-assignment-${id}.csv`, toCsv(header, rows));
    });
}

/** What the assign form answers when refused: conform's reply, and the people an ambiguous search found. */
async function assignAction(m: Managed, pathId: number, formData: FormData, here: string) {
  if (formData.get("intent") === "unassign") {
    const id = positive(String(formData.get("assignmentId") ?? ""));
    const removed = id === null ? null : unassignPath(m.db, m.viewer, id);
    if (!removed || !removed.ok)
      throw new Response(removed?.status === 403 ? "Forbidden" : "Not Found", { status: removed?.status ?? 404 });
    return redirectWithFlash(`${here}#assignments`, "assigning.flash.removed");
  }
  const submission = parseForm(formData, assignFormSchema);
  const refuse = (result: ReturnType<typeof submission.reply>, choices?: { id: number; name: string; email: string }[]) =>
    json({ form: "assign", result, choices }, { status: 400 });
  if (submission.status !== "success") return refuse(submission.reply());
  const value = submission.value;
  let target: AssignmentTarget;
  if (value.target === "group") target = { kind: "group", groupId: value.groupId! };
  else if (value.userId !== undefined) target = { kind: "person", userId: value.userId };
  else {
    const found = findPeople(m.db, value.person ?? "");
    if (found.length !== 1)
      return refuse(
        submission.reply({ fieldErrors: { person: [found.length ? "assigning.errors.choosePerson" : "assigning.errors.noMatch"] } }),
        found.map((p) => ({ id: p.id, name: `${p.firstName} ${p.lastName}`.trim() || p.email, email: p.email })),
      );
    target = { kind: "person", userId: found[0].id };
  }
  const made = assignPath(m.db, m.viewer, { pathId, target, due: dueRuleOf(value) });
  if (!made.ok) {
    if (made.status === 403) throw new Response("Forbidden", { status: 403 });
    const field = made.field === "userId" ? "person" : made.field === "target" || made.field === "pathId" ? "" : (made.field ?? "");
    return refuse(submission.reply(field ? { fieldErrors: { [field]: [made.message] } } : { formErrors: [made.message] }));
  }
  return redirectWithFlash(`${here}?assignment=${made.assignmentId}#assignments`, "flash.pathAssigned");
}

/** The editor's step forms: the step's fields, and which step (from 0) for those that change one. */
const stepForm = z.intersection(pathStepSchema, z.object({ index: z.number().int().min(0).optional() }));
const moveForm = z.object({ index: z.number().int().min(0), direction: z.enum(["up", "down"]) });

function stepEdit(intent: string, formData: FormData): { edit: StepEdit } | { invalid: ReturnType<typeof parseForm> } {
  if (intent === "remove-step" || intent === "move-step") {
    const parsed = parseForm(formData, intent === "remove-step" ? moveForm.pick({ index: true }) : moveForm);
    if (parsed.status !== "success") return { invalid: parsed };
    const v = parsed.value as { index: number; direction?: "up" | "down" };
    return { edit: v.direction ? { kind: "move", index: v.index, direction: v.direction } : { kind: "remove", index: v.index } };
  }
  const parsed = parseForm(formData, stepForm);
  if (parsed.status !== "success") return { invalid: parsed };
  const { index, ...step } = parsed.value;
  if (intent === "add-step") return { edit: { kind: "add", step } };
  return index === undefined ? { invalid: parseForm(formData, moveForm.pick({ index: true })) } : { edit: { kind: "update", index, step } };
}

export function pathAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const path = pathFrom(m, params.pathId);
      const formData = await readForm(request, context);
      const intent = String(formData.get("intent") ?? "");
      const here = `${base(m)}/${path.id}`;
      if (intent === "save") {
        const submission = parseForm(formData, pathSchema);
        if (submission.status !== "success") return json({ form: "path", result: submission.reply() }, { status: 400 });
        const saved = updatePath(m.db, path.id, submission.value);
        if (saved && !saved.ok)
          return json({ form: "path", result: submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }) }, { status: 400 });
        return redirectWithFlash(here, "flash.pathSaved");
      }
      if (intent === "assign" || intent === "unassign") return assignAction(m, path.id, formData, here);
      if (!["add-step", "update-step", "remove-step", "move-step"].includes(intent)) throw new Response("Bad Request", { status: 400 });
      const read = stepEdit(intent, formData);
      if ("invalid" in read) return json({ form: intent, result: read.invalid.reply() }, { status: 400 });
      const done = editSteps(m.db, path.id, read.edit);
      if (done === null) throw new Response("Not Found", { status: 404 });
      if (!done.ok)
        return json({ form: intent, result: { status: "error" as const, error: { course_ids: [done.message] } } }, { status: 400 });
      return redirect(`${here}#steps`, 303);
    });
}

export function deletePathLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const path = pathFrom(m, params.pathId);
      return { name: path.title, back: `${base(m)}/${path.id}` };
    });
}

export function deletePathAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const path = pathFrom(m, params.pathId);
      await readForm(request, context);
      deletePath(m.db, path.id);
      return redirectWithFlash(base(m), "flash.pathDeleted");
    });
}
