/**
 * The SCORM run-time data models (1.2 and 2004), as far as the LMS stores them: which element names a
 * commit may carry, which of them the learner's content may write (the rest are the LMS's own and are
 * dropped), and the size limits of their values (SCORM 1.2 RTE §3.4, SCORM 2004 RTE §4.2 "smallest
 * permitted maximum", with the LMS's own caps on collections).
 */
export type Family = "1.2" | "2004";

export function familyOf(version: string): Family {
  return version === "1.2" ? "1.2" : "2004";
}

interface Rule {
  pattern: RegExp;
  /** Longest value accepted (characters). */
  max: number;
  /** The content may write it; false: the LMS's own value, ignored when committed. */
  writable: boolean;
  values?: readonly string[];
  kind?: "decimal" | "timespan12" | "duration2004";
}

const N = "(\\d{1,4})";
const r = (path: string) =>
  new RegExp(
    `^${path
      .split(".")
      .map((part) => (part === "n" ? N : part))
      .join("\\.")}$`,
  );

const STATUS12 = ["passed", "completed", "failed", "incomplete", "browsed", "not attempted"] as const;
const EXIT12 = ["time-out", "suspend", "logout", ""] as const;
const INTERACTION_TYPES12 = ["true-false", "choice", "fill-in", "matching", "performance", "sequencing", "likert", "numeric"];
const INTERACTION_TYPES2004 = [...INTERACTION_TYPES12, "long-fill-in", "other"];

const rules12: Rule[] = [
  { pattern: r("cmi.core.lesson_location"), max: 255, writable: true },
  { pattern: r("cmi.core.lesson_status"), max: 20, writable: true, values: STATUS12 },
  { pattern: r("cmi.core.exit"), max: 20, writable: true, values: EXIT12 },
  { pattern: r("cmi.core.session_time"), max: 20, writable: true, kind: "timespan12" },
  { pattern: /^cmi\.core\.score\.(raw|min|max)$/, max: 20, writable: true, kind: "decimal" },
  { pattern: r("cmi.suspend_data"), max: 4096, writable: true },
  { pattern: r("cmi.comments"), max: 4096, writable: true },
  { pattern: /^cmi\.student_preference\.(audio|language|speed|text)$/, max: 255, writable: true },
  { pattern: r("cmi.objectives.n.id"), max: 255, writable: true },
  { pattern: /^cmi\.objectives\.(\d{1,4})\.score\.(raw|min|max)$/, max: 20, writable: true, kind: "decimal" },
  { pattern: r("cmi.objectives.n.status"), max: 20, writable: true, values: STATUS12 },
  { pattern: r("cmi.interactions.n.id"), max: 255, writable: true },
  { pattern: r("cmi.interactions.n.time"), max: 20, writable: true },
  { pattern: r("cmi.interactions.n.type"), max: 20, writable: true, values: [...INTERACTION_TYPES12, ""] },
  { pattern: r("cmi.interactions.n.weighting"), max: 20, writable: true },
  { pattern: r("cmi.interactions.n.student_response"), max: 255, writable: true },
  { pattern: r("cmi.interactions.n.result"), max: 20, writable: true },
  { pattern: r("cmi.interactions.n.latency"), max: 20, writable: true },
  { pattern: /^cmi\.interactions\.(\d{1,4})\.objectives\.(\d{1,4})\.id$/, max: 255, writable: true },
  { pattern: /^cmi\.interactions\.(\d{1,4})\.correct_responses\.(\d{1,4})\.pattern$/, max: 255, writable: true },
  // The LMS's own: sent back by scorm-again in full commits, never taken from the content.
  {
    pattern:
      /^cmi\.(core\.(student_id|student_name|credit|entry|lesson_mode|total_time)|launch_data|comments_from_lms|student_data\.(mastery_score|max_time_allowed|time_limit_action))$/,
    max: 4096,
    writable: false,
  },
];

const COMPLETION = ["completed", "incomplete", "not attempted", "unknown"] as const;
const SUCCESS = ["passed", "failed", "unknown"] as const;
const EXIT2004 = ["time-out", "suspend", "logout", "normal", ""] as const;

