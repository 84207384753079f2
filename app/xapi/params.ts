import { agentKey, isAbsoluteIri } from "~/models/xapi/agents";
import { FORMATS, type StatementFormat } from "~/models/xapi/statement-format";
import { timestamp, timestampMs, UUID } from "~/models/xapi/statement-schema";
import { boundsProblem } from "./json";

/*
 * The query parameters of each resource (xAPI 2.0.0 §4.1.6, 1.0.3 §7): a name the resource does not take, a
 * name given twice or a value of the wrong form is a 400, as ADL's suite checks; names are case-sensitive.
 */

export type Params = Record<string, string>;
export type ParamsRead = { ok: true; params: Params } | { ok: false; message: string };

/** The names a resource takes for a method (HEAD as GET). */
const TAKES: Record<string, Record<string, readonly string[]>> = {
  statements: {
    GET: [
      "statementId",
      "voidedStatementId",
      "agent",
      "verb",
      "activity",
      "registration",
      "related_activities",
      "related_agents",
      "since",
      "until",
      "limit",
      "format",
      "attachments",
      "ascending",
      "more",
    ],
    PUT: ["statementId"],
    POST: [],
  },
  "activities/state": {
    GET: ["activityId", "agent", "registration", "stateId", "since"],
    PUT: ["activityId", "agent", "registration", "stateId"],
    POST: ["activityId", "agent", "registration", "stateId"],
    DELETE: ["activityId", "agent", "registration", "stateId"],
  },
  "activities/profile": {
    GET: ["activityId", "profileId", "since"],
    PUT: ["activityId", "profileId"],
    POST: ["activityId", "profileId"],
    DELETE: ["activityId", "profileId"],
  },
  "agents/profile": {
    GET: ["agent", "profileId", "since"],
    PUT: ["agent", "profileId"],
    POST: ["agent", "profileId"],
    DELETE: ["agent", "profileId"],
  },
  activities: { GET: ["activityId"] },
  agents: { GET: ["agent"] },
  about: { GET: [] },
};

/** The methods a resource answers (for 405's Allow). */
export function methodsOf(resource: string): string[] {
  const methods = Object.keys(TAKES[resource] ?? {});
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}

const BOOLEAN = new Set(["true", "false"]);

/** Why one parameter's value is not of its form, or null. */
function valueProblem(name: string, value: string): string | null {
  switch (name) {
    case "statementId":
    case "voidedStatementId":
    case "registration":
      return UUID.test(value) ? null : `${name} must be a UUID.`;
    case "agent":
      return agentOf(value) === null ? "agent must be an Agent (JSON) with exactly one identifier." : null;
    case "verb":
    case "activity":
    case "activityId":
      return isAbsoluteIri(value) ? null : `${name} must be an absolute IRI.`;
    case "since":
    case "until":
      return timestamp.safeParse(value).success ? null : `${name} must be an ISO 8601 timestamp.`;
    case "limit":
      return /^\d{1,9}$/.test(value) ? null : "limit must be a whole number, 0 or more.";
    case "format":
      return (FORMATS as readonly string[]).includes(value) ? null : "format must be ids, exact or canonical.";
    case "related_activities":
    case "related_agents":
    case "attachments":
    case "ascending":
      return BOOLEAN.has(value) ? null : `${name} must be true or false.`;
    case "stateId":
    case "profileId":
      return value.length > 0 && value.length <= 1000 ? null : `${name} must be 1 to 1000 characters.`;
    case "more":
      return value.length <= 65_536 ? null : "more is not a paging token of this LRS.";
    default:
      return null;
  }
}

/** The parameters of a call, checked for its resource and method. */
export function readParams(resource: string, method: string, given: URLSearchParams): ParamsRead {
  const takes = TAKES[resource]?.[method === "HEAD" ? "GET" : method] ?? [];
  const params: Params = {};
  for (const [name, value] of given) {
    if (!takes.includes(name)) return { ok: false, message: `${resource} does not take the parameter ${name} on ${method}.` };
    if (name in params) return { ok: false, message: `The parameter ${name} is given twice.` };
    const problem = valueProblem(name, value);
    if (problem) return { ok: false, message: problem };
    params[name] = value;
  }
  return { ok: true, params };
}

/** An `agent` parameter as an object, or null when it is not JSON naming one Agent or identified Group. */
export function agentOf(value: string): Record<string, unknown> | null {
  try {
    const agent = JSON.parse(value) as unknown;
    if (!agent || typeof agent !== "object" || Array.isArray(agent) || boundsProblem(agent)) return null;
    return agentKey(agent) === null ? null : (agent as Record<string, unknown>);
  } catch {
    return null;
  }
}

export const msOf = (value: string | undefined) => (value === undefined ? undefined : timestampMs(value));
export const formatOf = (value: string | undefined): StatementFormat => (value as StatementFormat | undefined) ?? "exact";
