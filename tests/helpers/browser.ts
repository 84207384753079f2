import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer";

export const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";

/**
 * Debian's Chromium, headless, with a fresh profile that is removed afterwards (STACK.md traps 3 and 5).
 * The background-networking flags keep it from calling out of this closed network.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
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

/** Clicks something that submits a form and waits for the navigation it causes. */
export async function clickAndWait(page: Page, selector: string) {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(selector)]);
  await settled(page);
}

/**
 * With JavaScript, Remix changes the address (which ends waitForNavigation) before React has drawn the new
 * page: wait until the router is idle (no navigation, revalidation or fetcher under way) and two frames
 * have been drawn. Without JavaScript the page has loaded already.
 */
export async function settled(page: Page) {
  if (!page.isJavaScriptEnabled()) return;
  await page.waitForFunction(
    () => {
      const router = (window as unknown as { __remixRouter?: { state: { navigation: { state: string }; revalidation: string; fetchers: Map<string, { state: string }> } } }).__remixRouter;
      if (!router) return document.readyState === "complete";
      const { navigation, revalidation, fetchers } = router.state;
      return navigation.state === "idle" && revalidation === "idle" && [...fetchers.values()].every((f) => f.state === "idle");
    },
    { timeout: 30_000 },
  );
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * Before a screenshot: the page has settled, its fonts are loaded and every picture has loaded or failed.
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
 * Clicks something and polls until `done` holds, then until the page has loaded and settled. `done`
 * should name something on the new page, not only its address: with JavaScript on, the address changes
 * before the new page is drawn. The polling uses plain evaluate calls: a waitForFunction started while
 * a page without JavaScript is being replaced by the next one has been seen to hang for its whole timeout.
 */
export async function clickUntil(page: Page, selector: string, done: () => Promise<boolean>, { timeoutMs = 30_000 } = {}) {
  await page.click(selector);
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await done()) && (await page.evaluate(() => document.readyState === "complete"))) {
        await settled(page);
        return;
      }
    } catch {
      // between documents
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing happened after ${selector} (${page.url()})`);
}

/** Signs in through the real form (the organization here has no two-factor step). */
export async function signIn(page: Page, origin: string, email: string, password = "demo1234") {
  await page.goto(`${origin}/auth/login`, { waitUntil: "load" });
  await page.type("input[name=email]", email);
  await page.type("input[name=password]", password);
  await clickAndWait(page, '[data-testid="login-submit"]');
}
