import type { Browser } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./axe";
import { connectBrowser, settled } from "./browser";
import { startInProcess, type InProcessServer } from "./in-process";
import { auditedPages, cookieHeader, failedAudits, HOST, loadLighthouse, THEMES, type AuditedPage } from "./lighthouse";

/**
 * Lighthouse's accessibility, best-practices and SEO categories on the pages `npm run lighthouse` measures
 * (the visitor's home, the learner's home, a course page, a video lesson, a quiz lesson, the leaderboard),
 * 100 each, shared by tests/e2e/lighthouse-*.test.ts (three pages a file, so that neither is the long pole of
 * a run). These do not depend on the machine's speed, so they run with every `npm test`; performance is
 * `npm run lighthouse`'s (docs/decisions/034-lighthouse.md), which measures both themes.
 *
 * Lighthouse runs in the light theme. What a theme changes is colours, so in the dark theme the same pages are
 * checked by axe-core (whose rules Lighthouse's accessibility audits are) with every rule and no violation of
 * any impact allowed: the same verdict on contrast at a sixth of the time (a Lighthouse run is about six
 * seconds a page).
 *
 * One Chromium serves every run (Lighthouse connects to its debugging port and opens a tab per page). The
 * page is read once it has loaded and been quiet for half a second, so it has been hydrated (the player's
 * own controls are drawn then): enough for these categories, and about five seconds a page.
 */
const CATEGORIES = ["accessibility", "best-practices", "seo"] as const;
/** The pages' short names (tests/helpers/lighthouse.ts `auditedPages`), known before the server is. */
export const AUDITED = ["visitor-home", "home", "course", "video", "quiz", "leaderboard"] as const;

/** Lighthouse in the light theme and axe-core in the dark one on the `names` of `AUDITED`, with a server of the file's own. */
export function describeAudits(names: readonly (typeof AUDITED)[number][]) {
  let server: InProcessServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let pages: AuditedPage[];
  let session: string;
  let lighthouse: Awaited<ReturnType<typeof loadLighthouse>>;

  beforeAll(async () => {
    server = await startInProcess();
    ({ pages, session } = auditedPages(server));
    ({ browser, close: closeBrowser } = await connectBrowser());
    lighthouse = await loadLighthouse();
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  describe("Lighthouse in the light theme", () => {
    const theme = THEMES[0];
    it.each(names)("scores 100 for accessibility, best practices and SEO on %s", async (name) => {
      const page = pages.find((p) => p.name === name)!;
      const result = await lighthouse(`http://${HOST}:${server.port}${page.path}`, {
        port: Number(new URL(browser.wsEndpoint()).port),
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
        extraHeaders: { Cookie: await cookieHeader(page.signedIn ? session : null, theme) },
        disableFullPageScreenshot: true,
        pauseAfterFcpMs: 0,
        pauseAfterLoadMs: 500,
        networkQuietThresholdMs: 500,
        cpuQuietThresholdMs: 500,
      });
      const lhr = result!.lhr;
      expect(lhr.runtimeError?.message ?? null).toBeNull();
      expect(lhr.finalDisplayedUrl).toBe(`http://${HOST}:${server.port}${page.path}`);
      expect(failedAudits(lhr, CATEGORIES)).toEqual([]);
      expect(CATEGORIES.map((c) => lhr.categories[c].score)).toEqual([1, 1, 1]);
    });
  });

  describe("axe-core in the dark theme", () => {
    it.each(names)("finds no violation of any impact on %s", async (name) => {
      const audited = pages.find((p) => p.name === name)!;
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.setViewport({ width: 412, height: 823 });
        await page.setExtraHTTPHeaders({ Cookie: await cookieHeader(audited.signedIn ? session : null, THEMES[1]) });
        const response = await page.goto(`http://${HOST}:${server.port}${audited.path}`, { waitUntil: "load" });
        expect(response?.status()).toBe(200);
        await settled(page);
        expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe(THEMES[1]);
        expect(describeViolations(await axeViolations(page))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
}
