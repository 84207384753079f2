import type { Browser } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser";
import { auditedPages, cookieHeader, failedAudits, HOST, loadLighthouse, THEMES, type AuditedPage } from "../helpers/lighthouse";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * Lighthouse's accessibility, best-practices and SEO categories on the pages `npm run lighthouse` measures
 * (the visitor's home, the learner's home, a course page, a video lesson, a quiz lesson, the leaderboard),
 * in both themes: 100 each. These do not depend on the machine's speed, so they run with every `npm test`;
 * performance is `npm run lighthouse`'s (docs/decisions/034-lighthouse.md).
 *
 * One Chromium serves every run (Lighthouse connects to its debugging port and opens a tab per page). The
 * page is read once it has loaded and been quiet for half a second, so it has been hydrated (the player's
 * own controls are drawn then): enough for these categories, and about five seconds a page.
 */
const CATEGORIES = ["accessibility", "best-practices", "seo"] as const;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let pages: AuditedPage[];
let session: string;
let lighthouse: Awaited<ReturnType<typeof loadLighthouse>>;

beforeAll(async () => {
  server = await startServer();
  ({ pages, session } = auditedPages(server));
  ({ browser, close: closeBrowser } = await launchBrowser());
  lighthouse = await loadLighthouse();
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe.each(THEMES)("Lighthouse in the %s theme", (theme) => {
  // The names are known before the server is: the pages themselves are looked up in beforeAll.
  it.each(["visitor-home", "home", "course", "video", "quiz", "leaderboard"])(
    "scores 100 for accessibility, best practices and SEO on %s",
    async (name) => {
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
    },
  );
});
