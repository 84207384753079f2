import { agentKey } from "./agents";

/*
 * The three forms GET /xapi/statements answers in (xAPI 2.0.0 §4.1.6.1 `format`, and 1.0.3's): `exact` as
 * stored, `ids` with agents, groups, verbs and activities cut to what identifies them, `canonical` with each
 * language map cut to the one language the request prefers (docs/decisions/043-learning-record-store.md).
 */

export const FORMATS = ["exact", "ids", "canonical"] as const;
export type StatementFormat = (typeof FORMATS)[number];

type Json = Record<string, unknown>;

/** An Agent or Group reduced to its identifier (and, for an anonymous Group, its members'). */
function idsOfActor(actor: Json): Json {
  const out: Json = { objectType: actor.objectType ?? "Agent" };
  for (const key of ["mbox", "mbox_sha1sum", "openid", "account"]) if (actor[key] !== undefined) out[key] = actor[key];
  if (agentKey(actor) === null && Array.isArray(actor.member)) out.member = (actor.member as Json[]).map(idsOfActor);
  return out;
}

/** The statement with every Agent, Group and Activity reduced to what identifies it. */
function idsOf(statement: Json): Json {
  const out: Json = { ...statement, actor: idsOfActor(statement.actor as Json), verb: { id: (statement.verb as Json).id } };
  const object = statement.object as Json;
  const kind = object.objectType ?? "Activity";
  if (kind === "Activity") out.object = { id: object.id };
  else if (kind === "Agent" || kind === "Group") out.object = idsOfActor(object);
  else if (kind === "SubStatement") out.object = idsOf(object);
  if (statement.authority) out.authority = idsOfActor(statement.authority as Json);
  const context = statement.context as Json | undefined;
  if (context) {
    const c: Json = { ...context };
    if (context.instructor) c.instructor = idsOfActor(context.instructor as Json);
    if (context.team) c.team = idsOfActor(context.team as Json);
    const activities = context.contextActivities as Json | undefined;
    if (activities)
      c.contextActivities = Object.fromEntries(
        Object.entries(activities).map(([k, list]) => [k, (Array.isArray(list) ? list : [list]).map((a: Json) => ({ id: a.id }))]),
      );
    out.context = c;
  }
  return out;
}

const LANGUAGE_MAPS = new Set(["display", "name", "description"]);

/** Picks, of a language map, the entry the request prefers (`languages`, best first), else `und`, else the first. */
function pickLanguage(map: Json, languages: string[]): Json {
  const keys = Object.keys(map);
  for (const wanted of [...languages, "und"]) {
    const exact = keys.find((k) => k.toLowerCase() === wanted.toLowerCase());
    if (exact) return { [exact]: map[exact] };
    const prefix = keys.find((k) => k.toLowerCase().split("-")[0] === wanted.toLowerCase().split("-")[0]);
    if (prefix) return { [prefix]: map[prefix] };
  }
  return keys.length ? { [keys[0]]: map[keys[0]] } : {};
}

function canonicalOf(value: unknown, languages: string[], key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => canonicalOf(v, languages));
  if (!value || typeof value !== "object") return value;
  if (LANGUAGE_MAPS.has(key) && !Array.isArray(value)) return pickLanguage(value as Json, languages);
  return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, k === "extensions" ? v : canonicalOf(v, languages, k)]));
}

/** The languages of an Accept-Language header, best first. */
export function acceptedLanguages(header: string | null): string[] {
  return (header ?? "")
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.split("=")[1] ?? 1);
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((l) => l.tag && l.tag !== "*" && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}

/** The ids of the Activities a statement names: its object, its context's, a sub-statement's. */
export function activityIdsOf(statement: Json): string[] {
  const ids: string[] = [];
  const object = statement.object as Json;
  if ((object.objectType ?? "Activity") === "Activity") ids.push(String(object.id));
  if (object.objectType === "SubStatement") ids.push(...activityIdsOf(object));
  for (const list of Object.values(((statement.context as Json | undefined)?.contextActivities as Json | undefined) ?? {}))
    for (const a of (Array.isArray(list) ? list : [list]) as Json[]) ids.push(String(a.id));
  return ids;
}

/** The statement with each Activity's definition the LRS's own (`definitions`: the kept ones), where it has one. */
function withKeptDefinitions(statement: Json, definitions: Map<string, Json>): Json {
  const kept = (activity: Json) => {
    const definition = definitions.get(String(activity.id));
    return definition ? { ...activity, definition } : activity;
  };
  const out: Json = { ...statement };
  const object = statement.object as Json;
  if ((object.objectType ?? "Activity") === "Activity") out.object = kept(object);
  else if (object.objectType === "SubStatement") out.object = withKeptDefinitions(object, definitions);
  const context = statement.context as Json | undefined;
  const lists = context?.contextActivities as Json | undefined;
  if (context && lists)
    out.context = {
      ...context,
      contextActivities: Object.fromEntries(
        Object.entries(lists).map(([k, list]) => [k, ((Array.isArray(list) ? list : [list]) as Json[]).map(kept)]),
      ),
    };
  return out;
}

/**
 * A stored statement (its JSON) in the form asked for. `canonical` gives each Activity the definition the LRS
 * keeps for it (`definitions`, app/models/xapi/activities.server.ts `keptDefinitions`), then each language map
 * cut to the language the request prefers (xAPI 1.0.3 §7.2.3, 2.0.0 §4.1.6.1 `format`).
 */
export function formatStatement(
  json: string,
  format: StatementFormat,
  languages: string[] = [],
  definitions = new Map<string, Json>(),
): string {
  if (format === "exact") return json;
  const statement = JSON.parse(json) as Json;
  return JSON.stringify(format === "ids" ? idsOf(statement) : canonicalOf(withKeptDefinitions(statement, definitions), languages));
}
