import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { lessonAccess } from "~/access/courses";
import { mayPreview } from "~/access/rules";
import { findCourse } from "~/models/course-lookup.server";
import { fileOnDisk, getFile } from "~/models/file.server";
import { getLesson } from "~/models/lesson.server";
import { aus, type Cmi5Course } from "~/models/packages/cmi5-structure";
import { getContentPackage } from "~/models/packages/install.server";
import { abandonSession, findSession } from "~/models/packages/launches.server";
import { COURSE_STRUCTURE_MAX_BYTES, installLessonPackage } from "~/models/packages/lesson-package.server";
import { contentPackageView } from "~/models/packages/package-view.server";
import { launchPackage } from "~/models/packages/player.server";
import { openRegistrationOfLesson } from "~/models/packages/registrations.server";
import { waiveAu } from "~/models/packages/waivers.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { call, E, guarded, id, type ApiCall, type CallArgs } from "../contract.server";
import { idOf } from "../resource.server";
import { PACKAGE_PROBLEMS } from "./lesson-packages.server";
import type { PackageProblem } from "~/models/packages/inspect.server";

/**
 * xAPI and cmi5 packages through /api (issue 48; docs/decisions/044-xapi-cmi5-packages.md): a lesson's package
 * installed from the file library or a bare course structure (any kind, as the lesson editor takes it), its
 * contents read back; a learner's launch of an AU, answered with the address to open; and what an admin does
 * to a learner's registration: waive an AU (with a reason), end a session left running (abandoned).
 */

const LAUNCH_MODES = ["Normal", "Browse", "Review"] as const;

// Every reason an xAPI or cmi5 package is refused for (the type makes the list whole), beside SCORM's.
const CONTENT_PROBLEMS = Object.keys({
  not_zip: true,
  unsafe_path: true,
  symlink: true,
  too_many_entries: true,
  too_large: true,
  ratio: true,
  is_scorm: true,
  no_manifest: true,
  manifest_not_at_root: true,
  launch_missing: true,
  cmi5_parse: true,
  cmi5_schema: true,
  cmi5_id_not_iri: true,
  cmi5_duplicate_id: true,
  cmi5_url: true,
  cmi5_relative_url: true,
  cmi5_url_parameter: true,
  cmi5_no_au: true,
  tincan_parse: true,
  tincan_no_launch: true,
  tincan_id_not_iri: true,
  tincan_duplicate_id: true,
  tincan_launch_url: true,
} satisfies Record<PackageProblem, true>);
const codes = (list: readonly string[]) => list.map((c) => `\`${c}\``).join(", ");
const REFUSED = {
  status: 422,
  code: "no_manifest",
  when: `a package the lesson editor refuses; the message is its reason, the code one of ${codes([...new Set([...CONTENT_PROBLEMS, ...PACKAGE_PROBLEMS])])}`,
};
const LAUNCH_REFUSED = {
  status: 422,
  code: "no_au",
  when: "no such AU in the package (also `registration`: a registration that is not the caller's open one of the lesson)",
};
const CLOSED = {
  status: 403,
  code: "previous_lessons",
  when: "the caller may not open the lesson yet (also `prerequisite`, `limited`, `login`)",
};
const WAIVER_REFUSED = {
  status: 422,
  code: "already",
  when: "the AU is waived already in that registration (also `no_au`, `not_cmi5`, `no_reason`)",
};

const installBody = z
  .object({
    file_id: id.optional(),
    course_structure: z
      .string()
      .min(1)
      .max(COURSE_STRUCTURE_MAX_BYTES / 2)
      .optional(),
  })
  .refine((b) => (b.file_id === undefined) !== (b.course_structure === undefined), {
    message: "validation.invalid",
    path: ["file_id"],
  });

const launchBody = z.object({
  au_id: z.string().min(1).max(2000).optional(),
  au_index: z.number().int().min(0).max(10_000).optional(),
  registration: z.string().uuid().optional(),
  launch_mode: z.enum(LAUNCH_MODES).optional(),
  retake: z.boolean().default(false),
});

