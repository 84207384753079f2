import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer";

export const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";
/** Debian's build of Chromium's headless shell (`apt-get install chromium-headless-shell`). */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/**
 * The browser the tests drive: Debian's headless shell, the same Blink and V8 as Debian's Chromium without a
 * browser's windows around them, when it is installed and CHROME_PATH names no other; otherwise Chromium
 * itself, headless. A quarter less CPU for the e2e files (docs/decisions/006-testing.md). `npm run
 * lighthouse`, which measures speed as a phone's Chrome sees it, drives Chromium itself.
 */
export function testChromium(): { executablePath: string; headless: true | "shell" } {
  if (!process.env.CHROME_PATH && fs.existsSync(HEADLESS_SHELL)) return { executablePath: HEADLESS_SHELL, headless: "shell" };
  return { executablePath: CHROMIUM, headless: true };
}

/**
 * Debian's Chromium (its headless shell unless told otherwise: `testChromium`), with a fresh profile that is
 * removed afterwards (docs/decisions/001-stack-and-layout.md, traps 3 and 5).
 * The background-networking flags keep it from calling out of this closed network.
 *
 * Every browser context is a window of its own, and Chromium 156 loads two pages of its own into each new
 * window, in a renderer of their own, for an address bar no headless window shows (chrome://omnibox-popup.top-chrome/
 * and its AI-mode twin; `Target.getTargets` lists them as `browser_ui`): about half the browser's CPU for a
 * context that loads one or two pages. The WebUI omnibox features are turned off; what a page renders is not
 * theirs to change. (Puppeteer merges this --disable-features with its own.) Site isolation's trial (a process
 * of its own for each site a page or frame shows) is off too: fewer renderer processes started and fed, 12%
 * less CPU on five flow files (groups, authoring, scorm, shell, sso: 130 against 149 CPU-s in a cgroup, two
 * runs each); the same-origin rules a page's scripts meet are Blink's either way (the SCORM content frame's
 * isolation, tests/e2e/scorm.test.ts, is checked as before).
 */
export async function launchBrowser({ chromium = testChromium() }: { chromium?: ReturnType<typeof testChromium> } = {}): Promise<{
  browser: Browser;
  close: () => Promise<void>;
}> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-chromium-"));
  const browser = await puppeteer.launch({
    ...chromium,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
      "--disable-site-isolation-trials",
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The run's Chromium (tests/setup/chromium.ts), for one test file; a Chromium of its own when there is none
 * (a run without the e2e project's setup, a script). Every context the file opens is its own (cookies,
 * storage, cache); `close` closes them and lets go of the browser, which goes on serving the other files.
 * The connection attaches only to the targets of its own contexts, not to every page of the other files.
 */
export async function connectBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const endpoint = process.env.LECTERN_TEST_CHROMIUM;
  if (!endpoint) return launchBrowser();
  const ours = new Set<string>();
  const browser = await puppeteer.connect({
    browserWSEndpoint: endpoint,
    defaultViewport: { width: 800, height: 600 },
    targetFilter: (target) => target.type() === "browser" || ours.has(target.browserContext().id ?? ""),
  });
  const createContext = browser.createBrowserContext.bind(browser);
  browser.createBrowserContext = async (options) => {
    const context = await createContext(options);
    ours.add(context.id!);
    return context;
  };
  return {
    browser,
    close: async () => {
      for (const context of browser.browserContexts()) if (context.id && ours.has(context.id)) await context.close();
      await browser.disconnect();
    },
  };
}

/** A page in its own browser context (its own cookies), with JavaScript on or off. */
export async function newPage(browser: Browser, { javascript }: { javascript: boolean }): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setJavaScriptEnabled(javascript);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  (page as Page & { jsErrors: string[] }).jsErrors = errors;
  return page;
}

/**
 * Clicks something that submits a form and waits for the navigation it causes. With JavaScript, the page
 * must have settled first: hydration rewrites the history entry (replaceState), which would end a
 * waitForNavigation begun before it, while the click's own navigation is still under way.
 */
