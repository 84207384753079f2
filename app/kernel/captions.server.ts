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
import { CaptionError, type CaptionWarning } from "../utils/captions";
import { handleUpload } from "./upload.server";

/**
 * Taking a caption file, for the lesson's captions screen and /api alike (docs/decisions/036-captions.md):
 * the one upload helper (app/kernel/upload.server.ts) streams it, cut off at the caption limit; it is read
 * whole (WebVTT as browsers read it, or SRT); a file that is refused gets a translated message naming its
 * line and nothing is stored; else its WebVTT, track and cues are saved together
 * (app/models/captions.server.ts), and what was left out of it comes back as translated warnings.
 */

/** How long a track's address works, and the step it is rounded to, so a page's tracks keep one address an hour. */
const TRACK_TTL_SECONDS = 6 * 3600;
const TRACK_ADDRESS_STEP = 3600;

/** The most warnings a reply lists (the count says how many there were). */
export const WARNINGS_SHOWN = 50;

/** Something left out of a saved file: its line, why (`CaptionWarning`'s problem) and the translated message. */
export type TrackWarning = { line: number; problem: CaptionWarning["problem"]; message: string };
export type TrackRefusal = { status: number; code: string; field: string; message: string };
export type TrackResult =
  | { ok: true; track: CaptionTrack; warnings: TrackWarning[]; warningCount: number }
  | ({ ok: false } & TrackRefusal);

/** What was left out of a file, translated: the line, quoted, and why. */
export function captionWarning(warning: CaptionWarning, t: TFunction) {
  return t(`captions.warnings.${warning.problem}`, { line: warning.line, text: warning.text });
}

/** A caption file's problem as a translated message (naming the line where there is one, and for a file with no cue to keep, why). */
export function captionProblem(error: CaptionError, t: TFunction) {
  const key = error.line > 0 ? `captions.errors.${error.problem}Line` : `captions.errors.${error.problem}`;
  const message = t(key, { line: error.line, text: error.text });
  const [first] = error.warnings;
  if (!first) return message;
  const more = error.warningCount - 1;
  return `${message} ${captionWarning(first, t)}${more ? ` ${t("captions.warnings.more", { count: more })}` : ""}`;
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
      let read;
      try {
        read = readCaptionFile(fs.readFileSync(pending.tempPath), pending.name);
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
          cues: read.cues,
          uploadedBy,
          trackId: existing?.id,
        },
      );
      if (!saved.ok) return refuse(422, "invalid", saved.field, t(saved.message));
      const warnings = read.warnings
        .slice(0, WARNINGS_SHOWN)
        .map((w) => ({ line: w.line, problem: w.problem, message: captionWarning(w, t) }));
      return { ok: true, track: saved.value, warnings, warningCount: read.warningCount };
    },
    ({ status, message, code }) => refuse(status, code, "file", message),
  );
}

export function relabel(db: TenantConn, track: CaptionTrack, input: TrackInput, t: TFunction): TrackResult {
  const result = relabelTrack(db, track, input);
  return result.ok
    ? { ok: true, track: result.value, warnings: [], warningCount: 0 }
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