const rules2004: Rule[] = [
  { pattern: r("cmi.location"), max: 1000, writable: true },
  { pattern: r("cmi.completion_status"), max: 20, writable: true, values: COMPLETION },
  { pattern: r("cmi.success_status"), max: 20, writable: true, values: SUCCESS },
  { pattern: r("cmi.exit"), max: 20, writable: true, values: EXIT2004 },
  { pattern: r("cmi.session_time"), max: 64, writable: true, kind: "duration2004" },
  { pattern: /^cmi\.score\.(scaled|raw|min|max)$/, max: 20, writable: true, kind: "decimal" },
  { pattern: r("cmi.progress_measure"), max: 20, writable: true, kind: "decimal" },
  { pattern: r("cmi.suspend_data"), max: 64_000, writable: true },
  { pattern: /^cmi\.learner_preference\.(audio_level|language|delivery_speed|audio_captioning)$/, max: 250, writable: true },
  { pattern: r("cmi.comments_from_learner.n.comment"), max: 4000, writable: true },
  { pattern: r("cmi.comments_from_learner.n.location"), max: 250, writable: true },
  { pattern: r("cmi.comments_from_learner.n.timestamp"), max: 64, writable: true },
  { pattern: r("cmi.objectives.n.id"), max: 4000, writable: true },
  { pattern: /^cmi\.objectives\.(\d{1,4})\.score\.(scaled|raw|min|max)$/, max: 20, writable: true, kind: "decimal" },
  { pattern: r("cmi.objectives.n.success_status"), max: 20, writable: true, values: SUCCESS },
  { pattern: r("cmi.objectives.n.completion_status"), max: 20, writable: true, values: COMPLETION },
  { pattern: r("cmi.objectives.n.progress_measure"), max: 20, writable: true, kind: "decimal" },
  { pattern: r("cmi.objectives.n.description"), max: 250, writable: true },
  { pattern: r("cmi.interactions.n.id"), max: 4000, writable: true },
  { pattern: r("cmi.interactions.n.type"), max: 20, writable: true, values: [...INTERACTION_TYPES2004, ""] },
  { pattern: r("cmi.interactions.n.timestamp"), max: 64, writable: true },
  { pattern: r("cmi.interactions.n.weighting"), max: 20, writable: true },
  { pattern: r("cmi.interactions.n.learner_response"), max: 64_000, writable: true },
  { pattern: r("cmi.interactions.n.result"), max: 20, writable: true },
  { pattern: r("cmi.interactions.n.latency"), max: 64, writable: true },
  { pattern: r("cmi.interactions.n.description"), max: 250, writable: true },
  { pattern: /^cmi\.interactions\.(\d{1,4})\.objectives\.(\d{1,4})\.id$/, max: 4000, writable: true },
  { pattern: /^cmi\.interactions\.(\d{1,4})\.correct_responses\.(\d{1,4})\.pattern$/, max: 64_000, writable: true },
  { pattern: /^adl\.nav\.request$/, max: 4000, writable: false },
  {
    pattern:
      /^cmi\.(learner_id|learner_name|credit|entry|mode|launch_data|total_time|completion_threshold|scaled_passing_score|max_time_allowed|time_limit_action|comments_from_lms\.(\d{1,4})\.(comment|location|timestamp))$/,
    max: 64_000,
    writable: false,
  },
];

/** Caps on collections (the LMS's; the SPM minimums are 100 objectives, 250 interactions, 250 comments). */
export const MAX_INDEX = { objectives: 100, interactions: 500, comments_from_learner: 250, correct_responses: 250 };
/** Total characters of one commit's values. */
export const MAX_COMMIT_CHARS = 2_000_000;

export interface CmiProblem {
  element: string;
  problem: "unknown_element" | "too_long" | "invalid_value" | "too_many";
}

function decimalOk(v: string) {
  return v === "" || /^-?\d{1,10}(\.\d{1,7})?$/.test(v);
}

/**
 * Checks a flattened commit: every name known to the version's data model, every value within its
 * limits. Returns the elements to store (the writable ones) or the problems found.
 */
export function validateCmi(
  family: Family,
  input: Record<string, unknown>,
): { ok: true; values: Record<string, string> } | { ok: false; problems: CmiProblem[] } {
  const rules = family === "1.2" ? rules12 : rules2004;
  const values: Record<string, string> = {};
  const problems: CmiProblem[] = [];
  let chars = 0;
  for (const [element, raw] of Object.entries(input)) {
    // Empty collections come as {} in scorm-again's flattened commits: nothing to store.
    if (raw !== null && typeof raw === "object" && Object.keys(raw).length === 0) continue;
    if (/\._(children|count|version)$/.test(element)) continue;
    const rule = rules.find((candidate) => candidate.pattern.test(element));
    if (!rule) {
      problems.push({ element, problem: "unknown_element" });
      continue;
    }
    if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean") {
      problems.push({ element, problem: "invalid_value" });
      continue;
    }
    const value = String(raw);
    if (value.length > rule.max) {
      problems.push({ element, problem: "too_long" });
      continue;
    }
    chars += value.length;
    if (!rule.writable) continue;
    // "" is an element never set (scorm-again's full commits carry every element).
    if (rule.values && value !== "" && !rule.values.includes(value)) problems.push({ element, problem: "invalid_value" });
    else if (rule.kind === "decimal" && !decimalOk(value)) problems.push({ element, problem: "invalid_value" });
    else if (rule.kind === "timespan12" && value !== "" && parseTimespan12(value) === null)
      problems.push({ element, problem: "invalid_value" });
    else if (rule.kind === "duration2004" && value !== "" && parseDuration2004(value) === null)
      problems.push({ element, problem: "invalid_value" });
    else {
      const indexes = [...element.matchAll(/\.(objectives|interactions|comments_from_learner|correct_responses)\.(\d+)/g)];
      if (indexes.some(([, name, n]) => Number(n) >= MAX_INDEX[name as keyof typeof MAX_INDEX]))
        problems.push({ element, problem: "too_many" });
      else values[element] = value;
    }
  }
  if (chars > MAX_COMMIT_CHARS) problems.push({ element: "cmi", problem: "too_long" });
  return problems.length ? { ok: false, problems } : { ok: true, values };
}

/** SCORM 1.2 CMITimespan `HHHH:MM:SS.SS` in seconds. */
export function parseTimespan12(value: string): number | null {
  const m = /^(\d{2,4}):(\d{2}):(\d{2})(\.\d{1,2})?$/.exec(value);
  if (!m) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4] ?? 0);
}

/** SCORM 2004 ISO 8601 duration `P[yY][mM][dD][T[hH][mM][s[.s]S]]` in seconds (months as 30 days). */
export function parseDuration2004(value: string): number | null {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,2})?)S)?)?$/.exec(value);
  if (!m || value === "P" || value.endsWith("T")) return null;
  const [, y, mo, d, h, mi, s] = m.map((x) => Number(x ?? 0));
  return y * 365 * 86400 + mo * 30 * 86400 + d * 86400 + h * 3600 + mi * 60 + s;
}

export function formatTimespan12(seconds: number) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return `${String(Math.min(h, 9999)).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

export function formatDuration2004(seconds: number) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return `PT${h}H${m}M${s}S`;
}
