import { isAbsoluteIri } from "../xapi/agents";
import { ownChildren, parseXml, type XmlNode } from "./xml";

/*
 * A cmi5 course structure (`cmi5.xml`; cmi5 §13 and its CourseStructure.xsd), read and checked as an LMS must
 * before it imports one (docs/decisions/044-xapi-cmi5-packages.md): the course, its objectives, and its blocks
 * and assignable units in order. Every check ADL's LMS test suite makes of an import is here: ids that are
 * IRIs and unique, an AU URL that is a URL (relative only inside a package), no launch parameter of cmi5's own
 * in its query, the schema's elements in the schema's order.
 */

export type LangString = Record<string, string>;
/** A language string in the viewer's language, else English, else its first. */
export function inLanguage(value: LangString, language: string): string {
  return (
    value[language] ??
    Object.entries(value).find(([tag]) => tag.split("-")[0] === language)?.[1] ??
    value.en ??
    Object.values(value)[0] ??
    ""
  );
}

export const MOVE_ON = ["Passed", "Completed", "CompletedAndPassed", "CompletedOrPassed", "NotApplicable"] as const;
export type MoveOn = (typeof MOVE_ON)[number];

export interface Cmi5Au {
  kind: "au";
  id: string;
  title: LangString;
  description: LangString;
  url: string;
  moveOn: MoveOn;
  masteryScore: number | null;
  launchMethod: "AnyWindow" | "OwnWindow";
  activityType: string | null;
  launchParameters: string | null;
  entitlementKey: string | null;
  objectives: string[];
}
export interface Cmi5Block {
  kind: "block";
  id: string;
  title: LangString;
  description: LangString;
  objectives: string[];
  children: Array<Cmi5Au | Cmi5Block>;
}
export interface Cmi5Course {
  id: string;
  title: LangString;
  description: LangString;
  objectives: Array<{ id: string; title: LangString; description: LangString }>;
  children: Array<Cmi5Au | Cmi5Block>;
}

export type Cmi5Problem =
  | "cmi5_parse"
  | "cmi5_schema"
  | "cmi5_id_not_iri"
  | "cmi5_duplicate_id"
  | "cmi5_url"
  | "cmi5_relative_url"
  | "cmi5_url_parameter"
  | "cmi5_no_au";

export class Cmi5Error extends Error {
  constructor(
    readonly problem: Cmi5Problem,
    readonly detail = "",
  ) {
    super(`${problem}${detail ? `: ${detail}` : ""}`);
    this.name = "Cmi5Error";
  }
}

/** The query parameters the LMS adds to every launch (cmi5 §8.1): an AU URL may not carry them. */
const LAUNCH_PARAMETERS = ["endpoint", "fetch", "actor", "registration", "activityId"];

function langString(node: XmlNode | undefined, where: string): LangString {
  if (!node) throw new Cmi5Error("cmi5_schema", `${where} needs a title and a description`);
  const out: LangString = {};
  for (const child of ownChildren(node)) {
    if (child.name !== "langstring") throw new Cmi5Error("cmi5_schema", `${where}: <${child.name}> where a <langstring> belongs`);
    out[child.attributes.lang ?? "und"] = child.text.trim();
  }
  if (!Object.keys(out).length) throw new Cmi5Error("cmi5_schema", `${where} has an empty title or description`);
  return out;
}

/** Checks that `node`'s children come in `order` (each name at most once unless repeatable), and returns them by name. */
function sequence(node: XmlNode, order: string[], repeatable: string[] = []) {
  const found = new Map<string, XmlNode>();
  let at = 0;
  for (const child of ownChildren(node)) {
    const index = order.indexOf(child.name, at);
    if (index < 0) throw new Cmi5Error("cmi5_schema", `<${child.name}> is not expected there in <${node.name}>`);
    if (index === at && found.has(child.name) && !repeatable.includes(child.name))
      throw new Cmi5Error("cmi5_schema", `<${child.name}> twice in <${node.name}>`);
    at = repeatable.includes(child.name) ? index : index + 1;
    if (!found.has(child.name)) found.set(child.name, child);
  }
  return found;
}

