import { asc, eq, inArray, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { captionCues, captionTracks, files, lessons, playerPreferences, type CaptionTrack, type Lesson } from "../../db/tenant";
import type { Viewer } from "../access/viewer";
import { lessonAccess } from "../access/courses";
import { CaptionError, cueText, decodeCaptionBytes, parseCaptions, toWebVtt, type Cue, type LeftOut } from "../utils/captions";
import { CAPTION_FILE_MAX_BYTES, deleteFile, storeGeneratedFile } from "./file.server";
import { findLesson } from "./course-lookup.server";
import type { WriteResult } from "./resource";

/**
 * Caption tracks of video lessons and the learner's player settings (issue 35, docs/decisions/036-captions.md).
 * An uploaded WebVTT or SRT file is read by app/utils/captions.ts; what is stored is the WebVTT written from
 * its cues (a row of `files`, served at the same signed address as the video), the track's row, and its
 * cues as plain text (the transcript, and through triggers the full-text search: migrations/tenant/0025).
 * All three appear together or not at all.
 */

/** The largest caption file taken (a two-hour film's SRT is about 150 KB). */
export const CAPTION_MAX_BYTES = CAPTION_FILE_MAX_BYTES;

export { PLAYBACK_RATES } from "../utils/playback";

/** A BCP 47 language tag as tracks take it: `en`, `da`, `pt-BR`, `zh-Hant`. */
export const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2}$/;

export interface TrackInput {
  language: string;
  label: string;
}

/** A language's name in that language (`da` → "Dansk"), the label a track gets when none is given. */
export function languageName(language: string) {
  try {
    const name = new Intl.DisplayNames([language], { type: "language" }).of(language);
    return name ? name.charAt(0).toLocaleUpperCase(language) + name.slice(1) : language;
  } catch {
    return language;
  }
}

/** The lesson's tracks, in the order they were added. */
export function listTracks(db: TenantConn, lessonId: number): CaptionTrack[] {
  return preparedOnce(db, "captions.tracks", () =>
    db
      .select()
      .from(captionTracks)
      .where(eq(captionTracks.lessonId, sql.placeholder("lessonId")))
      .orderBy(asc(captionTracks.id))
      .prepare(),
  ).all({ lessonId });
}

/** The tracks of many lessons at once (the /api lesson lists), by lesson. */
export function tracksOfLessons(db: TenantConn, lessonIds: readonly number[]) {
  const byLesson = new Map<number, CaptionTrack[]>();
  if (!lessonIds.length) return byLesson;
  const rows = db
    .select()
    .from(captionTracks)
    .where(inArray(captionTracks.lessonId, [...lessonIds]))
    .orderBy(asc(captionTracks.id))
    .all();
  for (const row of rows) byLesson.set(row.lessonId, [...(byLesson.get(row.lessonId) ?? []), row]);
  return byLesson;
}

export function getTrack(db: TenantConn, id: number) {
  return db.select().from(captionTracks).where(eq(captionTracks.id, id)).get();
}

/** The file of a track, for its signed address. */
export function trackFile(db: TenantConn, track: CaptionTrack) {
  return db.select().from(files).where(eq(files.id, track.fileId)).get();
}

/**
 * A lesson the viewer may open, as the lesson page decides it (app/access/courses.ts): its course found for
 * them, the lesson not hidden, and its access allowed. Learners see a lesson's tracks only then.
 */
export function openableLesson(db: TenantConn, viewer: Viewer, lessonId: number): Lesson | undefined {
  const found = findLesson(db, viewer, lessonId);
  return found && lessonAccess(db, viewer, found.course, found.lesson).allowed ? found.lesson : undefined;
}

/** Any lesson by id (the management screens and calls, which check `write:course` first). */
export function lessonById(db: TenantConn, lessonId: number) {
  return db.select().from(lessons).where(eq(lessons.id, lessonId)).get();
}