const waiverBody = z.object({
  registration: z.string().uuid(),
  au_id: z.string().min(1).max(2000).optional(),
  au_index: z.number().int().min(0).max(10_000).optional(),
  reason: z.string().trim().min(1, "validation.required").max(200),
});

const viewReply = z.object({
  kind: z.enum(["xapi", "cmi5"]),
  title: z.string(),
  file_count: z.number().int(),
  unpacked_bytes: z.number().int(),
  aus: z.array(z.object({ title: z.string(), url: z.string(), move_on: z.string(), mastery_score: z.number().nullable() })),
});

const launchReply = z.object({
  url: z.string().url(),
  registration: z.string().uuid(),
  session_id: z.string().uuid(),
  au_id: z.string(),
  launch_mode: z.enum(LAUNCH_MODES),
});

async function refuse(request: Request, context: AppLoadContext, status: number, code: string, key: string, field?: string) {
  const t = await apiT(request, context);
  const message = t(key);
  return apiError(status, { message, code, ...(field ? { fields: { [field]: [message] } } : {}) });
}

/** The AU an index or an id names in a cmi5 package (null: the package's first, or an xAPI package's one). */
function auOf(structure: unknown, kind: string, body: { au_id?: string; au_index?: number }): string | null | undefined {
  if (kind !== "cmi5") return null;
  const list = aus((structure as Cmi5Course).children);
  if (body.au_id !== undefined) return list.some((a) => a.id === body.au_id) ? body.au_id : undefined;
  if (body.au_index !== undefined) return list[body.au_index]?.id;
  return null;
}

async function install({ request, context, params, viewer, body }: CallArgs<Record<string, string>, z.infer<typeof installBody>>) {
  const db = context.db!;
  const lesson = getLesson(db, await idOf(request, context, params));
  if (!lesson) return apiNotFound(request, context);
  const place = { dataDir: context.platform.dataDir, organizationId: context.organization!.id };
  let file: string;
  let temporary: string | null = null;
  if (body.file_id !== undefined) {
    const stored = getFile(db, body.file_id);
    if (!stored) return refuse(request, context, 422, "invalid", "validation.invalid", "file_id");
    file = fileOnDisk(place.dataDir, place.organizationId, stored);
  } else {
    temporary = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-course-structure-"));
    file = path.join(temporary, "cmi5.xml");
    fs.writeFileSync(file, body.course_structure!);
  }
  try {
    const installed = await installLessonPackage(db, { ...place, lesson, file, uploadedBy: viewer.person?.id ?? null });
    if (!installed.ok) {
      const t = await apiT(request, context);
      const message = t(installed.key, installed.params);
      return apiError(422, {
        message,
        code: installed.problem,
        fields: { [body.file_id !== undefined ? "file_id" : "course_structure"]: [message] },
      });
    }
    return { lesson_id: lesson.id, kind: installed.kind };
  } finally {
    if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
  }
}

