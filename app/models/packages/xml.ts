import { XMLParser, XMLValidator } from "fast-xml-parser";

/*
 * XML in document order, as the package manifests are read (cmi5.xml, tincan.xml): each element a node with its
 * name, attributes and children, so the order the schemas ask for can be checked. Namespace prefixes are kept:
 * an element or attribute with one belongs to another namespace (an extension the schemas allow) and is skipped
 * by the readers. No DOCTYPE entity is expanded (fast-xml-parser leaves them alone unless asked).
 */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  cdataPropName: "__cdata",
});

type Raw = Record<string, unknown>;

function nodeOf(raw: Raw): XmlNode | null {
  const name = Object.keys(raw).find((k) => k !== ":@");
  if (!name || name === "#text" || name.startsWith("?") || name === "#comment") return null;
  const attributes = Object.fromEntries(
    Object.entries((raw[":@"] as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)]),
  );
  const content = (raw[name] as Raw[]) ?? [];
  const children: XmlNode[] = [];
  let text = "";
  for (const part of content) {
    if ("#text" in part) text += String(part["#text"]);
    else if ("__cdata" in part) text += ((part.__cdata as Raw[]) ?? []).map((c) => String(c["#text"] ?? "")).join("");
    else {
      const child = nodeOf(part);
      if (child) children.push(child);
    }
  }
  return { name, attributes, children, text };
}

/** The document's root element, or null when the text is not well-formed XML. */
export function parseXml(xml: string): XmlNode | null {
  if (XMLValidator.validate(xml) !== true) return null;
  try {
    const roots = (parser.parse(xml) as Raw[]).map(nodeOf).filter((n): n is XmlNode => n !== null);
    return roots.length === 1 ? roots[0] : null;
  } catch {
    return null;
  }
}

/** An element's own children (those without a namespace prefix: the rest are extensions). */
export const ownChildren = (node: XmlNode) => node.children.filter((c) => !c.name.includes(":"));