/** The cues of a track as plain text, in order: the transcript. */
export function transcriptOf(db: TenantConn, trackId: number) {
  return preparedOnce(db, "captions.cues", () =>
    db
      .select({ start: captionCues.startMs, end: captionCues.endMs, text: captionCues.text })
      .from(captionCues)
      .where(eq(captionCues.trackId, sql.placeholder("trackId")))
      .orderBy(asc(captionCues.startMs), asc(captionCues.id))
      .prepare(),
  ).all({ trackId });
}

/**
 * Reads an uploaded caption file (bytes, either format): the cues to keep and what was left out (WebVTT's cues
 * that cannot be read or shown), or a `CaptionError` naming the line when the file is refused.
 */
export function readCaptionFile(bytes: Uint8Array, name: string): { cues: Cue[] } & LeftOut {
  if (bytes.length > CAPTION_MAX_BYTES) throw new CaptionError("too_long", 0);
  const { cues, warnings, warningCount } = parseCaptions(decodeCaptionBytes(bytes), name);
  return { cues, warnings, warningCount };
}

/** Checks a track's language and label; the label defaults to the language's own name. */
export function checkTrackInput(input: { language?: unknown; label?: unknown }): WriteResult<TrackInput> {
  const language = typeof input.language === "string" ? input.language.trim() : "";
  if (!LANGUAGE_TAG.test(language)) return { ok: false, field: "language", message: "captions.errors.language" };
  const label = typeof input.label === "string" ? input.label.trim() : "";
  if (label.length > 60) return { ok: false, field: "label", message: "captions.errors.label" };
  return { ok: true, value: { language, label: label || languageName(language) } };
}

interface Store {
  dataDir: string;
  organizationId: number;
}

function insertCues(tx: TenantConn, track: CaptionTrack, cues: readonly Cue[]) {
  const insert = tx
    .insert(captionCues)
    .values({
      trackId: sql.placeholder("trackId"),
      lessonId: sql.placeholder("lessonId"),
      startMs: sql.placeholder("startMs"),
      endMs: sql.placeholder("endMs"),
      text: sql.placeholder("text"),
    } as never)
    .prepare();
  for (const cue of cues)
    insert.run({ trackId: track.id, lessonId: track.lessonId, startMs: cue.start, endMs: cue.end, text: cueText(cue.payload) });
}

function vttName(lesson: Pick<Lesson, "id">, language: string) {
  return `lesson-${lesson.id}.${language}.vtt`;
}

/**
 * Adds a track to a lesson, or replaces the track of that language (its file, cues and label): the new
 * WebVTT file, the track and its cues in one transaction; the replaced file is deleted after it.
 */
export function saveTrack(
  db: TenantConn,
  store: Store,
  {
    lesson,
    input,
    cues,
    uploadedBy,
    trackId,
  }: { lesson: Lesson; input: TrackInput; cues: readonly Cue[]; uploadedBy: number | null; trackId?: number },
): WriteResult<CaptionTrack> {
  const existing = trackId ? getTrack(db, trackId) : undefined;
  const clash = listTracks(db, lesson.id).find((t) => t.language === input.language && t.id !== existing?.id);
  // Adding a language the lesson has replaces that track; changing a track to another's language is refused.
  if (clash && existing) return { ok: false, field: "language", message: "captions.errors.taken" };
  const replaced = existing ?? clash;
  const saved = db.transaction((tx) => {
    const file = storeGeneratedFile(tx, store, { name: vttName(lesson, input.language), data: Buffer.from(toWebVtt(cues)), uploadedBy });
    let track: CaptionTrack;
    if (replaced) {
      tx.delete(captionCues).where(eq(captionCues.trackId, replaced.id)).run();
      track = tx
        .update(captionTracks)
        .set({ fileId: file.id, language: input.language, label: input.label, cueCount: cues.length })
        .where(eq(captionTracks.id, replaced.id))
        .returning()
        .get()!;
    } else {
      track = tx
        .insert(captionTracks)
        .values({ lessonId: lesson.id, fileId: file.id, language: input.language, label: input.label, cueCount: cues.length })
        .returning()
        .get();
    }
    insertCues(tx, track, cues);
    return track;
  });
  if (replaced) deleteFile(db, store, replaced.fileId);
  return { ok: true, value: saved };
}

