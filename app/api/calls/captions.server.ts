import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { may } from "~/access/rules";
import type { Viewer } from "~/access/viewer";
import {
  checkTrackInput,
  deleteTrack,
  getTrack,
  lessonById,
  listTracks,
  openableLesson,
  PLAYBACK_RATES,
  playerPreferencesOf,
  savePlayerPreferences,
  LANGUAGE_TAG,
} from "~/models/captions.server";
import { receiveTrack, relabel, trackReplies, type TrackResult } from "~/kernel/captions.server";
import { CAPTION_WARNING_PROBLEMS } from "~/utils/captions";
import { apiError, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { call, deleted, E, guarded, id, isoDate, type ApiCall } from "../contract.server";

/** Caption tracks of video lessons and the learner's player settings (issue 35, docs/decisions/036-captions.md). */
const stamp = "2026-05-04T09:30:00.000Z";

export const trackView = z.object({
  id,
  lesson_id: id,
  language: z.string(),
  label: z.string(),
  cue_count: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
  url: z.string().url(),
  expires_at: isoDate,
});
export const trackExample = {
  id: 5,
  lesson_id: 31,
  language: "en",
  label: "English",
  cue_count: 42,
  created_at: stamp,
  updated_at: stamp,
  url: "http://acme.localhost:3000/files/88/1767225600/Q2F…/lesson-31.en.vtt",
  expires_at: stamp,
};

/** A saved track, with what was left out of its file (WebVTT's cues that cannot be read or shown). */
const trackSaved = trackView.extend({
  warnings: z
    .array(
      z.object({
        line: z.number().int().describe("the file's line (1-based)"),
        problem: z.enum(CAPTION_WARNING_PROBLEMS),
        message: z.string().describe("translated, quoting the line"),
      }),
    )
    .describe("the first 50 parts of the file left out, in the file's order"),
  warning_count: z.number().int().describe("how many parts of the file were left out in all"),
});
const savedExample = { ...trackExample, warnings: [], warning_count: 0 };

const trackForm = z.object({
  file: z.string().describe("the WebVTT or SRT file (binary, UTF-8, at most 1 MiB)"),
  language: z.string().describe("a BCP 47 language tag: `en`, `da`, `pt-BR`"),
  label: z.string().max(60).optional().describe("what the player's menu says; the language's own name when left out"),
});
const relabelBody = z.object({ language: z.string().regex(LANGUAGE_TAG).optional(), label: z.string().max(60).optional() });
const preferences = z.object({
  captions: z.string().nullable().describe("a language, `off`, or null (by the interface language)"),
  playback_rate: z.number(),
});
const preferencesBody = z.object({
  captions: z
    .string()
    .refine((v) => v === "off" || LANGUAGE_TAG.test(v), "validation.invalid")
    .nullable()
    .optional(),
  playback_rate: z
    .number()
    .refine((v) => (PLAYBACK_RATES as readonly number[]).includes(v), "validation.invalid")
    .optional(),
});

const fileErrors = [
  {
    status: 422,
    code: "caption_file",
    when: "the file is not UTF-8 text, a WebVTT file lacks the `WEBVTT` signature or has no cue to keep, or an SRT file cannot be read; the message names the line that is wrong",
  },
  { status: 422, code: "missing", when: "no `file` field" },
  { status: 422, code: "not_video", when: "the lesson is not a video lesson" },
  { status: 413, code: "too_large", when: "over 1 MiB" },
  E.invalid,
];

/** The lesson of the path: any lesson for its editors, else one the caller may open (app/access/courses.ts). */
function lessonOf(context: AppLoadContext, viewer: Viewer, value: string, { write = false } = {}) {
  if (!/^\d{1,15}$/.test(value)) return undefined;
  const db = context.db!;
  if (may(viewer, "write:course")) return lessonById(db, Number(value));
  return write ? undefined : openableLesson(db, viewer, Number(value));
}

function trackOf(context: AppLoadContext, lessonId: number, value: string) {
  const track = /^\d{1,15}$/.test(value) ? getTrack(context.db!, Number(value)) : undefined;
  return track && track.lessonId === lessonId ? track : undefined;
}

async function reply(request: Request, context: AppLoadContext, result: TrackResult, status: number) {
  if (!result.ok)
    return apiError(result.status, { message: result.message, code: result.code, fields: { [result.field]: [result.message] } });
  const [track] = trackReplies(context, context.organization!, context.db!, [result.track]);
  return apiOk({ ...track, warnings: result.warnings, warning_count: result.warningCount }, status);
}

export const captionCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/lessons/{id}/tracks",
    tag: "Captions",
    summary: "A lesson's caption tracks",
    description:
      "Each with a signed address of its WebVTT file (the same kind of address as the video's, for six hours). Learners get the tracks of lessons they may open only.",
    access: "read:course",
    reply: z.array(trackView),
    errors: guarded(),
    example: { reply: [trackExample] },
    handler: ({ request, context, params, viewer }) => {
      const lesson = lessonOf(context, viewer, params.id);
      if (!lesson) return apiNotFound(request, context);
      return trackReplies(context, context.organization!, context.db!, listTracks(context.db!, lesson.id));
    },
  }),
  call({
    method: "POST",
    path: "/api/lessons/{id}/tracks",
    tag: "Captions",
    summary: "Add a caption track",
    description:
      "A multipart form: `file` (WebVTT or SRT; SRT is converted to WebVTT), `language` and `label`. A track in a language the lesson has replaces it. WebVTT is read as browsers read it: a cue that cannot be read or shown is left out and listed in `warnings` with its line. A file that is not UTF-8 text, a WebVTT file without the `WEBVTT` signature or without a cue to keep, and an SRT file that cannot be read are refused with the line that is wrong, and nothing is stored.",
    access: "write:course",
    bodyType: "multipart/form-data",
    body: trackForm,
    ownInput: true,
    reply: trackSaved,
    status: 201,
    errors: guarded(...fileErrors),
    example: { body: { file: "(binary)", language: "da", label: "Dansk" }, reply: { ...savedExample, language: "da", label: "Dansk" } },
    handler: async ({ request, context, params, viewer }) => {
      const lesson = lessonOf(context, viewer, params.id, { write: true });
      if (!lesson) return apiNotFound(request, context);
      const t = await apiT(request, context);
      const result = await receiveTrack(request, context, {
        organizationId: context.organization!.id,
        lesson,
        db: context.db!,
        t,
        uploadedBy: viewer.person?.id ?? null,
      });
      return reply(request, context, result, 201);
    },
  }),
  call({
    method: "PUT",
    path: "/api/lessons/{id}/tracks/{trackId}",
    tag: "Captions",
    summary: "Replace a caption track",
    description:
      "A multipart form as for adding (a new `file` replaces the cues; without one only `language` and `label` change), or JSON `{ language, label }`.",
    access: "write:course",
    bodyType: "multipart/form-data",
    body: trackForm.partial(),
    validates: [relabelBody],
    ownInput: true,
    reply: trackSaved,
    errors: guarded(...fileErrors),
    example: { body: { file: "(binary)" }, reply: savedExample },
    handler: async ({ request, context, params, viewer }) => {
      const lesson = lessonOf(context, viewer, params.id, { write: true });
      const track = lesson ? trackOf(context, lesson.id, params.trackId) : undefined;
      if (!lesson || !track) return apiNotFound(request, context);
      const t = await apiT(request, context);
      if ((request.headers.get("Content-Type") ?? "").startsWith("application/json")) {
        const body = await parseApiBody(request, context, relabelBody);
        const input = checkTrackInput({
          language: body.language ?? track.language,
          label: body.label ?? (body.language ? "" : track.label),
        });
        const result = input.ok
          ? relabel(context.db!, track, input.value, t)
          : ({ ok: false, status: 422, code: "invalid", field: input.field, message: t(input.message) } as const);
        return reply(request, context, result, 200);
      }
      const result = await receiveTrack(request, context, {
        organizationId: context.organization!.id,
        lesson,
        db: context.db!,
        t,
        uploadedBy: viewer.person?.id ?? null,
        existing: track,
      });
      return reply(request, context, result, 200);
    },
  }),
  call({
    method: "DELETE",
    path: "/api/lessons/{id}/tracks/{trackId}",
    tag: "Captions",
    summary: "Delete a caption track",
    description: "Its WebVTT file and its cues (and their place in the search) go with it.",
    access: "write:course",
    reply: deleted,
    errors: guarded(),
    example: { reply: { id: 5, deleted: true } },
    handler: ({ request, context, params, viewer }) => {
      const lesson = lessonOf(context, viewer, params.id, { write: true });
      const track = lesson ? trackOf(context, lesson.id, params.trackId) : undefined;
      if (!lesson || !track) return apiNotFound(request, context);
      deleteTrack(context.db!, { dataDir: context.platform.dataDir, organizationId: context.organization!.id }, track);
      return { id: track.id, deleted: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/player-preferences",
    tag: "Captions",
    summary: "My player settings",
    description: "The caption language last chosen (or `off`) and the playback speed, kept for every device.",
    access: "signed-in",
    reply: preferences,
    errors: guarded(),
    example: { reply: { captions: "da", playback_rate: 1.25 } },
    handler: ({ request, context, viewer }) => {
      if (!viewer.person) return apiNotFound(request, context);
      const { captions, playbackRate } = playerPreferencesOf(context.db!, viewer.person.id);
      return { captions, playback_rate: playbackRate };
    },
  }),
  call({
    method: "PUT",
    path: "/api/player-preferences",
    tag: "Captions",
    summary: "Keep my player settings",
    description: "`captions`: a language tag, `off`, or null; `playback_rate`: 0.75, 1, 1.25, 1.5, 1.75 or 2. What is left out stays.",
    access: "signed-in",
    body: preferencesBody,
    reply: preferences,
    errors: guarded(E.invalid, E.invalidBody),
    example: { body: { captions: "en", playback_rate: 1.5 }, reply: { captions: "en", playback_rate: 1.5 } },
    handler: ({ request, context, viewer, body }) => {
      if (!viewer.person) return apiNotFound(request, context);
      const saved = savePlayerPreferences(context.db!, viewer.person.id, {
        ...(body.captions !== undefined ? { captions: body.captions } : {}),
        ...(body.playback_rate !== undefined ? { playbackRate: body.playback_rate } : {}),
      });
      return { captions: saved.captions, playback_rate: saved.playbackRate };
    },
  }),
];