async function launch({ request, context, params, viewer, body }: CallArgs<Record<string, string>, z.infer<typeof launchBody>>) {
  const db = context.db!;
  if (!viewer.person) return apiNotFound(request, context);
  const lesson = getLesson(db, await idOf(request, context, params));
  const course = lesson ? findCourse(db, viewer, lesson.courseId) : undefined;
  const pkg = lesson?.kind === "package" ? getContentPackage(db, lesson.id) : undefined;
  if (!lesson || !course || !pkg) return apiNotFound(request, context);
  const access = lessonAccess(db, viewer, course, lesson);
  if (!access.allowed) return refuse(request, context, 403, access.reason, `access.${access.reason}`);
  const auId = auOf(pkg.structure, pkg.kind, body);
  if (auId === undefined)
    return refuse(request, context, 422, "no_au", "validation.invalid", body.au_id !== undefined ? "au_id" : "au_index");
  const organization = context.organization!;
  const origin = new URL(request.url).origin;
  const launched = launchPackage(
    db,
    {
      lesson,
      userId: viewer.person.id,
      auId,
      ask: body.retake ? "retake" : "start",
      language: viewer.language,
      launchMode: body.launch_mode,
      registration: body.registration,
    },
    {
      signer: context.platform,
      contentOrigin: context.platform.scormOrigin(organization.id),
      organizationId: organization.id,
      origin,
      returnPath: `/courses/${course.id}/lessons/${lesson.id}`,
      preview: mayPreview(viewer),
    },
  );
  if (!launched.ok)
    return refuse(
      request,
      context,
      422,
      launched.problem,
      "validation.invalid",
      launched.problem === "registration" ? "registration" : "au_id",
    );
  return {
    url: launched.url,
    registration: launched.registration,
    session_id: launched.sessionId,
    au_id: launched.auId,
    launch_mode: launched.launchMode,
  };
}

async function waive({ request, context, params, body }: CallArgs<Record<string, string>, z.infer<typeof waiverBody>>) {
  const db = context.db!;
  const lesson = getLesson(db, await idOf(request, context, params));
  const pkg = lesson ? getContentPackage(db, lesson.id) : undefined;
  const registration = lesson ? openRegistrationOfLesson(db, body.registration, lesson.id) : undefined;
  if (!lesson || !pkg || !registration) return apiNotFound(request, context);
  const auId = auOf(pkg.structure, pkg.kind, body);
  if (!auId) return refuse(request, context, 422, "no_au", "validation.invalid", body.au_id !== undefined ? "au_id" : "au_index");
  const waived = waiveAu(db, { pkg, lesson, userId: registration.userId, auId, reason: body.reason, origin: new URL(request.url).origin });
  if (!waived.ok) return refuse(request, context, 422, waived.problem, `packages.waivers.${waived.problem}`, "au_id");
  return { registration: registration.registration, au_id: auId, waived: true as const };
}

async function abandon({ request, context, params }: CallArgs<Record<string, string>, undefined>) {
  const db = context.db!;
  const found = /^[0-9a-f-]{36}$/i.test(params.session_id ?? "") ? findSession(db, params.session_id!) : undefined;
  const lesson = found ? getLesson(db, found.registration.lessonId) : undefined;
  const pkg = lesson ? getContentPackage(db, lesson.id) : undefined;
  if (!found || !lesson || !pkg) return apiNotFound(request, context);
  const ended = abandonSession(db, found, { pkg, lesson, origin: new URL(request.url).origin });
  if (!ended) return refuse(request, context, 409, "ended", "packages.waivers.ended");
  return { session_id: found.launch.sessionId, abandoned: true as const };
}

