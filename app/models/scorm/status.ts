import type { ScormAttempt, ScormItem } from "../../../db/tenant";
import { familyOf, type Family } from "./datamodel";

/**
 * A SCO's status as the LMS keeps it (docs/decisions/020-scorm.md "Status mapping" and "Status at exit"):
 * read from the content's elements, with what the LMS itself sets when a session ends and the content left
 * its status unset. Pure functions: the commit (runtime.server.ts) stores what they say.
 */

/** What the LMS set at an exit, kept beside the content's elements (never handed back to the content). */
const LMS_COMPLETION = "lectern.completion_status";
const LMS_SUCCESS = "lectern.success_status";

const unset = (value: string | undefined) => value === undefined || value === "" || value === "unknown";

/**
 * Applied to a terminating commit's elements (LMSFinish / Terminate), changing them in place.
 *
 * - SCORM 1.2 (RTE 3.4.4, cmi.core.lesson_status): when the SCO never set the status (still `not attempted`),
 *   the LMS sets `completed`; then, when the item has a mastery score and the SCO reported a raw score, `passed`
 *   or `failed` by comparing them. The element itself changes: the content reads it back next time.
 * - SCORM 2004 (SN, End Attempt Process UP.4): unless the learner suspended, an attempt that ends with the
 *   completion unknown counts as completed when `completionSetByContent` is false (the default), and with the
 *   success unknown as satisfied (passed) when `objectiveSetByContent` is false. `cmi.completion_status` and
 *   `cmi.success_status` stay `unknown` for the content; the LMS's own statuses are kept beside them.
 */
export function applyExitDefaults(
  family: Family,
  item: Pick<ScormItem, "masteryScore" | "completionSetByContent" | "objectiveSetByContent">,
  cmi: Record<string, string>,
) {
  if (family === "1.2") {
    const status = cmi["cmi.core.lesson_status"] ?? "";
    if (status !== "" && status !== "not attempted") return;
    const raw = cmi["cmi.core.score.raw"] ?? "";
    const mastered = item.masteryScore !== null && raw !== "" && Number.isFinite(Number(raw));
    cmi["cmi.core.lesson_status"] = mastered ? (Number(raw) >= item.masteryScore! ? "passed" : "failed") : "completed";
    return;
  }
  if (cmi["cmi.exit"] === "suspend") return;
  if (!item.completionSetByContent && unset(cmi["cmi.completion_status"])) cmi[LMS_COMPLETION] = "completed";
  if (!item.objectiveSetByContent && unset(cmi["cmi.success_status"])) cmi[LMS_SUCCESS] = "passed";
}

/** The SCO's completion and success statuses from its stored elements: the content's, else the LMS's. */
export function statusesOf(family: Family, cmi: Record<string, string>): { completionStatus: string; successStatus: string } {
  if (family === "1.2") {
    const completionStatus = cmi["cmi.core.lesson_status"] || "not attempted";
    return {
      completionStatus,
      successStatus: completionStatus === "passed" || completionStatus === "failed" ? completionStatus : "unknown",
    };
  }
  const completion = cmi["cmi.completion_status"];
  const success = cmi["cmi.success_status"];
  return {
    completionStatus: unset(completion) ? cmi[LMS_COMPLETION] || "unknown" : completion!,
    successStatus: unset(success) ? cmi[LMS_SUCCESS] || "unknown" : success!,
  };
}

/** Is this SCO done, in the package's own words (docs/decisions/020-scorm.md "Status mapping")? */
export function scoComplete(attempt: Pick<ScormAttempt, "version" | "completionStatus" | "successStatus">) {
  if (familyOf(attempt.version) === "1.2") return attempt.completionStatus === "passed" || attempt.completionStatus === "completed";
  return attempt.completionStatus === "completed" || (attempt.completionStatus === "unknown" && attempt.successStatus === "passed");
}
