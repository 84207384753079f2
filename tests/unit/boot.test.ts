import { describe, expect, it } from "vitest";
import { bootScript, deferHydration, INERT_MODULE, INERT_PRELOAD, INERT_TEXTS } from "~/utils/boot.server";

/** A page as the root layout and Remix's <Scripts> write it (app/root.tsx), cut to what the transform reads. */
const page = (nonce = "n0nce") =>
  `<!DOCTYPE html><html><head></head><body><main>…</main>` +
  `<script nonce="${nonce}" src="/i18n/en-0123456789.js"></script>` +
  `<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/_shared/chunk-B.js"/>` +
  `<script nonce="${nonce}">window.__remixContext = {"state":{}};</script>` +
  `<script nonce="${nonce}" type="module" async="">import * as route0 from "/build/root-C.js";\nimport("/build/entry.client-A.js");</script>` +
  `</body></html>`;

describe("hydration after the page has loaded (app/utils/boot.server.ts)", () => {
  it("writes the page's scripts inert, and the boot script at the head of Remix's context script", () => {
    const html = deferHydration(page());
    expect(html).not.toContain('rel="modulepreload"');
    expect(html.match(new RegExp(`rel="${INERT_PRELOAD}"`, "g"))).toHaveLength(2);
    expect(html).toContain(`<script nonce="n0nce" type="${INERT_MODULE}">import * as route0`);
    expect(html).toContain(`<script nonce="n0nce" type="${INERT_TEXTS}" data-src="/i18n/en-0123456789.js"></script>`);
    expect(html).toContain(`<script nonce="n0nce">${bootScript}\nwindow.__remixContext = {`);
    expect(html).not.toContain('type="module"');
    // The element count and order are unchanged: React hydrates the same document.
    const tags = (s: string) => s.match(/<(script|link)\b/g);
    expect(tags(html)).toEqual(tags(page()));
  });

  it("gives what rewriting the whole page with patterns gives, with scripts in the page's body and without texts", () => {
    // The rewrite as first written: every pattern over the whole page.
    const reference = (html: string) =>
      html
        .replace(/<script nonce="([^"]*)">window\.__remixContext = /, (found) => found.replace(">window", `>${bootScript}\nwindow`))
        .replaceAll('<link rel="modulepreload"', `<link rel="${INERT_PRELOAD}"`)
        .replace(/<script nonce="([^"]*)" type="module" async="">/, `<script nonce="$1" type="${INERT_MODULE}">`)
        .replace(
          /<script nonce="([^"]*)" src="(\/i18n\/[^"]+)"><\/script>/,
          `<script nonce="$1" type="${INERT_TEXTS}" data-src="$2"></script>`,
        );
    const body = `<main><script type="application/ld+json">{"name":"Fire safety — ÆØÅ"}</script><p>${"ł".repeat(5000)}</p></main>`;
    const rich = page("AbC+/09==").replace("<main>…</main>", body);
    const noTexts = rich.replace(/<script nonce="[^"]*" src="\/i18n\/[^"]+"><\/script>/, "");
    for (const html of [page(), rich, noTexts]) expect(deferHydration(html)).toBe(reference(html));
  });

  it("leaves a page without Remix's scripts as it is (nothing would wake them)", () => {
    const bare = `<html><body><script nonce="x" src="/i18n/en-0123456789.js"></script><link rel="modulepreload" href="/a.js"/></body></html>`;
    expect(deferHydration(bare)).toBe(bare);
  });

  it("wakes the texts first, then the module script, once the page has loaded", () => {
    expect(bootScript).toContain(`addEventListener("load", soon`);
    expect(bootScript.indexOf(INERT_TEXTS)).toBeLessThan(bootScript.indexOf("script.onload"));
    expect(bootScript).toMatch(/setTimeout\(boot, \d+\)/);
    // Valid script, as the browser will read it.
    expect(() => new Function(bootScript)).not.toThrow();
  });
});
