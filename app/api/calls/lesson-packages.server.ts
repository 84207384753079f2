import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { getLesson } from "~/models/lesson.server";
import { getPackage, packageView, type ScormProblem } from "~/models/scorm.server";
import {
  checkLibraryPackage,
  hasPackage,
  installLibraryPackage,
  installOrRemove,
  type LibraryPackageProblem,
} from "~/models/scorm-library.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { call, guarded, id, isoDate, type ApiCall, type CallArgs, type ErrorCase } from "../contract.server";
import { idOf } from "../resource.server";

/**
 * SCORM packages through /api (issue 45): `POST /api/lessons` with `kind: scorm` and the `file_id` of a zip
 * uploaded with `POST /api/files` installs the package with the lesson editor's checks and unpacking
 * (app/models/scorm-library.server.ts), and answers 201 only once it is installed; `PUT /api/lessons/{id}`
 * with a new `file_id` replaces it. A refused package is a 422 with the editor's translated reason, and
 * changes nothing. No call makes a SCORM lesson without its package.
 */
// Every reason the lesson editor gives, each a code of the 422 (the type makes the list whole).
export const PACKAGE_PROBLEMS = Object.keys({
  not_zip: true,
  no_manifest: true,
  manifest_not_at_root: true,
  manifest_parse: true,
  launch_missing: true,
  unsupported_version: true,
  no_items: true,
  aicc: true,
  unsafe_path: true,
  symlink: true,
  too_many_entries: true,
  too_large: true,
  ratio: true,
} satisfies Record<ScormProblem, true>);

export const PACKAGE_ERRORS: ErrorCase[] = [
  {
    status: 422,
    code: "package_required",
    when: "`kind: scorm` without the `file_id` of an uploaded zip, for a lesson that has no package yet",
  },
  {
    status: 422,
    code: "no_manifest",
    when: `a SCORM package the lesson editor refuses (an AICC zip, a manifest in a folder); the message is its reason, the code one of ${PACKAGE_PROBLEMS.map((p) => `\`${p}\``).join(", ")}`,
  },
];

export const PACKAGE_NOTE =
  " A `scorm` lesson is made from its package: `file_id` is a zip uploaded with `POST /api/files`, checked and unpacked as the lesson editor does; the reply comes once it is installed (`GET /api/lessons/{id}/scorm-package` shows it), and a refused package is a 422 with the reason, nothing changed. On a SCORM lesson, a new `file_id` replaces the package (learners' progress is kept).";

async function refused(request: Request, context: AppLoadContext, problem: LibraryPackageProblem) {
  const t = await apiT(request, context);
  if (problem === "unknown_file")
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { file_id: [t("validation.invalid")] } });
  const message = t(`scorm.errors.${problem}`);
  return apiError(422, { message, code: problem, fields: { file_id: [message] } });
}

const placeOf = (context: AppLoadContext) => ({ dataDir: context.platform.dataDir, organizationId: context.organization!.id });

type LessonBody = { kind?: string; file_id?: number | null };

/** `POST /api/lessons`: a SCORM lesson's package is checked before the lesson is made, and installed before the reply. */
async function createWithPackage(args: CallArgs<Record<string, string>, LessonBody>, create: ApiCall["handler"]) {
  const { request, context, viewer, body } = args;
  if (body.kind !== "scorm") return create(args);
  const db = context.db!;
  const checked = await checkLibraryPackage(db, placeOf(context), body.file_id);
  if (!checked.ok) return refused(request, context, checked.problem);
  const created = await create(args);
  if (!(created instanceof Response) || !created.ok) return created;
  const lesson = getLesson(db, ((await created.clone().json()) as { payload: { id: number } }).payload.id)!;
  const installed = await installOrRemove(db, {
    ...placeOf(context),
    lesson,
    fileId: body.file_id!,
    uploadedBy: viewer.person?.id ?? null,
  });
  return installed.ok ? created : refused(request, context, installed.problem);
}

/** `PUT /api/lessons/{id}`: a SCORM lesson given a new zip has it installed first; one left without a package is refused. */
async function updateWithPackage(args: CallArgs<Record<string, string>, LessonBody>, update: ApiCall["handler"]) {
  const { request, context, params, viewer, body } = args;
  const db = context.db!;
  const lesson = getLesson(db, await idOf(request, context, params));
  if (!lesson || (body.kind ?? lesson.kind) !== "scorm") return update(args);
  const fileId = body.file_id;
  const installed = hasPackage(db, lesson.id);
  if (typeof fileId === "number" && (fileId !== lesson.fileId || !installed)) {
    const result = await installLibraryPackage(db, { ...placeOf(context), lesson, fileId, uploadedBy: viewer.person?.id ?? null });
    if (!result.ok) return refused(request, context, result.problem);
  } else if (!installed) return refused(request, context, "package_required");
  return update(args);
}

/** The lesson calls' create and change, with SCORM packages installed as above. */
export function withScormPackages(call: ApiCall): ApiCall {
  const inner = call.handler;
  if (call.method === "POST" && call.path === "/api/lessons")
    return {
      ...call,
      description: `${call.description ?? ""}${PACKAGE_NOTE}`,
      errors: [...call.errors, ...PACKAGE_ERRORS],
      handler: (args) => createWithPackage(args as CallArgs<Record<string, string>, LessonBody>, inner),
    };
  if (call.method === "PUT" && call.path === "/api/lessons/{id}")
    return {
      ...call,
      description: `${call.description ?? ""}${PACKAGE_NOTE}`,
      errors: [...call.errors, ...PACKAGE_ERRORS],
      handler: (args) => updateWithPackage(args as CallArgs<Record<string, string>, LessonBody>, inner),
    };
  return call;
}

const packageReply = z.object({
  id,
  lesson_id: id,
  version: z.string(),
  title: z.string(),
  items: z.array(z.object({ identifier: z.string(), title: z.string(), depth: z.number().int(), type: z.enum(["sco", "asset"]) })),
  file_count: z.number().int(),
  unpacked_bytes: z.number().int(),
  updated_at: isoDate,
});

export const scormPackageCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/lessons/{id}/scorm-package",
    tag: "Lessons",
    summary: "A SCORM lesson's installed package",
    description: "Its version, title and items as the manifest gives them. 404 while the lesson has no package.",
    access: "write:course",
    reply: packageReply,
    errors: guarded(),
    example: {
      reply: {
        id: 3,
        lesson_id: 33,
        version: "2004-3",
        title: "Golf Explained",
        items: [{ identifier: "item_1", title: "Playing the game", depth: 0, type: "sco" }],
        file_count: 73,
        unpacked_bytes: 1048576,
        updated_at: "2026-05-04T09:30:00.000Z",
      },
    },
    handler: async ({ request, context, params }) => {
      const pkg = getPackage(context.db!, await idOf(request, context, params));
      return pkg ? packageView(pkg) : apiNotFound(request, context);
    },
  }),
];
