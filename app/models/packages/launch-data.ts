import type { Cmi5Au } from "./cmi5-structure";
import { CMI5_CATEGORY, CMI5_VERBS, MASTERY_SCORE, MOVE_ON_CATEGORY, SESSION_ID, type LaunchMode } from "./cmi5-rules";

/*
 * What the LMS writes and hands over when it launches a package (docs/decisions/044-xapi-cmi5-packages.md, 5
 * and 6): the launch address of a cmi5 AU (cmi5 §8.1) and of an xAPI package (the "Tin Can" launch: endpoint,
 * auth, actor, registration, activity_id), the `LMS.LaunchData` document (§10), and the LMS's own statements
 * (launched, satisfied, abandoned, waived: §9.3) with the context template every statement of a session keeps.
 */

export const LAUNCH_MODE = "https://w3id.org/xapi/cmi5/context/extensions/launchmode";
export const LAUNCH_URL = "https://w3id.org/xapi/cmi5/context/extensions/launchurl";
export const MOVE_ON = "https://w3id.org/xapi/cmi5/context/extensions/moveon";
export const LAUNCH_PARAMETERS = "https://w3id.org/xapi/cmi5/context/extensions/launchparameters";
export const REASON = "https://w3id.org/xapi/cmi5/result/extensions/reason";
export const BLOCK_TYPE = "https://w3id.org/xapi/cmi5/activitytype/block";
export const COURSE_TYPE = "https://w3id.org/xapi/cmi5/activitytype/course";

type Json = Record<string, unknown>;

/** An address with the launch's parameters added to its own query (each value URL-encoded, §8.1). */
export function withParameters(url: string, parameters: Record<string, string>): string {
  const [beforeHash, hash] = url.split("#", 2) as [string, string | undefined];
  const query = new URLSearchParams(parameters).toString();
  return `${beforeHash}${beforeHash.includes("?") ? "&" : "?"}${query}${hash === undefined ? "" : `#${hash}`}`;
}

export interface Cmi5Launch {
  /** The AU's address: the package's file on the content origin, or the AU's own absolute URL. */
  url: string;
  endpoint: string;
  fetch: string;
  actor: Json;
  registration: string;
  activityId: string;
}

/** A cmi5 AU's launch address (§8.1). */
export function cmi5LaunchUrl(launch: Cmi5Launch): string {
  return withParameters(launch.url, {
    endpoint: launch.endpoint,
    fetch: launch.fetch,
    actor: JSON.stringify(launch.actor),
    registration: launch.registration,
    activityId: launch.activityId,
  });
}

/** An xAPI package's launch address: endpoint, Basic auth, actor, registration and activity_id on its query. */
export function tincanLaunchUrl(launch: {
  url: string;
  endpoint: string;
  key: string;
  secret: string;
  actor: Json;
  registration: string;
  activityId: string;
}) {
  return withParameters(launch.url, {
    endpoint: launch.endpoint,
    auth: `Basic ${Buffer.from(`${launch.key}:${launch.secret}`).toString("base64")}`,
    actor: JSON.stringify(launch.actor),
    registration: launch.registration,
    activity_id: launch.activityId,
  });
}

/** The context every statement of a session starts from: the session id and the AU's publisher id (§10.2.1). */
export function contextTemplate(au: Pick<Cmi5Au, "id">, sessionId: string): Json {
  return { contextActivities: { grouping: [{ id: au.id }] }, extensions: { [SESSION_ID]: sessionId } };
}

/** The `LMS.LaunchData` state document of a launch (§10.2). */
export function launchData(
  au: Cmi5Au,
  { sessionId, launchMode, returnURL }: { sessionId: string; launchMode: LaunchMode; returnURL: string },
): Json {
  return {
    contextTemplate: contextTemplate(au, sessionId),
    launchMode,
    ...(au.launchParameters !== null ? { launchParameters: au.launchParameters } : {}),
    ...(au.masteryScore !== null ? { masteryScore: au.masteryScore } : {}),
    moveOn: au.moveOn,
    returnURL,
    ...(au.entitlementKey !== null ? { entitlementKey: { courseStructure: au.entitlementKey } } : {}),
  };
}

export interface LmsStatementOf {
  actor: Json;
  registration: string;
  sessionId: string;
  au: Pick<Cmi5Au, "id">;
  /** The AU's activity id as the LMS launches it. */
  activityId: string;
  timestamp: Date;
}

/** A statement the LMS makes about a session (the LMS's authority is the LRS's to add). */
function lmsStatement(
  verb: keyof typeof CMI5_VERBS,
  of: LmsStatementOf,
  rest: { object?: Json; result?: Json; extensions?: Json; moveOn?: boolean },
): Json {
  const template = contextTemplate(of.au, of.sessionId) as { contextActivities: Json; extensions: Json };
  return {
    actor: of.actor,
    verb: { id: CMI5_VERBS[verb], display: { "en-US": verb } },
    object: rest.object ?? { objectType: "Activity", id: of.activityId },
    ...(rest.result ? { result: rest.result } : {}),
    context: {
      registration: of.registration,
      contextActivities: {
        ...template.contextActivities,
        category: [{ id: CMI5_CATEGORY }, ...(rest.moveOn ? [{ id: MOVE_ON_CATEGORY }] : [])],
      },
      extensions: { ...template.extensions, ...(rest.extensions ?? {}) },
    },
    timestamp: of.timestamp.toISOString(),
  };
}

/** The `launched` statement the LMS records before the AU opens (§9.3.1, with §9.6.3's extensions). */
export function launchedStatement(
  of: LmsStatementOf,
  au: Cmi5Au,
  { launchMode, launchUrl }: { launchMode: LaunchMode; launchUrl: string },
) {
  return lmsStatement("launched", of, {
    extensions: {
      [LAUNCH_MODE]: launchMode,
      [LAUNCH_URL]: launchUrl,
      [MOVE_ON]: au.moveOn,
      ...(au.masteryScore !== null ? { [MASTERY_SCORE]: au.masteryScore } : {}),
      ...(au.launchParameters !== null ? { [LAUNCH_PARAMETERS]: au.launchParameters } : {}),
    },
  });
}

/** The `abandoned` statement for a session that never terminated (§9.3.6), with the time it lasted. */
export function abandonedStatement(of: LmsStatementOf, durationMs: number) {
  return lmsStatement("abandoned", of, { result: { duration: isoDuration(durationMs) } });
}

/** The `waived` statement for an AU an admin waived (§9.3.7), with its reason, in a session of its own. */
export function waivedStatement(of: LmsStatementOf, reason: string) {
  return lmsStatement("waived", of, { result: { success: true, completion: true, extensions: { [REASON]: reason } }, moveOn: true });
}

/** The `satisfied` statement for a block or the course (§9.3.9), whose object is the LMS's id for it. */
export function satisfiedStatement(of: LmsStatementOf, target: { id: string; type: typeof BLOCK_TYPE | typeof COURSE_TYPE }) {
  return lmsStatement("satisfied", of, { object: { objectType: "Activity", id: target.id, definition: { type: target.type } } });
}

/** An ISO 8601 duration to the hundredth of a second, as xAPI keeps them. */
export function isoDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 10)) / 100;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = Math.round((total % 60) * 100) / 100;
  return `PT${hours ? `${hours}H` : ""}${minutes ? `${minutes}M` : ""}${seconds}S`;
}
