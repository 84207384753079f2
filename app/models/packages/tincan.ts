import { isAbsoluteIri } from "../xapi/agents";
import { ownChildren, parseXml, type XmlNode } from "./xml";

/*
 * An xAPI ("Tin Can") package's `tincan.xml` (the format Articulate, Adobe, iSpring and Adapt export; Rustici's
 * "Tin Can packaging"), read as an LMS must to launch it (docs/decisions/044-xapi-cmi5-packages.md): the
 * activities it declares, and the one to launch: the activity with a `<launch>`, a course's before any other.
 */

export interface TincanActivity {
  id: string;
  type: string | null;
  name: Record<string, string>;
  description: Record<string, string>;
  /** The launch file, relative to the package's root (query string kept), or null for an activity without one. */
  launch: string | null;
}
export interface TincanPackage {
  /** The activity the package is launched as. */
  launch: TincanActivity;
  activities: TincanActivity[];
}

export type TincanProblem = "tincan_parse" | "tincan_no_launch" | "tincan_id_not_iri" | "tincan_duplicate_id" | "tincan_launch_url";

export class TincanError extends Error {
  constructor(
    readonly problem: TincanProblem,
    readonly detail = "",
  ) {
    super(`${problem}${detail ? `: ${detail}` : ""}`);
    this.name = "TincanError";
  }
}

const COURSE = "http://adlnet.gov/expapi/activities/course";

function languages(nodes: XmlNode[]): Record<string, string> {
  return Object.fromEntries(nodes.map((n) => [n.attributes.lang ?? "und", n.text.trim()]));
}

/** A launch path inside the package: relative, no scheme, no way out of the package's folder. */
function launchPath(raw: string): string {
  const path = raw.trim();
  if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("/") || path.startsWith("\\") || /\s/.test(path))
    throw new TincanError("tincan_launch_url", path);
  const [file] = path.split(/[?#]/);
  if (file.split("/").some((segment) => segment === "..")) throw new TincanError("tincan_launch_url", path);
  return path;
}

function readActivity(node: XmlNode): TincanActivity {
  const id = node.attributes.id?.trim() ?? "";
  if (!isAbsoluteIri(id)) throw new TincanError("tincan_id_not_iri", id);
  const children = ownChildren(node);
  const launch = children.find((c) => c.name === "launch");
  return {
    id,
    type: node.attributes.type?.trim() || null,
    name: languages(children.filter((c) => c.name === "name")),
    description: languages(children.filter((c) => c.name === "description")),
    launch: launch ? launchPath(launch.text) : null,
  };
}

export function parseTincan(xml: string): TincanPackage {
  const root = parseXml(xml);
  if (!root || root.name !== "tincan") throw new TincanError("tincan_parse");
  const list = ownChildren(root).find((c) => c.name === "activities");
  const activities = (list ? ownChildren(list) : []).filter((c) => c.name === "activity").map(readActivity);
  const ids = new Set<string>();
  for (const a of activities) {
    if (ids.has(a.id)) throw new TincanError("tincan_duplicate_id", a.id);
    ids.add(a.id);
  }
  const launchable = activities.filter((a) => a.launch !== null);
  const launch = launchable.find((a) => a.type === COURSE) ?? launchable[0];
  if (!launch) throw new TincanError("tincan_no_launch");
  return { launch, activities };
}
