import fs from "node:fs";
import path from "node:path";
import type { Browser } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser";
import { learnerPage, prepareTour, type Tour } from "../helpers/learner-tour";
import { ROOT, startServer, type RunningServer } from "../helpers/server";
import { execTenant } from "../helpers/sessions";

/**
 * Screenshots of the learner's pages in both demo organizations — Acme (organization 1, light theme) and
 * Nordlys (dark) — at 1280 and 390 px, kept as test artifacts in tests/artifacts/screenshots/ (git-ignored)
 * for people to look at. The test checks each page rendered its main content and that no script failed.
 */
const OUT = path.join(ROOT, "tests", "artifacts", "screenshots");
const ORGS = [
  { id: 1, host: "acme.localhost", email: "learner@acme.test", theme: "light" },
  { id: 2, host: "nordlys.localhost", email: "learner@nordlys.test", theme: "dark" },
] as const;
const WIDTHS = [1280, 390];

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const tours = new Map<number, Tour>();

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  fs.mkdirSync(OUT, { recursive: true });
  for (const org of ORGS) {
    tours.set(org.id, prepareTour(server, org.id, org.host, org.email));
    // The first-visit instructions are photographed on their own below.
    execTenant(server, org.id, "update users set player_instructions_shown_at = unixepoch() where email = ?", org.email);
  }
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe.each(ORGS)("screenshots of $host ($theme)", (org) => {
  it.each(WIDTHS)("at %i px", async (width) => {
    const tour = tours.get(org.id)!;
    const page = await learnerPage(browser, server, tour, org.email);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.setViewport({ width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 });
    for (const [name, p] of Object.entries(tour.pages)) {
      if (name === "search") continue;
      await page.goto(`http://${org.host}:${server.port}${p}`, { waitUntil: "networkidle0" });
      expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe(org.theme);
      expect(await page.$("main, .page")).not.toBeNull();
      await page.screenshot({ path: path.join(OUT, `${name}-${org.theme}-${width}.png`), fullPage: true });
    }
    if (tour.otherCourseId) {
      await page.goto(`http://${org.host}:${server.port}/courses/${tour.otherCourseId}`, { waitUntil: "networkidle0" });
      await page.screenshot({ path: path.join(OUT, `course-other-${org.theme}-${width}.png`), fullPage: true });
    }
    // The player's instructions, opened with "?".
    await page.goto(`http://${org.host}:${server.port}${tour.pages.player}`, { waitUntil: "networkidle0" });
    await page.waitForSelector('[data-testid="video-controls"]');
    await page.keyboard.type("?");
    await page.waitForSelector('[data-testid="instructions"]');
    await page.screenshot({ path: path.join(OUT, `player-instructions-${org.theme}-${width}.png`) });
    expect(errors).toEqual([]);
    await page.browserContext().close();
    // A visitor sees the access message in the course's hero.
    const visitor = await browser.createBrowserContext();
    const anonymous = await visitor.newPage();
    await anonymous.setViewport({ width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 });
    await anonymous.goto(`http://${org.host}:${server.port}${tour.pages.course}`, { waitUntil: "networkidle0" });
    expect(await anonymous.$eval('[data-testid="access-message"]', (el) => el.getAttribute("data-reason"))).toBe("login");
    await anonymous.screenshot({ path: path.join(OUT, `course-visitor-${org.theme}-${width}.png`) });
    await visitor.close();
  });
});
