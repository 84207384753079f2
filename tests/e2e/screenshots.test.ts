import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, readyForScreenshot, savePng } from "../helpers/browser";
import { learnerPage, prepareTour, type Tour } from "../helpers/learner-tour";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ROOT } from "../helpers/server";
import { execTenant } from "../helpers/sessions";
import { composeDigest, composeReminder } from "../../app/models/reminder-mail.server";
import { getFixedT } from "../../app/utils/i18n.server";

/**
 * Screenshots of the learner's pages (issue 18) — home, course, player, categories, a category, search
 * and profile — in both demo organizations, Acme (organization 1, light theme) and Nordlys (dark), at 1280
 * and 390 px, kept as test artifacts in tests/artifacts/screenshots/ (git-ignored) for people to look at.
 * The only screenshot pass of the e2e suite. The test checks each page rendered its main content in the
 * organization's theme, nothing overflows sideways, and no script failed.
 */
const OUT = path.join(ROOT, "tests", "artifacts", "screenshots");
const ORGS = [
  { id: 1, host: "acme.localhost", email: "learner@acme.test", theme: "light" },
  { id: 2, host: "nordlys.localhost", email: "learner@nordlys.test", theme: "dark" },
] as const;
const WIDTHS = [1280, 390];
const PAGES = ["home", "course", "player", "categories", "category", "search", "profile"] as const;

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const tours = new Map<number, Tour>();
const started = Date.now();

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
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

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function shoot(page: Page, name: string, { fullPage = true } = {}) {
  await readyForScreenshot(page);
  await savePng(page, path.join(OUT, `${name}.png`), { fullPage });
}

// The four runs (two organizations, two widths) side by side, each in a browser context of its own.
describe.concurrent.each(ORGS)("screenshots of $host ($theme)", (org) => {
  it.each(WIDTHS)("at %i px", async (width) => {
    const tour = tours.get(org.id)!;
    const at = (p: string) => `http://${org.host}:${server.port}${p}`;
    const viewport = { width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 };
    const page = await learnerPage(browser, server, tour, org.email);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.setViewport(viewport);
    for (const name of PAGES) {
      await page.goto(at(tour.pages[name]), { waitUntil: "load" });
      expect(await page.$("main, .page")).not.toBeNull();
      expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe(org.theme);
      expect(await overflow(page), `${name} at ${width}`).toBeLessThanOrEqual(0);
      await shoot(page, `${name}-${org.theme}-${width}`);
      if (name === "player") {
        // The player's instructions, opened with "?".
        await page.waitForSelector('[data-testid="video-controls"]');
        await page.keyboard.type("?");
        await page.waitForSelector('[data-testid="instructions"]');
        await shoot(page, `player-instructions-${org.theme}-${width}`, { fullPage: false });
      }
    }
    if (tour.otherCourseId) {
      await page.goto(at(`/courses/${tour.otherCourseId}`), { waitUntil: "load" });
      expect(await page.$("main, .page")).not.toBeNull();
      await shoot(page, `course-other-${org.theme}-${width}`);
    }
    expect(errors).toEqual([]);
    await page.browserContext().close();
    // A visitor sees the access message in the course's hero.
    const visitor = await browser.createBrowserContext();
    const anonymous = await visitor.newPage();
    await anonymous.setViewport(viewport);
    await anonymous.goto(at(tour.pages.course), { waitUntil: "load" });
    expect(await anonymous.$eval('[data-testid="access-message"]', (el) => el.getAttribute("data-reason"))).toBe("login");
    await shoot(anonymous, `course-visitor-${org.theme}-${width}`, { fullPage: false });
    await visitor.close();
  });
});

describe("the screenshot artifacts", () => {
  it("hold a fresh picture of every page in both themes at both widths", () => {
    const expected = ORGS.flatMap((org) =>
      WIDTHS.flatMap((width) => [...PAGES, "player-instructions", "course-visitor"].map((name) => `${name}-${org.theme}-${width}.png`)),
    );
    const stale = expected.filter((file) => !fs.existsSync(path.join(OUT, file)) || fs.statSync(path.join(OUT, file)).mtimeMs < started);
    expect(stale).toEqual([]);
  });
});

// Reminders by e-mail (issue 34): a reminder and a digest as mail clients show their HTML part, composed by
// app/models/reminder-mail.server.ts from plain data (no server needed), at both widths.
describe("the reminder e-mails", () => {
  it.each(WIDTHS)("at %i px", async (width) => {
    const t = await getFixedT("en");
    const origin = "http://acme.localhost:3000";
    const unsubscribeUrl = `${origin}/reminders/unsubscribe?token=2.example`;
    const reminder = composeReminder(t, {
      language: "en",
      organization: "Acme Academy",
      name: "Leo Learner",
      items: [
        {
          kind: "before",
          subject: "course",
          title: "Workplace Safety Essentials",
          url: `${origin}/courses/2`,
          dueOn: "2026-12-01",
          state: "in_progress",
          daysLeft: 3,
        },
        {
          kind: "overdue",
          subject: "course",
          title: "Data Protection Basics",
          url: `${origin}/courses/3`,
          dueOn: "2026-11-18",
          state: "overdue",
          daysLeft: -8,
        },
        {
          kind: "assigned",
          subject: "path",
          title: "Safe and secure at work",
          url: `${origin}/paths/2`,
          dueOn: "2026-12-12",
          state: "not_started",
          daysLeft: 14,
        },
      ],
      unsubscribeUrl,
      settingsUrl: `${origin}/profile/settings`,
    });
    const digest = composeDigest(t, {
      language: "en",
      organization: "Acme Academy",
      name: "Ada Admin",
      scope: "organization",
      people: 2,
      sections: [
        {
          title: "Data Protection Basics",
          url: `${origin}/courses/3`,
          lines: [
            { name: "Leo Learner", email: "learner@acme.test", courseTitle: "Data Protection Basics", dueOn: "2026-11-18", daysOverdue: 8 },
            { name: "Maja Berg", email: "maja.berg@acme.test", courseTitle: "Data Protection Basics", dueOn: "2026-11-20", daysOverdue: 6 },
          ],
        },
      ],
      dashboardUrl: `${origin}/dashboard`,
      unsubscribeUrl,
    });
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 });
    for (const [name, mail] of [
      ["reminder-mail", reminder],
      ["digest-mail", digest],
    ] as const) {
      await page.setContent(mail.html, { waitUntil: "load" });
      expect(await overflow(page), `${name} at ${width}`).toBeLessThanOrEqual(0);
      await savePng(page, path.join(OUT, `${name}-${width}.png`));
    }
    await context.close();
  });
});
