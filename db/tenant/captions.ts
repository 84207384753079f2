import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { lessons } from "./courses";
import { files } from "./files";
import { users } from "./people";

/* Captions and transcripts (issue 35, docs/decisions/036-captions.md), and the player's settings. */

/**
 * A video lesson's caption track: one per language, its WebVTT file (written by the server from what was
 * uploaded) a row of `files` served at the same signed address as the video.
 */
export const captionTracks = sqliteTable(
  "caption_tracks",
  {
    id: id(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    /** A BCP 47 language tag (`en`, `da`, `pt-BR`). */
    language: text("language").notNull(),
    label: text("label").notNull(),
    cueCount: integer("cue_count").notNull().default(0),
    ...timestamps(),
  },
  (t) => [uniqueIndex("caption_tracks_lesson_language_unique").on(t.lessonId, t.language), index("caption_tracks_file_idx").on(t.fileId)],
);

/** A track's cues as plain text (markup stripped): the transcript, and what the search indexes. */
export const captionCues = sqliteTable(
  "caption_cues",
  {
    id: id(),
    trackId: integer("track_id")
      .notNull()
      .references(() => captionTracks.id, { onDelete: "cascade" }),
    /** The track's lesson, for the search index (a cue's hit is a place in a lesson). */
    lessonId: integer("lesson_id").notNull(),
    startMs: integer("start_ms").notNull(),
    endMs: integer("end_ms").notNull(),
    text: text("text").notNull(),
  },
  (t) => [index("caption_cues_track_start_idx").on(t.trackId, t.startMs)],
);

/** A learner's player settings, kept on the server so they follow them to every device. */
export const playerPreferences = sqliteTable(
  "player_preferences",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The caption language chosen last; `off` when captions were turned off; null: by the interface language. */
    captions: text("captions"),
    /** 0.75 to 2. */
    playbackRate: real("playback_rate").notNull().default(1),
    updatedAt: integer("updated_at", { mode: "timestamp" })
      .notNull()
      .default(sql`(unixepoch())`)
      .$onUpdate(() => new Date()),
  },
  (t) => [check("player_preferences_rate_check", sql`${t.playbackRate} between 0.5 and 2`)],
);

export type CaptionTrack = typeof captionTracks.$inferSelect;
export type CaptionCue = typeof captionCues.$inferSelect;
