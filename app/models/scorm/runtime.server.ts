import { and, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { scormAttempts, users, type Lesson, type ScormAttempt, type ScormItem, type ScormPackage } from "../../../db/tenant";
import { completeLesson } from "../learning.server";
import {
  familyOf,
  formatDuration2004,
  formatTimespan12,
  parseDuration2004,
  parseTimespan12,
  validateCmi,
  type CmiProblem,
} from "./datamodel";
import { markLessonStarted } from "../lesson-state.server";
import { requiredItems } from "./contents";
import { applyExitDefaults, scoComplete, statusesOf } from "./status";

/**
 * A learner's runtime data of a SCORM package (issue 16, docs/decisions/020-scorm.md): what a SCO starts
 * with (resume), and commits, with the status mapping that completes the lesson through completeLesson
 * (and so fires the learning events).
 */
export function getAttempts(db: TenantConn, userId: number, lessonId: number) {
  return db
    .select()
    .from(scormAttempts)
    .where(and(eq(scormAttempts.userId, userId), eq(scormAttempts.lessonId, lessonId)))
    .all();
}

function attemptFor(db: TenantConn, userId: number, lessonId: number, scoId: string) {
  return db
    .select()
    .from(scormAttempts)
    .where(and(eq(scormAttempts.userId, userId), eq(scormAttempts.lessonId, lessonId), eq(scormAttempts.scoId, scoId)))
    .get();
}

/**
 * What a SCO starts with: the learner's stored elements, and the LMS's own ones (learner id and name,
 * entry, credit, mode, launch data, mastery score, total time). `entry` is "resume" when the previous
 * session suspended, or ended without Terminate (a closed tab) and left data behind; "ab-initio" the first time.
 */
export function launchState(db: TenantConn, { userId, pkg, item }: { userId: number; pkg: ScormPackage; item: ScormItem }) {
  const attempt = attemptFor(db, userId, pkg.lessonId, item.identifier);
  const person = db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).get();
  const name = person ? `${person.lastName}, ${person.firstName}`.replace(/^, |, $/g, "") : "";
  const stored = { ...(attempt?.cmi ?? {}) };
  const meta = { exit: stored["lectern.exit"] ?? "", terminated: stored["lectern.terminated"] === "true" };
  for (const key of Object.keys(stored)) if (key.startsWith("lectern.")) delete stored[key];
  const hasData = Object.keys(stored).length > 0;
  const entry = !attempt ? "ab-initio" : meta.exit === "suspend" || (!meta.terminated && hasData) ? "resume" : "";
  const family = familyOf(pkg.version);
  const total = attempt?.totalSeconds ?? 0;
  const seed: Record<string, string> =
    family === "1.2"
      ? {
          ...stored,
          "cmi.core.student_id": String(userId),
          "cmi.core.student_name": name,
          "cmi.core.entry": entry,
          "cmi.core.credit": "credit",
          "cmi.core.lesson_mode": "normal",
          "cmi.core.total_time": formatTimespan12(total),
          "cmi.launch_data": item.launchData ?? "",
          ...(item.masteryScore !== null ? { "cmi.student_data.mastery_score": String(item.masteryScore) } : {}),
        }
      : {
          ...stored,
          "cmi.learner_id": String(userId),
          "cmi.learner_name": name,
          "cmi.entry": entry,
          "cmi.credit": "credit",
          "cmi.mode": "normal",
          "cmi.total_time": formatDuration2004(total),
          "cmi.launch_data": item.launchData ?? "",
          ...(item.masteryScore !== null && item.masteryScore >= -1 && item.masteryScore <= 1
            ? { "cmi.scaled_passing_score": String(item.masteryScore) }
            : {}),
        };
  // The exit of the previous session is not carried into the new one.
  delete seed[family === "1.2" ? "cmi.core.exit" : "cmi.exit"];
  // A 1.2 status the content never set is not handed to it: scorm-again takes a status present at
  // LMSInitialize for one the content set, and would then not set it at LMSFinish ("Status at exit").
  if (family === "1.2" && seed["cmi.core.lesson_status"] === "not attempted") delete seed["cmi.core.lesson_status"];
  delete seed[family === "1.2" ? "cmi.core.session_time" : "cmi.session_time"];
  return seed;
}

