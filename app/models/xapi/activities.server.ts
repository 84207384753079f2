import { desc, eq, inArray, sql } from "drizzle-orm";
import { preparedOnce } from "../../../db/prepared";
import { xapiActivities, xapiStatements } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { agentKey } from "./agents";

/*
 * What the LRS knows of activities and agents (GET /xapi/activities and /xapi/agents; docs/decisions/043-learning-record-store.md,
 * "Documents"): an activity's definition as the statements that named it left it, an agent as a Person.
 */

type Json = Record<string, unknown>;
const LANGUAGE_MAPS = ["name", "description"];

/** `kept` with `given` laid over it: language maps merged language by language, anything else replaced. */
export function mergeDefinitions(kept: Json, given: Json): Json {
  const out: Json = { ...kept, ...given };
  for (const key of LANGUAGE_MAPS) if (kept[key] && given[key]) out[key] = { ...(kept[key] as Json), ...(given[key] as Json) };
  return out;
}

/** Every activity with a definition a statement names (its object, its context's, a sub-statement's). */
function definedActivities(statement: Json): { id: string; definition: Json }[] {
  const found: { id: string; definition: Json }[] = [];
  const visit = (s: Json) => {
    const object = s.object as Json;
    if ((object.objectType ?? "Activity") === "Activity" && object.definition)
      found.push({ id: String(object.id), definition: object.definition as Json });
    if (object.objectType === "SubStatement") visit(object);
    for (const list of Object.values(((s.context as Json | undefined)?.contextActivities as Json | undefined) ?? {}))
      for (const a of (Array.isArray(list) ? list : [list]) as Json[])
        if (a.definition) found.push({ id: String(a.id), definition: a.definition as Json });
  };
  visit(statement);
  return found;
}

/** Keeps the definitions a stored statement gives (in the statement's transaction); one unchanged is not written again. */
export function rememberDefinitions(tx: TenantConn, statement: Json) {
  const found = definedActivities(statement);
  if (!found.length) return;
  const read = preparedOnce(tx, "xapi.keptDefinition", () =>
    tx
      .select({ definition: xapiActivities.definition })
      .from(xapiActivities)
      .where(eq(xapiActivities.id, sql.placeholder("id")))
      .prepare(),
  );
  const write = preparedOnce(tx, "xapi.keepDefinition", () =>
    tx
      .insert(xapiActivities)
      .values({ id: sql.placeholder("id"), definition: sql.placeholder("definition") })
      .onConflictDoUpdate({ target: xapiActivities.id, set: { definition: sql`excluded.definition` } })
      .prepare(),
  );
  for (const { id, definition } of found) {
    const kept = read.get({ id });
    const merged = JSON.stringify(kept ? mergeDefinitions(JSON.parse(kept.definition), definition) : definition);
    if (merged !== kept?.definition) write.run({ id, definition: merged });
  }
}

/** The kept definitions of these activities (those no statement defined are left out). */
export function keptDefinitions(db: TenantConn, ids: string[]): Map<string, Json> {
  const unique = [...new Set(ids)];
  const found = new Map<string, Json>();
  for (let i = 0; i < unique.length; i += 500)
    for (const row of db
      .select({ id: xapiActivities.id, definition: xapiActivities.definition })
      .from(xapiActivities)
      .where(inArray(xapiActivities.id, unique.slice(i, i + 500)))
      .all())
      found.set(row.id, JSON.parse(row.definition) as Json);
  return found;
}

/** The Activity object for `id`: its kept definition, or the id alone when no statement defined it. */
export function activityObject(db: TenantConn, id: string): Json {
  const kept = db.select({ definition: xapiActivities.definition }).from(xapiActivities).where(eq(xapiActivities.id, id)).get();
  return kept ? { objectType: "Activity", id, definition: JSON.parse(kept.definition) } : { objectType: "Activity", id };
}

/** How many of an agent's latest statements are read for the names they give. */
const NAMES_FROM = 100;

/** The Person the LRS knows for an Agent: its identifier, and the names its latest statements gave it (null: no valid Agent). */
export function personOf(db: TenantConn, agent: unknown): Json | null {
  const key = agentKey(agent);
  if (!key) return null;
  const a = agent as Json;
  const names = new Set<string>(typeof a.name === "string" ? [a.name] : []);
  const rows = db
    .select({ json: xapiStatements.json })
    .from(xapiStatements)
    .where(eq(xapiStatements.actorKey, key))
    .orderBy(desc(xapiStatements.seq))
    .limit(NAMES_FROM)
    .all();
  for (const row of rows) {
    const name = (JSON.parse(row.json).actor as Json).name;
    if (typeof name === "string") names.add(name);
  }
  const person: Json = { objectType: "Person" };
  if (names.size) person.name = [...names];
  for (const ifi of ["mbox", "mbox_sha1sum", "openid", "account"]) if (a[ifi] !== undefined) person[ifi] = [a[ifi]];
  return person;
}
