import http from "node:http";
import { Window } from "happy-dom";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";

/**
 * A floor for a signed-in page's row of `npm run bench` (docs/decisions/014-speed.md, "How it is measured"): what
 * React alone costs to render the markup the page sends. The page's HTML is parsed back into plain React
 * elements (no components, no hooks, no contexts, no Remix), made once, and rendered with
 * `renderToString` in a hot loop. Any React server rendering of that page costs at least this; added to
 * the baseline's whole request it bounds the ratio the row could reach on this stack.
 */
export async function renderFloor(html: string) {
  const { tree, elements } = await pageElements(html);
  for (let i = 0; i < 200; i++) renderToString(tree);
  const runs = 500;
  const started = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) renderToString(tree);
  const ms = Number(process.hrtime.bigint() - started) / runs / 1e6;
  return { elements, kib: Math.round(html.length / 102.4) / 10, ms: Math.round(ms * 1000) / 1000 };
}

/**
 * A page's HTML as plain React elements, made once. `replace` may stand in for an element (by returning
 * something other than `undefined`); the page floor (baseline-page.ts) puts Remix's own parts there.
 */
export async function pageElements(
  html: string,
  replace: (tag: string, element: ParsedElement, convert: (node: ParsedNode) => ReactNode) => ReactNode | undefined = () => undefined,
) {
  const window = new Window();
  try {
    const document = new window.DOMParser().parseFromString(html, "text/html");
    let elements = 0;
    const convert = (node: ParsedNode): ReactNode => {
      if (node.nodeType === 3) return node.textContent;
      if (node.nodeType !== 1) return null;
      const element = node as ParsedElement;
      const tag = element.tagName.toLowerCase();
      const replaced = replace(tag, element, convert);
      if (replaced !== undefined) return replaced;
      elements += 1;
      const props: Record<string, unknown> = {};
      for (const attribute of Array.from(element.attributes)) {
        const name = PROP_NAMES[attribute.name] ?? attribute.name;
        if (name === "style") props.style = styleObject(attribute.value);
        else if (BOOLEAN.has(name)) props[name] = true;
        else if (name === "value" || name === "selected" || name === "checked")
          props[name === "value" ? "defaultValue" : name === "checked" ? "defaultChecked" : "data-selected"] = attribute.value;
        else props[name] = attribute.value;
      }
      if (tag === "script" || tag === "style")
        return createElement(tag, { ...props, dangerouslySetInnerHTML: { __html: element.textContent ?? "" } });
      return createElement(
        tag,
        props,
        ...Array.from(element.childNodes)
          .map(convert)
          .filter((child) => child !== null),
      );
    };
    const head = convert(document.head as unknown as ParsedNode);
    const body = convert(document.body as unknown as ParsedNode);
    const tree = createElement("html", { lang: document.documentElement.getAttribute("lang") ?? "en" }, head, body);
    return { tree, head, body, elements };
  } finally {
    await window.happyDOM.close();
  }
}

/** What is read of happy-dom's nodes. */
export interface ParsedNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<ParsedNode>;
}
export interface ParsedElement extends ParsedNode {
  tagName: string;
  attributes: ArrayLike<{ name: string; value: string }>;
}

const PROP_NAMES: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  charset: "charSet",
  tabindex: "tabIndex",
  readonly: "readOnly",
  crossorigin: "crossOrigin",
  srcset: "srcSet",
  autocomplete: "autoComplete",
  "http-equiv": "httpEquiv",
  colspan: "colSpan",
  rowspan: "rowSpan",
  enctype: "encType",
  maxlength: "maxLength",
  fetchpriority: "fetchPriority",
  novalidate: "noValidate",
  "accept-charset": "acceptCharset",
};
const BOOLEAN = new Set(["disabled", "hidden", "async", "defer", "required", "multiple", "open", "autofocus", "novalidate", "noValidate"]);

function styleObject(text: string) {
  const style: Record<string, string> = {};
  for (const declaration of text.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim();
    style[name.startsWith("--") ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = declaration
      .slice(colon + 1)
      .trim();
  }
  return style;
}

export function getPage(port: number, path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString("utf8")) : reject(new Error(`GET ${path}: ${res.statusCode}`)),
        );
      })
      .on("error", reject);
  });
}
