import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { lessons } from "./courses";
import { users } from "./people";

/* SCORM (issue 16, docs/decisions/020-scorm.md): a lesson's package and each learner's runtime data. */

export const SCORM_VERSIONS = ["1.2", "2004-2", "2004-3", "2004-4"] as const;
export type ScormVersion = (typeof SCORM_VERSIONS)[number];

/** One launchable item (SCO or asset) of a package's default organization, in manifest order. */
export interface ScormItem {
  identifier: string;
  title: string;
  /** Launch path inside the package folder, with the item's parameters (query or fragment) appended. */
  launch: string;
  scormType: "sco" | "asset";
  /** 1.2 `adlcp:masteryscore` (0–100), 2004 `imsss:minNormalizedMeasure` (-1…1). */
  masteryScore: number | null;
  launchData: string | null;
  depth: number;
  /**
   * The chapter headings (items without a resource of their own) that open just before this item in the
   * contents list, outermost first (a hidden chapter's only closes those before it). Absent in packages
   * installed before issue 45.
   */
  headings?: Array<{ title: string; depth: number; hidden?: boolean }>;
  /** `isvisible="false"`: not shown in the contents list. */
  hidden?: boolean;
  /**
   * SCORM 2004 `imsss:deliveryControls` (both default to false): whether the content alone decides the
   * completion and the satisfaction of the activity; when false, the LMS sets them when the attempt ends
   * (docs/decisions/020-scorm.md "Status at exit").
   */
  completionSetByContent?: boolean;
  objectiveSetByContent?: boolean;
}

/** The SCORM package of a lesson (one a lesson; replacing it swaps the folder and keeps the learners' data). */
export const scormPackages = sqliteTable(
  "scorm_packages",
  {
    id: id(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    version: text("version", { enum: SCORM_VERSIONS }).notNull(),
    title: text("title").notNull(),
    /** Folder name under `<organization folder>/scorm/`. */
    folder: text("folder").notNull(),
    items: text("items", { mode: "json" }).$type<ScormItem[]>().notNull(),
    fileCount: integer("file_count").notNull(),
    unpackedBytes: integer("unpacked_bytes").notNull(),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("scorm_packages_lesson_unique").on(t.lessonId)],
);

/** A learner's runtime data for one SCO of a lesson: the CMI elements as committed, and what they mean. */
export const scormAttempts = sqliteTable(
  "scorm_attempts",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    /** The item's identifier in the manifest. */
    scoId: text("sco_id").notNull(),
    version: text("version", { enum: SCORM_VERSIONS }).notNull(),
    /** Flattened CMI elements (`cmi.suspend_data` → value), validated against the data model. */
    cmi: text("cmi", { mode: "json" }).$type<Record<string, string>>().notNull(),
    /** 1.2 lesson_status, or 2004 completion_status. */
    completionStatus: text("completion_status").notNull().default("not attempted"),
    /** 2004 success_status (passed, failed, unknown); 1.2 passed/failed also land here. */
    successStatus: text("success_status").notNull().default("unknown"),
    scoreRaw: real("score_raw"),
    scoreMin: real("score_min"),
    scoreMax: real("score_max"),
    /** 2004 scaled score (-1…1); for 1.2, raw / max when both are known. */
    scoreScaled: real("score_scaled"),
    totalSeconds: integer("total_seconds").notNull().default(0),
    completedAt: integer("completed_at", { mode: "timestamp" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("scorm_attempts_user_lesson_sco_unique").on(t.userId, t.lessonId, t.scoId),
    index("scorm_attempts_lesson_idx").on(t.lessonId),
  ],
);

export type ScormPackage = typeof scormPackages.$inferSelect;
export type ScormAttempt = typeof scormAttempts.$inferSelect;