export const packageCalls: ApiCall[] = [
  call({
    method: "PUT",
    path: "/api/lessons/{id}/package",
    tag: "Lessons",
    summary: "Install a lesson's package",
    description:
      "A SCORM, xAPI or cmi5 zip uploaded with `POST /api/files` (`file_id`), or a cmi5 course structure whose AUs live on other sites (`course_structure`, the XML): checked and installed as the lesson editor does, the lesson taking the kind its manifest gives (`scorm` or `package`). A refused package is a 422 with the editor's reason; nothing changes.",
    access: "write:course",
    body: installBody,
    reply: z.object({ lesson_id: id, kind: z.enum(["scorm", "xapi", "cmi5"]) }),
    errors: guarded(E.invalid, E.invalidBody, E.notFound, REFUSED),
    example: { body: { file_id: 12 }, reply: { lesson_id: 33, kind: "cmi5" } },
    handler: (args) => install(args as CallArgs<Record<string, string>, z.infer<typeof installBody>>),
  }),
  call({
    method: "GET",
    path: "/api/lessons/{id}/package",
    tag: "Lessons",
    summary: "A lesson's xAPI or cmi5 package",
    description: "Its kind, title, size and AUs as its manifest gives them. 404 while the lesson has none.",
    access: "write:course",
    reply: viewReply,
    errors: guarded(E.notFound),
    example: {
      reply: {
        kind: "cmi5",
        title: "Fire safety at work",
        file_count: 7,
        unpacked_bytes: 20480,
        aus: [{ title: "What feeds a fire", url: "fuel.html", move_on: "Completed", mastery_score: null }],
      },
    },
    handler: async ({ request, context, params, viewer }) => {
      const view = contentPackageView(context.db!, await idOf(request, context, params), viewer.language);
      if (!view) return apiNotFound(request, context);
      return {
        kind: view.kind,
        title: view.title,
        file_count: view.fileCount,
        unpacked_bytes: view.unpackedBytes,
        aus: view.rows.flatMap((r) =>
          r.type === "au" ? [{ title: r.title, url: r.url, move_on: r.moveOn, mastery_score: r.masteryScore }] : [],
        ),
      };
    },
  }),
  call({
    method: "POST",
    path: "/api/lessons/{id}/launches",
    tag: "Learning",
    summary: "Launch an xAPI package or a cmi5 AU",
    description:
      "For the caller, in their open registration of the lesson (`registration` may name it; a `retake` starts a new one and keeps the old as history). The reply's `url` opens the AU: on the organization's content origin, or on the AU's own site. `launch_mode` is cmi5's (`Normal` unless asked; a preview is always `Browse`). A launch still running in the registration is abandoned first.",
    access: "learn:course",
    body: launchBody,
    reply: launchReply,
    status: 201,
    errors: guarded(E.invalid, E.invalidBody, E.notFound, CLOSED, LAUNCH_REFUSED),
    example: {
      body: { au_index: 0 },
      reply: {
        url: "https://1.scorm.example/c/TOKEN/fuel.html?endpoint=…",
        registration: "8c8f2a4e-2d3b-4b7f-9c1e-3f0d6a1b2c3d",
        session_id: "0f6a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
        au_id: "https://lectern.example/demo/cmi5/fire-safety/fuel",
        launch_mode: "Normal",
      },
    },
    handler: (args) => launch(args as CallArgs<Record<string, string>, z.infer<typeof launchBody>>),
  }),
  call({
    method: "POST",
    path: "/api/lessons/{id}/waivers",
    tag: "Lessons",
    summary: "Waive a cmi5 AU for a learner",
    description:
      "In the learner's open `registration` of the lesson, with a reason (cmi5's `waived` statement, written by the LMS): the AU counts as done, and its block, the course and the lesson may follow.",
    access: "write:course",
    body: waiverBody,
    reply: z.object({ registration: z.string().uuid(), au_id: z.string(), waived: z.literal(true) }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody, E.notFound, WAIVER_REFUSED),
    example: {
      body: { registration: "8c8f2a4e-2d3b-4b7f-9c1e-3f0d6a1b2c3d", au_index: 1, reason: "Certified elsewhere" },
      reply: {
        registration: "8c8f2a4e-2d3b-4b7f-9c1e-3f0d6a1b2c3d",
        au_id: "https://lectern.example/demo/cmi5/fire-safety/workplace",
        waived: true,
      },
    },
    handler: (args) => waive(args as CallArgs<Record<string, string>, z.infer<typeof waiverBody>>),
  }),
  call({
    method: "POST",
    path: "/api/package-sessions/{session_id}/abandon",
    tag: "Lessons",
    summary: "End a launch left running",
    description: "cmi5's `abandoned`, written by the LMS, as the learner's next launch would; the launch's credential ends.",
    access: "write:course",
    reply: z.object({ session_id: z.string().uuid(), abandoned: z.literal(true) }),
    errors: guarded(E.notFound, { status: 409, code: "ended", when: "the session has ended already" }),
    example: { reply: { session_id: "0f6a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c", abandoned: true } },
    handler: (args) => abandon(args as CallArgs<Record<string, string>, undefined>),
  }),
];