export type CommitResult =
  | { ok: true; attempt: ScormAttempt; lessonCompleted: boolean; courseCompleted: boolean }
  | { ok: false; problem: "unknown_sco" }
  | { ok: false; problem: "stale" }
  | { ok: false; problem: "invalid"; problems: CmiProblem[] };

const num = (v: string | undefined) => (v === undefined || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));

/** One launch of a SCO (server/scorm/content.ts): its id starts with the time it was handed out (base 36 ms). */
export interface LaunchOrder {
  id: string;
  /** The launch's commits are numbered from 1, in the order the content made them. */
  seq: number;
}

const launchTime = (id: string | undefined) => (id ? parseInt(id.split(".")[0]!, 36) || 0 : 0);

/**
 * A commit that comes after a later one of its launch (requests sent as a frame closes may overtake each
 * other), or from a launch older than the one last stored.
 */
function superseded(stored: Record<string, string> | undefined, launch: LaunchOrder) {
  if (!stored?.["lectern.launch"]) return false;
  if (stored["lectern.launch"] === launch.id) return launch.seq <= Number(stored["lectern.seq"] ?? 0);
  return launchTime(stored["lectern.launch"]) > launchTime(launch.id);
}

/**
 * Stores a commit of one learner's runtime data for one SCO. The elements are validated against the data
 * model (names, sizes, vocabularies); the statuses are read from them, with what the LMS sets at exit when
 * the content left them unset (./status.ts); a terminating commit adds the session time to the total; a
 * launch's id and number are kept for `commitFromLaunch`. When every SCO the lesson needs is done
 * (./contents.ts `requiredItems`), the lesson is completed through completeLesson (once; the learning events
 * fire there).
 */
export function commitAttempt(
  db: TenantConn,
  {
    userId,
    lesson,
    pkg,
    scoId,
    cmi,
    terminate = false,
    launch,
    now = new Date(),
  }: {
    userId: number;
    lesson: Lesson;
    pkg: ScormPackage;
    scoId: string;
    cmi: Record<string, unknown>;
    terminate?: boolean;
    launch?: LaunchOrder;
    now?: Date;
  },
): CommitResult {
  const item = pkg.items.find((i) => i.identifier === scoId);
  if (!item) return { ok: false, problem: "unknown_sco" };
  const family = familyOf(pkg.version);
  const checked = validateCmi(family, cmi);
  if (!checked.ok) return { ok: false, problem: "invalid", problems: checked.problems };
  const values = checked.values;
  return db.transaction((tx) => {
    const existing = attemptFor(tx, userId, lesson.id, scoId);
    // A launch whose attempt has since ended (a renewal: app/models/completion-cycle.server.ts
    // `restartCourseWork`) still holds that attempt's data, statuses included, and scorm-again sends it back
    // whole: its commits are refused, so a package left open in a tab cannot complete the renewal. Only a new
    // attempt's launch is seeded `ab-initio` (`launchState`).
    const entry = cmi[family === "1.2" ? "cmi.core.entry" : "cmi.entry"];
    if (!existing && typeof entry === "string" && entry !== "ab-initio") return { ok: false as const, problem: "stale" as const };
    const merged: Record<string, string> = { ...(existing?.cmi ?? {}), ...values };
    if (launch) Object.assign(merged, { "lectern.launch": launch.id, "lectern.seq": String(launch.seq) });
    const sessionKey = family === "1.2" ? "cmi.core.session_time" : "cmi.session_time";
    const exitKey = family === "1.2" ? "cmi.core.exit" : "cmi.exit";
    let total = existing?.totalSeconds ?? 0;
    if (terminate) {
      const session = values[sessionKey]
        ? family === "1.2"
          ? parseTimespan12(values[sessionKey])
          : parseDuration2004(values[sessionKey])
        : 0;
      total += Math.min(Math.max(0, Math.round(session ?? 0)), 24 * 3600);
      merged["lectern.terminated"] = "true";
      applyExitDefaults(family, item, merged);
    } else merged["lectern.terminated"] = "false";
    merged["lectern.exit"] = values[exitKey] ?? "";
    delete merged[sessionKey];
    const { completionStatus, successStatus } = statusesOf(family, merged);
    const prefix = family === "1.2" ? "cmi.core.score." : "cmi.score.";
    const raw = num(merged[`${prefix}raw`]);
    const min = num(merged[`${prefix}min`]);
    const max = num(merged[`${prefix}max`]);
    let scaled = family === "2004" ? num(merged["cmi.score.scaled"]) : null;
    if (family === "1.2") {
      // 1.2 has no scaled score: raw against its range, when the range is known.
      if (raw !== null) scaled = max !== null && max > (min ?? 0) ? (raw - (min ?? 0)) / (max - (min ?? 0)) : raw / 100;
    } else if (scaled === null && raw !== null && max !== null && max > (min ?? 0)) scaled = (raw - (min ?? 0)) / (max - (min ?? 0));
    const status = { version: pkg.version, completionStatus, successStatus };
    const done = scoComplete(status);
    const fields = {
      version: pkg.version,
      cmi: merged,
      completionStatus,
      successStatus,
      scoreRaw: raw,
      scoreMin: min,
      scoreMax: max,
      scoreScaled: scaled === null ? null : Math.max(-1, Math.min(1, scaled)),
      totalSeconds: total,
      updatedAt: now,
      // Once done, a SCO stays done for the LMS even if the content later says otherwise.
      completedAt: existing?.completedAt ?? (done ? now : null),
    };
    // The lesson shows as started (the one lesson state) from the first commit on, and again in a renewal.
    markLessonStarted(tx, { userId, lesson, now });
    const attempt = existing
      ? tx.update(scormAttempts).set(fields).where(eq(scormAttempts.id, existing.id)).returning().get()!
      : tx
          .insert(scormAttempts)
          .values({ ...fields, userId, lessonId: lesson.id, scoId })
          .returning()
          .get();
    let lessonCompleted = false;
    let courseCompleted = false;
    if (attempt.completedAt) {
      const finished = new Set(
        getAttempts(tx, userId, lesson.id)
          .filter((a) => a.completedAt)
          .map((a) => a.scoId),
      );
      if (requiredItems(pkg.items).every((index) => finished.has(pkg.items[index]!.identifier))) {
        lessonCompleted = true;
        courseCompleted = completeLesson(tx, { userId, lesson, now }).courseCompleted;
      }
    }
    return { ok: true as const, attempt, lessonCompleted, courseCompleted };
  });
}

