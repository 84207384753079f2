import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, newPage, settled } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (host: string, path = "/") => `http://${host}:${server.port}${path}`;
const htmlClass = (page: Page) => page.$eval("html", (el) => el.className);
const heading = (page: Page) => page.$eval("h1", (el) => el.textContent);

/**
 * Submits a form by clicking its button and waits for the result. With JavaScript on, Remix handles the
 * post itself (no full navigation), so we wait for the expected state instead of a navigation.
 */
async function submitAndWaitFor(page: Page, selector: string, condition: () => Promise<boolean>) {
  await page.click(selector);
  for (let i = 0; i < 100; i++) {
    try {
      if (await condition()) return;
    } catch {
      // the page is between documents
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met after submitting ${selector}`);
}

for (const javascript of [true, false]) {
  describe(`the page shell with JavaScript ${javascript ? "on" : "off"}`, () => {
    it("shows Acme Academy with its published courses, light by default (organization 1)", async () => {
      const page = await newPage(browser, { javascript });
      const res = await page.goto(url("acme.localhost"), { waitUntil: "load" });
      expect(res?.status()).toBe(200);
      expect(await page.title()).toBe("Acme Academy");
      expect(await page.$eval(".brand-name", (el) => el.textContent)).toBe("Acme Academy");
      expect(await htmlClass(page)).toBe("theme-light");
      const titles = await page.$$eval(".course-title", (els) => els.map((e) => e.textContent));
      expect(titles).toContain("Workplace Safety Essentials");
      expect(titles).not.toContain("Advanced Negotiation (draft)");
      await page.browserContext().close();
    });

    it("switches the theme and remembers it on the device", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url("acme.localhost"), { waitUntil: "load" });
      await submitAndWaitFor(page, '[data-testid="theme-switch"]', async () => (await htmlClass(page)) === "theme-dark");
      await page.reload({ waitUntil: "load" });
      expect(await htmlClass(page)).toBe("theme-dark");
      // The choice is this host's: Nordlys keeps its own default.
      await page.goto(url("nordlys.localhost"), { waitUntil: "load" });
      expect(await htmlClass(page)).toBe("theme-dark");
      await submitAndWaitFor(page, '[data-testid="theme-switch"]', async () => (await htmlClass(page)) === "theme-light");
      await page.goto(url("acme.localhost"), { waitUntil: "load" });
      expect(await htmlClass(page)).toBe("theme-dark");
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    });

    it("switches the language and remembers it", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url("nordlys.localhost"), { waitUntil: "load" });
      expect(await page.$eval("html", (el) => el.lang)).toBe("da");
      expect(await heading(page)).toBe("Kurser");
      await page.select('[data-testid="language-select"]', "sv");
      await submitAndWaitFor(
        page,
        '[data-testid="language-submit"]',
        async () => (await heading(page)) === "Kurser" && (await page.$eval("html", (el) => el.lang)) === "sv",
      );
      expect(await page.$eval('[data-testid="language-submit"]', (el) => el.textContent)).toBe("Byt språk");
      await page.select('[data-testid="language-select"]', "pl");
      await submitAndWaitFor(page, '[data-testid="language-submit"]', async () => (await heading(page)) === "Kursy");
      await page.reload({ waitUntil: "load" });
      expect(await heading(page)).toBe("Kursy");
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    });

    it("draws the home page in each of the five languages, the browser's texts matching the server's", async () => {
      // One visitor choosing each language in turn (a context each would only add a browser's start-up).
      const page = await newPage(browser, { javascript });
      for (const lng of ["en", "pl", "da", "no", "sv"]) {
        // The language switch's cookie (an unsigned Remix cookie: base64 of the JSON value).
        const value = encodeURIComponent(Buffer.from(JSON.stringify(lng)).toString("base64"));
        await page.setCookie({ name: "lng", value, domain: "acme.localhost", path: "/" });
        await page.goto(url("acme.localhost"), { waitUntil: "load" });
        await settled(page);
        expect(await page.$eval("html", (el) => el.lang)).toBe(lng);
        // Counted texts (pl has four plural forms) read as the server wrote them: a hydration mismatch
        // would show as a page error (React redraws the page on the client).
        const counts = await page.$$eval('[data-testid="category-tiles"] .tile-count', (els) => els.map((e) => e.textContent ?? ""));
        expect(counts.length).toBeGreaterThan(0);
        const texts = (JSON.parse(fs.readFileSync(path.join("locales", lng, "browse.json"), "utf8")) as { browse: Record<string, string> })
          .browse;
        for (const text of counts) {
          const count = Number(text.match(/\d+/)?.[0]);
          const form = new Intl.PluralRules(lng).select(count);
          expect(text).toBe(texts[`courseCount_${form}`].replace("{{count}}", String(count)));
        }
        expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      }
      await page.browserContext().close();
    });

    it("shows the 404 page with a link home, on a known and an unknown host", async () => {
      const page = await newPage(browser, { javascript });
      const res = await page.goto(url("acme.localhost", "/nowhere"), { waitUntil: "load" });
      expect(res?.status()).toBe(404);
      expect(await heading(page)).toBe("This page could not be found");
      // Home, drawn: its course list (the 404 page has the brand name too).
      await submitAndWaitFor(
        page,
        ".error-page a",
        async () => new URL(page.url()).pathname === "/" && (await page.$(".course-title")) !== null,
      );
      expect(await page.$eval(".brand-name", (el) => el.textContent)).toBe("Acme Academy");

      const unknown = await page.goto(url("unknown.localhost"), { waitUntil: "load" });
      expect(unknown?.status()).toBe(404);
      expect(await heading(page)).toBe("This page could not be found");
      await page.browserContext().close();
    });
  });
}
