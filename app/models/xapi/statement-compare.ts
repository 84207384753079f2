import { timestampMs } from "./statement-schema";

/*
 * When two statements are "the same" (a statement sent again under a stored id, a signature's payload and
 * its statement): the same after what the LRS sets (stored, authority, version) is left out and each
 * difference xAPI does not count is evened out — key order, a verb's display and activities' definitions
 * (descriptions of things named by IRI), the order of a Group's members, the case of UUIDs and language
 * tags, an omitted objectType, a single context activity or a list of one, the instant a timestamp names
 * and a duration beyond hundredths of a second (docs/decisions/043-learning-record-store.md, "Voiding and
 * immutability").
 */

type Json = Record<string, unknown>;

const UUID_KEYS = new Set(["id", "registration"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A duration with its seconds cut to hundredths. */
function hundredths(duration: string) {
  return duration.replace(/(\d+)\.(\d+)S$/, (_m, whole: string, fraction: string) => `${whole}.${fraction.slice(0, 2).padEnd(2, "0")}S`);
}

function even(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) {
    const list = value.map((v) => even(v));
    // A Group's members in any order.
    return key === "member" ? list.map((m) => JSON.stringify(m)).sort() : list;
  }
  if (value && typeof value === "object") {
    const object = value as Json;
    const out: Json = {};
    for (const [k, v] of Object.entries(object)) {
      if (v === undefined || k === "definition" || (k === "display" && key === "verb")) continue;
      out[k] = even(v, k);
    }
    if (key === "actor" || key === "instructor" || key === "authority" || key === "agent") out.objectType ??= "Agent";
    if (key === "object" && out.objectType === undefined) out.objectType = "Activity";
    if (key === "contextActivities") for (const [k, v] of Object.entries(out)) out[k] = Array.isArray(v) ? v : [v];
    if (key === "display" || key === "name" || key === "description")
      return Object.fromEntries(Object.entries(out).map(([tag, text]) => [tag.toLowerCase(), text]));
    return Object.fromEntries(
      Object.keys(out)
        .sort()
        .map((k) => [k, out[k]]),
    );
  }
  if (typeof value === "string") {
    if (UUID_KEYS.has(key) && UUID.test(value)) return value.toLowerCase();
    if (key === "timestamp") return timestampMs(value);
    if (key === "duration") return hundredths(value);
  }
  return value;
}

/** Whether `a` and `b` are the same statement as xAPI compares them, leaving out `ignore` (what the LRS sets). */
export function sameStatement(a: Json, b: Json, ignore: readonly string[] = ["stored", "authority", "version"]) {
  const strip = (s: Json) => Object.fromEntries(Object.entries(s).filter(([k]) => !ignore.includes(k)));
  return JSON.stringify(even(strip(a))) === JSON.stringify(even(strip(b)));
}
