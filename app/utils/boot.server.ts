/**
 * Hydration waits until the page has loaded (docs/decisions/034-lighthouse.md).
 *
 * Every page works without JavaScript, so the browser's first job is to draw it: its styles, its text and
 * its pictures. Remix's `<Scripts>` would have the browser fetch all of the page's JavaScript (about 90 KiB)
 * at once, beside the stylesheets and the first pictures, and run it as soon as it arrives; on a phone on
 * a slow network that is what the first paint and the largest picture wait behind, and its work lands
 * among theirs. So in production every page is written with its scripts inert (`deferHydration`, called by
 * app/utils/render-page.server.tsx) and a few lines (`bootScript`, put at the head of Remix's inline
 * context script) wake them once the page has loaded, or after a few seconds when a picture is slow: the
 * texts script runs, then Remix's module script, which loads the routes' modules and hydrates. Until then
 * links and forms work as they do without JavaScript.
 *
 * The elements stay where React expects them (an inert script is replaced by a live one in its place; the
 * module preloads keep an unknown `rel` and load nothing, the module script's imports load the same files),
 * so hydration finds the document it rendered.
 */
export const INERT_PRELOAD = "lectern-modulepreload";
export const INERT_MODULE = "lectern/module";
export const INERT_TEXTS = "lectern/texts";

/** How long the scripts wait for the page's load event at most, in ms (counted from when the page is read). */
export const BOOT_AT_THE_LATEST_MS = 3000;

export const bootScript = `(function () {
  var started = false;
  function live(inert, set) {
    var script = document.createElement("script");
    script.nonce = inert.nonce;
    for (var key in set) script[key] = set[key];
    inert.replaceWith(script);
    return script;
  }
  function boot() {
    if (started) return;
    started = true;
    var texts = document.querySelector('script[type="${INERT_TEXTS}"]');
    var modules = document.querySelector('script[type="${INERT_MODULE}"]');
    var hydrate = function () { if (modules) live(modules, { type: "module", text: modules.text }); };
    if (texts) {
      var script = live(texts, { src: texts.getAttribute("data-src") });
      script.onload = script.onerror = hydrate;
    } else hydrate();
  }
  // In a task of its own, after the load event's (which the browser's own work makes long enough).
  var soon = function () { setTimeout(boot, 0); };
  if (document.readyState === "complete") soon();
  else {
    addEventListener("load", soon, { once: true });
    setTimeout(boot, ${BOOT_AT_THE_LATEST_MS});
  }
})();`;

/**
 * The page's scripts made inert, as `bootScript` expects them, with `bootScript` at the head of Remix's
 * context script: Remix's module preloads and its module script (the one that imports the routes and the
 * entry), and the root layout's texts script. A page without Remix's scripts (one rendered without
 * `<Scripts>`) is returned as it is: nothing would wake them.
 *
 * They are the page's last elements, in this order: the texts script, the module preloads, the context
 * script, the module script. So they are found from the end of the page, and the page's markup before them
 * is never searched (a forward search of a 30 KiB home page cost more than the rest of this together).
 */
export function deferHydration(html: string) {
  const MODULE_OPEN = '" type="module" async="">';
  const moduleOpen = html.lastIndexOf(MODULE_OPEN);
  const moduleStart = moduleOpen < 0 ? -1 : html.lastIndexOf('<script nonce="', moduleOpen);
  const contextOpen = moduleStart < 0 ? -1 : html.lastIndexOf('">window.__remixContext = ', moduleStart);
  const contextStart = contextOpen < 0 ? -1 : html.lastIndexOf('<script nonce="', contextOpen);
  if (contextStart < 0 || html.indexOf('"', contextStart + 15) !== contextOpen) return html;
  const textsSrc = html.lastIndexOf(' src="/i18n/', contextStart);
  const textsStart = textsSrc < 0 ? -1 : html.lastIndexOf("<script", textsSrc);
  const from = textsStart >= 0 ? textsStart : Math.max(0, html.indexOf('<link rel="modulepreload"'));
  const nonce = html.slice(moduleStart + 15, moduleOpen);
  const before = from < contextStart ? html.slice(from, contextStart) : "";
  return (
    html.slice(0, Math.min(from, contextStart)) +
    before
      .replace(
        /<script nonce="([^"]*)" src="(\/i18n\/[^"]+)"><\/script>/,
        `<script nonce="$1" type="${INERT_TEXTS}" data-src="$2"></script>`,
      )
      .replaceAll('<link rel="modulepreload"', `<link rel="${INERT_PRELOAD}"`) +
    html.slice(contextStart, contextOpen + 2) +
    `${bootScript}\n` +
    html.slice(contextOpen + 2, moduleStart) +
    `<script nonce="${nonce}" type="${INERT_MODULE}">` +
    html.slice(moduleOpen + MODULE_OPEN.length)
  );
}