function iri(value: string | undefined, what: string): string {
  const id = value?.trim() ?? "";
  if (!isAbsoluteIri(id)) throw new Cmi5Error("cmi5_id_not_iri", `${what} "${id}"`);
  return id;
}

/** An AU's or block's objectives: references to the course's (checked once every id is known, `checkReferences`). */
const objectivesOf = (node: XmlNode | undefined) => (node ? ownChildren(node).map((o) => o.attributes.idref?.trim() ?? "") : []);

/** An AU's URL: a URL without spaces, absolute http(s) or relative; relative ones only when `inPackage`. */
function auUrl(raw: string, inPackage: boolean): string {
  const url = raw.trim();
  if (!url || /\s/.test(url)) throw new Cmi5Error("cmi5_url", url);
  let parsed: URL;
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(url);
  try {
    parsed = new URL(url, "https://package.invalid/");
  } catch {
    throw new Cmi5Error("cmi5_url", url);
  }
  if (absolute && parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Cmi5Error("cmi5_url", url);
  const clash = LAUNCH_PARAMETERS.find((p) => parsed.searchParams.has(p));
  if (clash) throw new Cmi5Error("cmi5_url_parameter", clash);
  if (!absolute && (!inPackage || url.startsWith("/") || url.startsWith("//"))) throw new Cmi5Error("cmi5_relative_url", url);
  return url;
}

function readAu(node: XmlNode, inPackage: boolean): Cmi5Au {
  const parts = sequence(node, ["title", "description", "objectives", "url", "launchParameters", "entitlementKey"]);
  const { attributes: a } = node;
  const moveOn = (a.moveOn ?? "NotApplicable") as MoveOn;
  if (!MOVE_ON.includes(moveOn)) throw new Cmi5Error("cmi5_schema", `moveOn "${a.moveOn}"`);
  const launchMethod = a.launchMethod ?? "AnyWindow";
  if (launchMethod !== "AnyWindow" && launchMethod !== "OwnWindow") throw new Cmi5Error("cmi5_schema", `launchMethod "${launchMethod}"`);
  let masteryScore: number | null = null;
  if (a.masteryScore !== undefined) {
    masteryScore = Number(a.masteryScore);
    if (!/^\s*[0-9.]+\s*$/.test(a.masteryScore) || !(masteryScore >= 0 && masteryScore <= 1))
      throw new Cmi5Error("cmi5_schema", `masteryScore "${a.masteryScore}"`);
  }
  if (!parts.get("url")) throw new Cmi5Error("cmi5_schema", "an AU needs a <url>");
  return {
    kind: "au",
    id: iri(a.id, "an AU id"),
    title: langString(parts.get("title"), "an AU"),
    description: langString(parts.get("description"), "an AU"),
    url: auUrl(parts.get("url")!.text, inPackage),
    moveOn,
    masteryScore,
    launchMethod,
    activityType: a.activityType?.trim() || null,
    launchParameters: parts.get("launchParameters")?.text.trim() ?? null,
    entitlementKey: parts.get("entitlementKey")?.text.trim() ?? null,
    objectives: objectivesOf(parts.get("objectives")),
  };
}

function readMembers(nodes: XmlNode[], inPackage: boolean): Array<Cmi5Au | Cmi5Block> {
  return nodes.map((node) => (node.name === "au" ? readAu(node, inPackage) : readBlock(node, inPackage)));
}

function readBlock(node: XmlNode, inPackage: boolean): Cmi5Block {
  const members = ownChildren(node).filter((c) => c.name === "au" || c.name === "block");
  const head = { ...node, children: ownChildren(node).filter((c) => c.name !== "au" && c.name !== "block") };
  const parts = sequence(head, ["title", "description", "objectives"]);
  const firstMember = ownChildren(node).findIndex((c) => c.name === "au" || c.name === "block");
  if (
    firstMember >= 0 &&
    ownChildren(node)
      .slice(firstMember)
      .some((c) => c.name !== "au" && c.name !== "block")
  )
    throw new Cmi5Error("cmi5_schema", "a block's title, description and objectives come before its members");
  if (!members.length) throw new Cmi5Error("cmi5_schema", "a block needs at least one AU or block");
  return {
    kind: "block",
    id: iri(node.attributes.id, "a block id"),
    title: langString(parts.get("title"), "a block"),
    description: langString(parts.get("description"), "a block"),
    objectives: objectivesOf(parts.get("objectives")),
    children: readMembers(members, inPackage),
  };
}

/** Every AU of a structure, in order. */
/** Every block and AU of a course in order, each with its depth (a block's members one deeper). */
export function outline(members: Array<Cmi5Au | Cmi5Block>, depth = 0): Array<{ member: Cmi5Au | Cmi5Block; depth: number }> {
  return members.flatMap((member) => [{ member, depth }, ...(member.kind === "block" ? outline(member.children, depth + 1) : [])]);
}

export function aus(members: Array<Cmi5Au | Cmi5Block>): Cmi5Au[] {
  return members.flatMap((m) => (m.kind === "au" ? [m] : aus(m.children)));
}

function checkUnique(course: Cmi5Course) {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) throw new Cmi5Error("cmi5_duplicate_id", id);
    seen.add(id);
  };
  visit(course.id);
  for (const objective of course.objectives) visit(objective.id);
  const walk = (members: Array<Cmi5Au | Cmi5Block>) => {
    for (const m of members) {
      visit(m.id);
      if (m.kind === "block") walk(m.children);
    }
  };
  walk(course.children);
}