/**
 * A commit from a launcher (server/scorm/commit.ts): stored through `commitAttempt` unless a later commit of
 * the same launch, or one from a later launch, is stored already (checked in the same transaction).
 */
export function commitFromLaunch(
  db: TenantConn,
  args: Parameters<typeof commitAttempt>[1] & { launch: LaunchOrder },
): CommitResult | { ok: false; problem: "superseded" } {
  return db.transaction((tx) => {
    const existing = attemptFor(tx, args.userId, args.lesson.id, args.scoId);
    if (superseded(existing?.cmi, args.launch)) return { ok: false as const, problem: "superseded" as const };
    return commitAttempt(tx, args);
  });
}

export function attemptView(a: ScormAttempt) {
  return {
    id: a.id,
    lesson_id: a.lessonId,
    sco_id: a.scoId,
    version: a.version,
    completion_status: a.completionStatus,
    success_status: a.successStatus,
    completed: a.completedAt !== null,
    score: { raw: a.scoreRaw, min: a.scoreMin, max: a.scoreMax, scaled: a.scoreScaled },
    total_seconds: a.totalSeconds,
    updated_at: a.updatedAt.toISOString(),
  };
}

/** The SCORM tracking of one lesson for one learner, as /api shows it beside lesson progress. */
export function lessonTracking(db: TenantConn, userId: number, lessonId: number) {
  const attempts = getAttempts(db, userId, lessonId);
  if (!attempts.length) return null;
  const scored = attempts.filter((a) => a.scoreScaled !== null);
  return {
    status: attempts.every((a) => a.completedAt) ? "completed" : "incomplete",
    score: scored.length ? Math.round((scored.reduce((s, a) => s + a.scoreScaled!, 0) / scored.length) * 100) : null,
    total_seconds: attempts.reduce((s, a) => s + a.totalSeconds, 0),
    scos: attempts.map(attemptView),
  };
}
