import sanitizeHtml from "sanitize-html";

/**
 * Rich text (course descriptions, text lessons) is kept only as this allowlist of tags and attributes
 * (SECURITY.md "Input and content"): no scripts, no event handlers, no styles, links only to http(s) and
 * mail addresses, and every link opens without handing over the page.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "ul", "ol", "li", "a", "h2", "h3", "h4", "blockquote", "code", "pre", "hr"],
  allowedAttributes: { a: ["href", "title"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }),
  },
};

export function sanitizeRichText(html: string) {
  return sanitizeHtml(html, { ...OPTIONS, allowedAttributes: { a: ["href", "title", "rel", "target"] } }).trim();
}

/** Plain text from rich text, for search and summaries. */
export function richTextToPlain(html: string) {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, " ").trim();
  // The text is rendered as text by React, so entities are turned back into their characters.
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]!);
}
