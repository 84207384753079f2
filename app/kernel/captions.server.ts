import fs from "node:fs";
import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import type { Organization } from "../../db/platform";
import type { CaptionTrack, Lesson } from "../../db/tenant";
import type { TenantConn } from "../models/database.server";
import {
  checkTrackInput,
  readCaptionFile,
  relabelTrack,
  saveTrack,
  trackFile,
  trackView,
  type TrackInput,
} from "../models/captions.server";
import { CaptionError } from "../utils/captions";
import { handleUpload } from "./upload.server";

/**
 * Taking a caption file, for the lesson's captions screen and /api alike (docs/decisions/036-captions.md):
 * the one upload helper (app/kernel/upload.server.ts) streams it, cut off at the caption limit; it is read
 * whole (WebVTT or SRT); a file that cannot be read is refused with a translated message naming its line and
 * nothing is stored; else its WebVTT, track and cues are saved together (app/models/captions.server.ts).
 */

/** How long a track's address works, and the step it is rounded to, so a page's tracks keep one address an hour. */
const TRACK_TTL_SECONDS = 6 * 3600;
const TRACK_ADDRESS_STEP = 3600;

export type TrackRefusal = { status: number; code: string; field: string; message: string };
export type TrackResult = { ok: true; track: CaptionTrack } | ({ ok: false } & TrackRefusal);

/** A caption file's problem as a translated message (naming the line where there is one). */
export function captionProblem(error: CaptionError, t: TFunction) {
  const key = error.line > 0 ? `captions.errors.${error.problem}Line` : `captions.errors.${error.problem}`;
  return t(key, { line: error.line, text: error.text });
}

/**
 * Receives a multipart form (`file`, `language`, `label`) for a lesson: adds a track, or replaces the track of
 * that language, or the track `trackId` (whose file may then be left out to change only its label).
 */
export async function receiveTrack(
  request: Request,
  context: AppLoadContext,
  {
    organizationId,
    lesson,
    db,
    t,
    uploadedBy,
    existing,
  }: { organizationId: number; lesson: Lesson; db: TenantConn; t: TFunction; uploadedBy: number | null; existing?: CaptionTrack },
): Promise<TrackResult> {
  const refuse = (status: number, code: string, field: string, message: string): TrackResult => ({
    ok: false,
    status,
    code,
    field,
    message,
  });
  return handleUpload<TrackResult>(
    request,
    context,
    { organizationId, field: "file", allowed: ["caption"], t },
    (upload) => {
      if (lesson.kind !== "video") return refuse(422, "not_video", "file", t("captions.errors.notVideo"));
      const fields = upload.fields;
      const given = (name: string) => (fields.has(name) ? fields.get(name) : undefined);
      const input = checkTrackInput({
        language: given("language") ?? existing?.language,
        label: given("label") ?? (existing && given("language") === undefined ? existing.label : undefined),
      });
      if (!input.ok) return refuse(422, "invalid", input.field, t(input.message));
      const pending = upload.file();
      if (!pending || pending.size === 0) {
        if (existing) return relabel(db, existing, input.value, t);
        return refuse(422, pending ? "empty" : "missing", "file", t(pending ? "files.empty" : "files.missing"));
      }
      let cues;
      try {
        cues = readCaptionFile(fs.readFileSync(pending.tempPath), pending.name);
      } catch (error) {
        if (!(error instanceof CaptionError)) throw error;
        return refuse(422, "caption_file", "file", captionProblem(error, t));
      }
      const saved = saveTrack(
        db,
        { dataDir: context.platform.dataDir, organizationId },
        {
          lesson,
          input: input.value,
          cues,
          uploadedBy,
          trackId: existing?.id,
        },
      );
      return saved.ok ? { ok: true, track: saved.value } : refuse(422, "invalid", saved.field, t(saved.message));
    },
    ({ status, message, code }) => refuse(status, code, "file", message),
  );
}

export function relabel(db: TenantConn, track: CaptionTrack, input: TrackInput, t: TFunction): TrackResult {
  const result = relabelTrack(db, track, input);
  return result.ok
    ? { ok: true, track: result.value }
    : { ok: false, status: 422, code: "invalid", field: result.field, message: t(result.message) };
}

/** A track's signed address (the same file path and signature as the video's: server/files.ts). */
export function trackUrl(context: AppLoadContext, organization: Pick<Organization, "id">, db: TenantConn, track: CaptionTrack) {
  const file = trackFile(db, track);
  if (!file) return null;
  return context.platform.signFileUrl(organization.id, file, TRACK_TTL_SECONDS, TRACK_ADDRESS_STEP);
}

/** Tracks as /api names them: with an absolute signed address and when it expires. */
export function trackReplies(context: AppLoadContext, organization: Organization, db: TenantConn, tracks: readonly CaptionTrack[]) {
  return tracks.flatMap((track) => {
    const signed = trackUrl(context, organization, db, track);
    if (!signed) return [];
    return [
      {
        ...trackView(track),
        url: `${context.platform.originFor(organization)}${signed.url}`,
        expires_at: new Date(signed.expires * 1000).toISOString(),
      },
    ];
  });
}
