import type { MoveOn } from "./cmi5-structure";

/*
 * cmi5's rules for what an AU sends during a session (cmi5 §7.1, §9.3 "Verbs", §9.5, §9.6, §10.2.2), checked as
 * each statement of a launch is stored (docs/decisions/044-xapi-cmi5-packages.md, 6): the LMS "SHOULD reject
 * statements that conflict" (§6.3), so a statement that breaks one is refused, naming the rule. The LMS's own
 * verbs (launched, abandoned, waived, satisfied) are never the AU's to send.
 */

const ADL = "http://adlnet.gov/expapi/verbs/";
export const CMI5_VERBS = {
  launched: `${ADL}launched`,
  initialized: `${ADL}initialized`,
  completed: `${ADL}completed`,
  passed: `${ADL}passed`,
  failed: `${ADL}failed`,
  terminated: `${ADL}terminated`,
  abandoned: "https://w3id.org/xapi/adl/verbs/abandoned",
  waived: "https://w3id.org/xapi/adl/verbs/waived",
  satisfied: "https://w3id.org/xapi/adl/verbs/satisfied",
} as const;
export type Cmi5Verb = keyof typeof CMI5_VERBS;
const VERB_BY_ID = new Map<string, Cmi5Verb>(Object.entries(CMI5_VERBS).map(([name, id]) => [id, name as Cmi5Verb]));
const LMS_VERBS: ReadonlySet<Cmi5Verb> = new Set(["launched", "abandoned", "waived", "satisfied"]);

export const CMI5_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
export const MOVE_ON_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/moveon";
export const SESSION_ID = "https://w3id.org/xapi/cmi5/context/extensions/sessionid";
export const MASTERY_SCORE = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";

export type LaunchMode = "Normal" | "Browse" | "Review";

/** What the rules know of the launch a statement belongs to. */
export interface Cmi5Session {
  sessionId: string;
  registration: string;
  /** The AU's activity id as the LMS launched it (never the publisher's id). */
  activityId: string;
  /** The AU's id in the course structure, in every statement's grouping. */
  publisherId: string;
  launchMode: LaunchMode;
  masteryScore: number | null;
  moveOn: MoveOn;
  /** The cmi5 defined verbs the AU has sent in this session, in order. */
  sent: Cmi5Verb[];
  /** Set once the session ended: terminated by the AU, or abandoned by the LMS. */
  ended: boolean;
  /** What the AU has sent in this registration, over every session. */
  registrationHas: { completed: boolean; passed: boolean };
  /** Whether the AU has read the learner's preferences (cmi5 §11: "on startup", so before it initializes). */
  preferencesRead: boolean;
}

type Json = Record<string, unknown>;
const list = (value: unknown) => (Array.isArray(value) ? value : value ? [value] : []) as Json[];

/** A statement's categories, grouping ids, session id and result, as the rules read them. */
function shapeOf(statement: Json) {
  const context = (statement.context ?? {}) as Json;
  const activities = (context.contextActivities ?? {}) as Json;
  const extensions = (context.extensions ?? {}) as Json;
  const result = (statement.result ?? {}) as Json;
  return {
    verb: VERB_BY_ID.get(String((statement.verb as Json | undefined)?.id ?? "")) ?? null,
    categories: new Set(list(activities.category).map((a) => String(a.id))),
    grouping: new Set(list(activities.grouping).map((a) => String(a.id))),
    sessionId: extensions[SESSION_ID],
    registration: typeof context.registration === "string" ? context.registration.toLowerCase() : null,
    objectId: String((statement.object as Json | undefined)?.id ?? ""),
    result,
    score: (result.score ?? null) as Json | null,
    masteryExtension: extensions[MASTERY_SCORE],
  };
}

/** Why a cmi5 defined statement breaks the result rules (§9.5) for its verb, or null. */
function resultProblem(verb: Cmi5Verb, s: ReturnType<typeof shapeOf>, session: Cmi5Session): string | null {
  const { result, score } = s;
  const judged = verb === "passed" || verb === "failed";
  if (score && !judged) return `A ${verb} statement carries no score.`;
  if (verb !== "completed" && result.completion !== undefined) return `A ${verb} statement carries no completion.`;
  if (!judged && result.success !== undefined) return `A ${verb} statement carries no success.`;
  if (verb === "completed" && result.completion !== true) return "A completed statement has result.completion true.";
  if (verb === "passed" && result.success !== true) return "A passed statement has result.success true.";
  if (verb === "failed" && result.success !== false) return "A failed statement has result.success false.";
  if (["completed", "passed", "failed", "terminated"].includes(verb) && typeof result.duration !== "string")
    return `A ${verb} statement has a result.duration.`;
  const movesOn = result.success !== undefined || result.completion !== undefined;
  if (movesOn !== s.categories.has(MOVE_ON_CATEGORY))
    return movesOn
      ? "A statement with success or completion names the moveOn category."
      : "Only a statement with success or completion names the moveOn category.";
  if (score && score.raw !== undefined && (score.min === undefined || score.max === undefined))
    return "A raw score comes with the min and max it lies between.";
  const scaled = typeof score?.scaled === "number" ? score.scaled : null;
  if (judged && session.masteryScore !== null) {
    if (scaled !== null && verb === "passed" && scaled < session.masteryScore)
      return "A passed statement's score is at least the mastery score.";
    if (scaled !== null && verb === "failed" && scaled >= session.masteryScore)
      return "A failed statement's score is below the mastery score.";
    // §9.6.3.2: a verdict "based on the masteryScore" (one with a scaled score) names it; one without a score need not.
    if ((scaled !== null || s.masteryExtension !== undefined) && Number(s.masteryExtension) !== session.masteryScore)
      return "A passed or failed statement with a scaled score names the mastery score it was judged by.";
  }
  return null;
}