/** Every objective an AU or block names is one the course declares (the schema's key reference). */
function checkReferences(course: Cmi5Course) {
  const declared = new Set(course.objectives.map((o) => o.id));
  const walk = (members: Array<Cmi5Au | Cmi5Block>) => {
    for (const m of members) {
      const unknown = m.objectives.find((id) => !declared.has(id));
      if (unknown !== undefined) throw new Cmi5Error(isAbsoluteIri(unknown) ? "cmi5_schema" : "cmi5_id_not_iri", `objective "${unknown}"`);
      if (m.kind === "block") walk(m.children);
    }
  };
  walk(course.children);
}

/**
 * Reads a course structure. `inPackage`: it came inside a zip (relative AU URLs are the package's files);
 * a bare `cmi5.xml` must give every AU an absolute URL.
 */
export function parseCourseStructure(xml: string, { inPackage }: { inPackage: boolean }): Cmi5Course {
  const root = parseXml(xml);
  if (!root || root.name !== "courseStructure") throw new Cmi5Error("cmi5_parse");
  const nodes = ownChildren(root);
  if (nodes[0]?.name !== "course") throw new Cmi5Error("cmi5_schema", "<course> comes first");
  const objectivesNode = nodes[1]?.name === "objectives" ? nodes[1] : undefined;
  const members = nodes.slice(objectivesNode ? 2 : 1);
  const stray = members.find((n) => n.name !== "au" && n.name !== "block");
  if (stray) throw new Cmi5Error("cmi5_schema", `<${stray.name}> is not expected in <courseStructure>`);
  const courseParts = sequence(nodes[0], ["title", "description"]);
  const course: Cmi5Course = {
    id: iri(nodes[0].attributes.id, "the course id"),
    title: langString(courseParts.get("title"), "the course"),
    description: langString(courseParts.get("description"), "the course"),
    objectives: (objectivesNode ? ownChildren(objectivesNode) : []).map((o) => {
      const parts = sequence(o, ["title", "description"]);
      return {
        id: iri(o.attributes.id, "an objective id"),
        title: langString(parts.get("title"), "an objective"),
        description: langString(parts.get("description"), "an objective"),
      };
    }),
    children: readMembers(members, inPackage),
  };
  if (!aus(course.children).length) throw new Cmi5Error("cmi5_no_au");
  checkUnique(course);
  checkReferences(course);
  return course;
}
