import sanitizeHtml from "sanitize-html";

/**
 * Rich text (course descriptions, text lessons) is kept only as this allowlist of tags and attributes
 * (docs/security.md "Input and content"): no scripts, no event handlers, no styles, links only to http(s) and
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

/**
 * Both functions below are pure (same text in, same text out) and pages call them on every render for
 * the same few descriptions, so results are kept in a bounded memo keyed by the input: sanitising is
 * still applied to every text shown, only not parsed again. Long texts are not kept.
 */
function memoised(work: (html: string) => string, size = 2_000, maxLength = 16_384) {
  const memo = new Map<string, string>();
  return (html: string) => {
    if (html.length > maxLength) return work(html);
    let result = memo.get(html);
    if (result === undefined) {
      result = work(html);
      if (memo.size >= size) memo.delete(memo.keys().next().value!);
      memo.set(html, result);
    }
    return result;
  };
}

export const sanitizeRichText = memoised((html: string) =>
  sanitizeHtml(html, { ...OPTIONS, allowedAttributes: { a: ["href", "title", "rel", "target"] } }).trim(),
);

/** Plain text from rich text, for search and summaries. */
export const richTextToPlain = memoised((html: string) => {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, " ").trim();
  // The text is rendered as text by React, so entities are turned back into their characters.
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]!);
});