/** Why the order of a cmi5 defined statement breaks the session's or registration's rules (§9.3), or null. */
function orderProblem(verb: Cmi5Verb, session: Cmi5Session): string | null {
  if (session.sent.includes(verb)) return `The session has sent ${verb} already.`;
  if ((verb === "passed" || verb === "failed") && (session.sent.includes("passed") || session.sent.includes("failed")))
    return "A session sends passed or failed once.";
  if (verb === "completed" && session.registrationHas.completed) return "The registration has been completed already.";
  if (verb === "passed" && session.registrationHas.passed) return "The registration has been passed already.";
  if (verb === "failed" && session.registrationHas.passed) return "A failed statement does not follow a passed one.";
  if (["completed", "passed", "failed"].includes(verb) && session.launchMode !== "Normal")
    return `In ${session.launchMode} mode an AU sends no ${verb} statement.`;
  return null;
}

/** Why an AU's statement lacks what cmi5 asks of every one (§9.1, §9.2, §9.7): its id, a UTC timestamp, an account Agent. */
function statementShapeProblem(statement: Json): string | null {
  if (typeof statement.id !== "string") return "An AU's statement carries its own id.";
  if (typeof statement.timestamp !== "string") return "An AU's statement carries a timestamp.";
  if (!/(?:Z|[+-]00:?00)$/i.test(statement.timestamp)) return "An AU's statement's timestamp is in UTC.";
  const actor = (statement.actor ?? {}) as Json;
  if ((actor.objectType ?? "Agent") !== "Agent" || typeof actor.account !== "object")
    return "An AU's statement's actor is the Agent it was launched with, named by its account.";
  return null;
}

/**
 * Why an AU's statement breaks cmi5's rules for its session, or null when it may be stored. `statement` is
 * the statement as sent (already a valid xAPI statement: app/models/xapi/statement-schema.ts).
 */
export function cmi5Refusal(statement: Json, session: Cmi5Session): string | null {
  if (session.ended) return "The session has ended: no statement is taken for it.";
  const shape = statementShapeProblem(statement);
  if (shape) return shape;
  const s = shapeOf(statement);
  if (s.sessionId !== session.sessionId) return "Every statement names its session's id (the launch data's context template).";
  if (s.registration !== session.registration.toLowerCase()) return "Every statement names the launch's registration.";
  if (!s.grouping.has(session.publisherId)) return "Every statement keeps the context template's grouping (the AU's publisher id).";
  const defined = s.categories.has(CMI5_CATEGORY);
  if (s.verb && LMS_VERBS.has(s.verb)) return `Only the LMS sends ${s.verb} statements.`;
  if (!session.sent.includes("initialized") && s.verb !== "initialized") return "A session begins with an initialized statement.";
  if (!defined) return s.categories.has(MOVE_ON_CATEGORY) ? "Only a cmi5 defined statement names the moveOn category." : null;
  if (!s.verb) return "A statement naming the cmi5 category uses a cmi5 verb.";
  if (s.objectId !== session.activityId) return "A cmi5 defined statement's object is the AU's activity id from the launch.";
  if (s.verb === "initialized" && session.sent.length) return "A session sends initialized once, first.";
  if (s.verb === "initialized" && !session.preferencesRead)
    return "An AU reads the learner's preferences (the agent profile cmi5LearnerPreferences) before it initializes.";
  return orderProblem(s.verb, session) ?? resultProblem(s.verb, s, session);
}

/** The session after a statement the rules took: what it sent, and whether it ended. */
export function afterStatement(statement: Json, session: Cmi5Session): Cmi5Session {
  const s = shapeOf(statement);
  if (!s.verb || !s.categories.has(CMI5_CATEGORY)) return session;
  return {
    ...session,
    sent: [...session.sent, s.verb],
    ended: s.verb === "terminated",
    registrationHas: {
      completed: session.registrationHas.completed || s.verb === "completed",
      passed: session.registrationHas.passed || s.verb === "passed",
    },
  };
}

/** Whether an AU has met its moveOn criterion (cmi5 §13.1.4; a waived AU has: §9.3.9). */
export function auSatisfied(moveOn: MoveOn, has: { completed: boolean; passed: boolean; waived?: boolean }): boolean {
  if (has.waived) return true;
  switch (moveOn) {
    case "NotApplicable":
      return true;
    case "Completed":
      return has.completed;
    case "Passed":
      return has.passed;
    case "CompletedAndPassed":
      return has.completed && has.passed;
    case "CompletedOrPassed":
      return has.completed || has.passed;
  }
}
