import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, newPage, settled } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The learner's home and browsing pages in a real Chromium (issue 18), JavaScript on and off: carousel
 * rows that scroll with the keyboard, covers that load, and no sideways overflow from 360 px. The
 * screenshots of these pages are taken by tests/e2e/screenshots.test.ts.
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let learnerCookie: string;
const ORG = "nordlys.localhost";
/** The learner has begun two series: part of a first episode watched. */
const BEGIN = `insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds)
  select u.id, l.id, l.course_id, ?, ? from users u, lessons l join courses c on c.id = l.course_id
  where u.email = 'learner@nordlys.test' and c.title = ? and l.kind = 'video' order by l.position limit 1`;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
  execTenant(server, 2, BEGIN, 7, 7, "Førstehjælp på arbejdspladsen");
  execTenant(server, 2, BEGIN, 4, 4, "Bæredygtighed i hverdagen");
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;

async function learnerPage(javascript: boolean, width = 1280) {
  const page = await newPage(browser, { javascript });
  const at = learnerCookie.indexOf("=");
  await page.setCookie({ name: learnerCookie.slice(0, at), value: learnerCookie.slice(at + 1), url: url() });
  await page.setViewport({ width, height: width > 600 ? 900 : 844 });
  return page;
}

async function until(done: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if (await done()) return;
    } catch {
      // between documents
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const javascript of [true, false]) {
  describe(`browsing with JavaScript ${javascript ? "on" : "off"}`, () => {
    it("home shows the featured hero with its cover, continue watching with progress, and carousel rows of cards", async () => {
      const page = await learnerPage(javascript);
      // "load" waits for the page's eager pictures (the hero's cover among them); settled for the hydration.
      await page.goto(url("/"), { waitUntil: "load" });
      await settled(page);
      expect(await page.$eval('[data-testid="featured"] .hero-title', (el) => el.textContent)).toBe("Velkommen til Nordlys");
      // The cover really loaded (the image provider answered with a picture).
      expect(await page.$eval('[data-testid="featured"] img', (img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await page.$eval('[data-testid="featured-play"]', (el) => el.textContent)).toMatch(/Start|Fortsæt/);
      const progress = await page.$$eval('[data-testid="continue-watching"] .card-progress', (els) =>
        els.map((e) => Number(e.getAttribute("data-progress"))),
      );
      expect(progress.length).toBeGreaterThan(0);
      for (const p of progress) expect(p).toBeGreaterThan(0);
      const rows = await page.$$eval(".carousel .row-track", (els) =>
        els.map((el) => ({
          overflowX: getComputedStyle(el).overflowX,
          snap: getComputedStyle(el).scrollSnapType,
          cards: el.querySelectorAll(".card").length,
          tab: el.getAttribute("tabindex"),
        })),
      );
      expect(rows.length).toBe(2);
      for (const row of rows) expect(row).toMatchObject({ overflowX: "auto", tab: "0" });
      for (const row of rows) expect(row.snap).toContain("x");
      expect(await page.$$eval('[data-testid="category-tiles"] img', (imgs) => imgs.length)).toBe(3);
      const facts = await page.$$eval(".carousel .card[data-course-id] .card-facts", (els) => els.map((e) => e.textContent));
      expect(facts).toContain("Serie4 afsnit24 sek.");
      // Row buttons come only with JavaScript (and only when a row is wider than the screen).
      if (!javascript) expect(await page.$('[data-testid="row-next"]')).toBeNull();
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    });

    it("a row scrolls sideways with the keyboard, and with the next button when JavaScript runs", async () => {
      const page = await learnerPage(javascript, 390);
      await page.goto(url("/"), { waitUntil: "load" });
      const track = ".carousel .row-track";
      await page.focus(track);
      await page.keyboard.press("ArrowRight");
      await until(async () => (await page.$eval(track, (el) => el.scrollLeft)) > 0, "the row to scroll");
      if (javascript) {
        await page.setViewport({ width: 700, height: 900 });
        await page.goto(url("/"), { waitUntil: "load" });
        await page.waitForSelector('.carousel [data-testid="row-next"]');
        await page.click('.carousel [data-testid="row-next"]');
        await until(async () => (await page.$eval(track, (el) => el.scrollLeft)) > 0, "the next button to scroll the row");
      }
      await page.browserContext().close();
    });

    it("nothing overflows sideways at 360 px on the learner's pages", async () => {
      const page = await learnerPage(javascript, 360);
      for (const p of [
        "/",
        "/categories",
        "/categories/2",
        "/carousels",
        "/carousels/1",
        "/search?q=hjerte",
        "/search?q=zzzz",
        "/history",
        "/profile",
        "/profile/bookmarks",
        "/profile/certificates",
        "/leaderboard",
      ]) {
        await page.goto(url(p), { waitUntil: "load" });
        expect(await overflow(page), p).toBeLessThanOrEqual(0);
      }
      await page.browserContext().close();
    });
  });
}

describe("cards whose markup the server kept (docs/decisions/030-kept-markup.md)", () => {
  it("hydrate without a mismatch, and a card opens its course in the page", async () => {
    const page = await learnerPage(true);
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      // React reports a hydration mismatch here (the browser's own favicon request is not the page's).
      if (message.type() === "error" && !message.location().url?.endsWith("/favicon.ico")) consoleErrors.push(message.text());
    });
    // A card is kept the second time it is shown: the third visit gets every card from the kept markup.
    for (let visit = 1; visit <= 3; visit++) {
      await page.goto(url("/"), { waitUntil: "load" });
      await settled(page);
    }
    expect(consoleErrors).toEqual([]);
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    // The same page: the link is React's (hydrated), so the course opens without loading a new document.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const link = '[data-testid="all-courses"] .card .card-link';
    const title = await page.$eval(link, (a) => a.textContent);
    const href = await page.$eval(link, (a) => a.getAttribute("href"));
    await page.click(link);
    await until(async () => new URL(page.url()).pathname === href, "the course page's address");
    await settled(page);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(await page.$eval("h1", (h) => h.textContent)).toBe(title);
    expect(consoleErrors).toEqual([]);
    await page.browserContext().close();
  });
});
