import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { ScormItem, ScormVersion } from "../../../db/tenant";

/**
 * Reads `imsmanifest.xml` (IMS Content Packaging as SCORM 1.2 and 2004 use it): the version, the
 * default organization's items in order (a table of contents; 2004 sequencing is not run) and, for each
 * item that points at a resource, the launch path (xml:base applied, item parameters appended), the
 * chapter headings before it, whether it is hidden (`isvisible="false"`) and, in 2004, its delivery controls.
 */
export type ManifestProblem = "manifest_parse" | "unsupported_version" | "no_items";

export class ManifestError extends Error {
  constructor(
    readonly problem: ManifestProblem,
    readonly detail = "",
  ) {
    super(`${problem}${detail ? `: ${detail}` : ""}`);
    this.name = "ManifestError";
  }
}

export interface ParsedManifest {
  version: ScormVersion;
  title: string;
  items: ScormItem[];
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  // Everything that can repeat is an array, so one item and many read the same way.
  isArray: (name) => ["organization", "item", "resource", "file", "dependency", "schemaversion"].includes(name),
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  // No DOCTYPE entity expansion (billion laughs): fast-xml-parser ignores DOCTYPE entities unless asked.
});

function text(value: unknown): string {
  if (value == null) return "";
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "object") return text((value as Node)["#text"]);
  return "";
}

function list(value: unknown): Node[] {
  if (value == null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is Node => typeof v === "object" && v !== null);
}

function attr(node: Node, name: string): string {
  // Attribute names keep their case; adlcp:scormtype (1.2) and adlcp:scormType (2004) differ only in it.
  const key = Object.keys(node).find((k) => k.startsWith("@") && k.slice(1).toLowerCase() === name.toLowerCase());
  return key ? String(node[key]).trim() : "";
}

/** The version from `<schemaversion>`, or from the namespaces when metadata is missing. */
export function detectVersion(xml: string, manifest: Node): ScormVersion | null {
  const metadata = (manifest.metadata ?? {}) as Node;
  const declared = text(metadata.schemaversion).toLowerCase();
  if (declared) {
    if (declared === "1.2") return "1.2";
    if (declared === "cam 1.3" || declared === "2004 2nd edition") return "2004-2";
    if (declared === "2004 3rd edition") return "2004-3";
    if (declared === "2004 4th edition") return "2004-4";
    return null;
  }
  if (/adlcp_rootv1p2/i.test(xml)) return "1.2";
  if (/adlcp_v1p3/i.test(xml)) return "2004-3";
  return null;
}

function joinBase(...parts: string[]) {
  return parts.filter(Boolean).reduce((acc, part) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(part) || part.startsWith("/")) return part; // absolute: kept, then refused by the caller
    if (!acc) return part;
    return acc.endsWith("/") ? acc + part : `${acc}/${part}`;
  }, "");
}

/** Appends an item's `parameters` to a launch path as the CP spec says (`?` or `&`; `#` kept as is). */
function withParameters(href: string, parameters: string) {
  if (!parameters) return href;
  let p = parameters.trim();
  if (p.startsWith("#")) return href.includes("#") ? href : href + p;
  if (p.startsWith("?") || p.startsWith("&")) p = p.slice(1);
  if (!p) return href;
  const [path, hash] = href.split("#", 2);
  const joined = path.includes("?") ? `${path}&${p}` : `${path}?${p}`;
  return hash !== undefined ? `${joined}#${hash}` : joined;
}

/** 1.2 `adlcp:masteryscore`, else 2004's primary objective's `minNormalizedMeasure`. */
function masteryOf(item: Node): number | null {
  const mastery = text(item.masteryscore);
  const measure = text(
    ((((item.sequencing ?? {}) as Node).objectives ?? {}) as Node & { primaryObjective?: Node }).primaryObjective?.minNormalizedMeasure,
  );
  if (mastery !== "" && Number.isFinite(Number(mastery))) return Number(mastery);
  if (measure !== "" && Number.isFinite(Number(measure))) return Number(measure);
  return null;
}

/**
 * SCORM 2004 `imsss:deliveryControls` of an item: its own, else those of the `sequencingCollection` entry it
 * names by `IDRef`. Both flags default to false (IMS SS), which is what lets the LMS set completion and
 * satisfaction when the content says nothing.
 */