/** Changes a track's label (and language) without a new file. */
export function relabelTrack(db: TenantConn, track: CaptionTrack, input: TrackInput): WriteResult<CaptionTrack> {
  const clash = listTracks(db, track.lessonId).find((t) => t.language === input.language && t.id !== track.id);
  if (clash) return { ok: false, field: "language", message: "captions.errors.taken" };
  const row = db
    .update(captionTracks)
    .set({ language: input.language, label: input.label })
    .where(eq(captionTracks.id, track.id))
    .returning()
    .get()!;
  return { ok: true, value: row };
}

/** Deletes a track: its file (the track and its cues go with it, by cascade). */
export function deleteTrack(db: TenantConn, store: Store, track: CaptionTrack) {
  return deleteFile(db, store, track.fileId);
}

/** A track as /api and the screens show it (without its address, which the caller signs). */
export function trackView(track: CaptionTrack) {
  return {
    id: track.id,
    lesson_id: track.lessonId,
    language: track.language,
    label: track.label,
    cue_count: track.cueCount,
    created_at: track.createdAt.toISOString(),
    updated_at: track.updatedAt.toISOString(),
  };
}

// ——— the learner's choice ———

export interface PlayerPreferences {
  /** A language, `off`, or null (by the interface language). */
  captions: string | null;
  playbackRate: number;
}

export function playerPreferencesOf(db: TenantConn, userId: number): PlayerPreferences {
  const row = preparedOnce(db, "captions.preferences", () =>
    db
      .select({ captions: playerPreferences.captions, playbackRate: playerPreferences.playbackRate })
      .from(playerPreferences)
      .where(eq(playerPreferences.userId, sql.placeholder("userId")))
      .prepare(),
  ).get({ userId });
  return row ?? { captions: null, playbackRate: 1 };
}

/** Saves what is given of the learner's choice (the rest stays). */
export function savePlayerPreferences(db: TenantConn, userId: number, change: Partial<PlayerPreferences>) {
  const current = playerPreferencesOf(db, userId);
  const next = { ...current, ...change };
  db.insert(playerPreferences)
    .values({ userId, captions: next.captions, playbackRate: next.playbackRate })
    .onConflictDoUpdate({
      target: playerPreferences.userId,
      set: { captions: next.captions, playbackRate: next.playbackRate, updatedAt: new Date() },
    })
    .run();
  return next;
}

/** Two tags of one language (`no` and `nb`, `pt` and `pt-BR`) are the same language here. */
const primary = (tag: string) => {
  const base = tag.toLowerCase().split("-")[0];
  return base === "nb" || base === "nn" ? "no" : base;
};

/**
 * Which track plays with captions shown: the language asked for by the transcript's menu, else the learner's
 * last choice (none when they turned captions off), else the track in their interface language. `transcript` is the track the transcript shows: the shown one, else
 * the chosen or interface language's, else the first.
 */
export function chooseTracks<T extends Pick<CaptionTrack, "language">>(
  tracks: readonly T[],
  { preference, language, asked }: { preference: string | null; language: string; asked?: string | null },
) {
  const find = (tag: string | null | undefined) =>
    tag ? (tracks.find((t) => t.language === tag) ?? tracks.find((t) => primary(t.language) === primary(tag))) : undefined;
  // A transcript language asked for (its menu) is the captions' language too, unless they are off.
  const shown = preference === "off" ? undefined : (find(asked) ?? find(preference) ?? find(language));
  const transcript = find(asked) ?? shown ?? find(language) ?? tracks[0];
  return { shown, transcript };
}