export async function clickAndWait(page: Page, selector: string) {
  await settled(page);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(selector)]);
  await settled(page);
}

/**
 * With JavaScript, Remix changes the address (which ends waitForNavigation) before React has drawn the new
 * page: wait until the page is hydrated (React has claimed the whole document: <html> carries its fiber,
 * which React sets only after all descendants), the router is idle (no navigation, revalidation or fetcher
 * under way) and two frames have been drawn. Without JavaScript the page has loaded already.
 */
export async function settled(page: Page) {
  if (!page.isJavaScriptEnabled()) return;
  await page.waitForFunction(
    () => {
      const w = window as unknown as {
        __remixContext?: unknown;
        __remixRouter?: { state: { navigation: { state: string }; revalidation: string; fetchers: Map<string, { state: string }> } };
      };
      if (document.readyState !== "complete") return false;
      // Not a Remix page (an identity provider's, say): loaded is all there is.
      if (!w.__remixContext) return true;
      const hydrated = Object.keys(document.documentElement).some((key) => key.startsWith("__reactFiber"));
      if (!w.__remixRouter || !hydrated) return false;
      const { navigation, revalidation, fetchers } = w.__remixRouter.state;
      return navigation.state === "idle" && revalidation === "idle" && [...fetchers.values()].every((f) => f.state === "idle");
    },
    { timeout: 30_000 },
  );
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * Saves a PNG of the page (the whole page unless told), its PNG encoded for speed (zlib's fastest level,
 * puppeteer's `optimizeForSpeed`): the same pixels in a file about twice as large, for a third of Chromium's CPU.
 */
export async function savePng(page: Page, file: string, { fullPage = true } = {}) {
  await page.screenshot({ path: file, fullPage, optimizeForSpeed: true });
}

/**
 * Before a screenshot (of a page with JavaScript): the page has settled, its fonts are loaded and every picture has loaded or failed.
 * Lazy pictures are asked for at once, so a full-page shot shows the ones below the fold as well.
 */
export async function readyForScreenshot(page: Page) {
  await settled(page);
  await page.evaluate(async () => {
    for (const img of document.images) img.loading = "eager";
    await document.fonts.ready;
    await Promise.all(
      [...document.images].map((img) =>
        img.complete
          ? null
          : new Promise((resolve) => {
              img.addEventListener("load", resolve, { once: true });
              img.addEventListener("error", resolve, { once: true });
            }),
      ),
    );
  });
}

/**
 * Polls `check` (run here in the test, so it may call page.$, page.$eval, page.url()) every 50 ms until it
 * returns something truthy, and returns that; errors count as "not yet" (the page may be between
 * documents). Use it rather than page.waitForFunction where JavaScript may be off: Chromium then runs no
 * timers or animation frames for puppeteer's poller, so waitForFunction looks once per document and waits
 * out its whole timeout if that look fails (waitForSelector without `visible` is fine: it watches the DOM).
 */
export async function until<T>(check: () => Promise<T>, what: string, { timeoutMs = 30_000 } = {}): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (${String(last)})` : ""}`);
}

/**
 * Clicks something and waits until `done` holds and the page has loaded and settled. `done` should name
 * something on the new page, not only its address: with JavaScript on, the address changes before the new
 * page is drawn.
 */
export async function clickUntil(page: Page, selector: string, done: () => Promise<boolean>, { timeoutMs = 30_000 } = {}) {
  await settled(page);
  await page.click(selector);
  await until(
    async () => (await done()) && (await page.evaluate(() => document.readyState === "complete")),
    `${selector} to lead on (at ${page.url()})`,
    { timeoutMs },
  );
  await settled(page);
}

/** Signs in through the real form (the organization here has no two-factor step). */
export async function signIn(page: Page, origin: string, email: string, password = "demo1234") {
  await page.goto(`${origin}/auth/login`, { waitUntil: "load" });
  await page.type("input[name=email]", email);
  await page.type("input[name=password]", password);
  await clickAndWait(page, '[data-testid="login-submit"]');
}