function deliveryControls(manifest: Node) {
  const shared = new Map<string, Node>();
  for (const s of list(((manifest.sequencingCollection ?? {}) as Node).sequencing)) shared.set(attr(s, "ID"), s);
  return (item: Node) => {
    const own = list(item.sequencing)[0];
    const sources = [own, own ? shared.get(attr(own, "IDRef")) : undefined]
      .map((s) => (s ? list(s.deliveryControls)[0] : undefined))
      .filter((c): c is Node => Boolean(c));
    const flag = (name: string) => (sources.map((c) => attr(c, name)).find(Boolean) ?? "").toLowerCase() === "true";
    return { completionSetByContent: flag("completionSetByContent"), objectiveSetByContent: flag("objectiveSetByContent") };
  };
}

export function parseManifest(xml: string): ParsedManifest {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ManifestError("manifest_parse", valid.err.msg);
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (error) {
    throw new ManifestError("manifest_parse", String((error as Error).message));
  }
  const manifest = doc.manifest as Node | undefined;
  if (!manifest || typeof manifest !== "object") throw new ManifestError("manifest_parse", "no <manifest>");
  const version = detectVersion(xml, manifest);
  if (!version) throw new ManifestError("unsupported_version", text(((manifest.metadata ?? {}) as Node).schemaversion));

  const resourcesNode = (manifest.resources ?? {}) as Node;
  const resourcesBase = attr(resourcesNode, "base");
  const resources = new Map<string, { href: string; scormType: "sco" | "asset" }>();
  for (const r of list(resourcesNode.resource)) {
    const id = attr(r, "identifier");
    const href = attr(r, "href");
    if (!id) continue;
    const type = attr(r, "scormtype").toLowerCase() === "asset" ? "asset" : "sco";
    resources.set(id, { href: href ? joinBase(resourcesBase, attr(r, "base"), href) : "", scormType: type });
  }

  const orgsNode = (manifest.organizations ?? {}) as Node;
  const organizations = list(orgsNode.organization);
  const defaultId = attr(orgsNode, "default");
  const organization = organizations.find((o) => attr(o, "identifier") === defaultId) ?? organizations[0];
  const delivery = deliveryControls(manifest);

  const items: ScormItem[] = [];
  // Chapter headings met since the last launchable item: they open just before the next one.
  let headings: NonNullable<ScormItem["headings"]> = [];
  const walk = (nodes: Node[], depth: number) => {
    for (const item of nodes) {
      const hidden = attr(item, "isvisible").toLowerCase() === "false";
      const ref = attr(item, "identifierref");
      const resource = ref ? resources.get(ref) : undefined;
      const title = (text(item.title) || attr(item, "identifier")).slice(0, 300);
      const children = list(item.item);
      if (resource?.href) {
        items.push({
          identifier: attr(item, "identifier") || ref,
          title,
          launch: withParameters(resource.href, attr(item, "parameters")),
          scormType: resource.scormType,
          masteryScore: masteryOf(item),
          launchData: text(item.datafromlms) || null,
          depth,
          ...(headings.length ? { headings } : {}),
          ...(hidden ? { hidden: true } : {}),
          ...(version === "1.2" ? {} : delivery(item)),
        });
        headings = [];
      } else if (children.length) {
        // A chapter: a heading (not shown when hidden), which closes any heading at its depth or deeper.
        headings = [...headings.filter((h) => h.depth < depth), { title, depth, ...(hidden ? { hidden: true } : {}) }];
      }
      walk(children, depth + 1);
    }
  };
  if (organization) walk(list(organization.item), 0);
  // A package with no organization may still have one launchable resource (allowed by the CP spec): its
  // first SCO, else its first resource with a launch file.
  if (items.length === 0 && !organization) {
    const launchable = [...resources.entries()].filter(([, r]) => r.href);
    const first = launchable.find(([, r]) => r.scormType === "sco") ?? launchable[0];
    if (first)
      items.push({
        identifier: first[0],
        title: first[0],
        launch: first[1].href,
        scormType: first[1].scormType,
        masteryScore: null,
        launchData: null,
        depth: 0,
      });
  }
  if (items.length === 0) throw new ManifestError("no_items");
  const title = text(organization?.title) || text((manifest.metadata as Node | undefined)?.title) || items[0].title;
  return { version, title: title.slice(0, 300), items };
}

/** The file a launch path names inside the package (no query or fragment, %-decoded), or null if unsafe. */
export function launchFile(launch: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(launch) || launch.startsWith("/") || launch.startsWith("\\")) return null;
  const path = launch.split(/[?#]/, 1)[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const segment of decoded.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (!out.length) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.length ? out.join("/") : null;
}
