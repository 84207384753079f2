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
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm } from "~/utils/form-data.server";
import { redirect } from "~/utils/redirect";

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
        analytics: pathAnalytics(m.db, path.id),
      };
    });
}

export type PathEditorData = SerializeFrom<ReturnType<ReturnType<typeof pathLoader>>>;

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
