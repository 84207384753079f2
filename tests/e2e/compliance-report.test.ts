import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, readyForScreenshot, savePng } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ROOT } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * The compliance report's screens (issue 34) in a browser, on the demo's assignments (scripts/demo/compliance.ts):
 * the report and the dashboard overview's chart at 1280 and 390 px, and the people behind a number at 1280 px,
 * for Acme's admin (light theme) and Nordlys's (dark, Danish). Each page shows its content, nothing overflows sideways,
 * no script fails; the pictures are kept in tests/artifacts/screenshots/ (git-ignored) for people to look at.
 * One browser, one page per organization, reused for every width and screen.
 */
const OUT = path.join(ROOT, "tests", "artifacts", "screenshots");
const ORGS = [
  { id: 1, host: "acme.localhost", email: "admin@acme.test", theme: "light" },
  { id: 2, host: "nordlys.localhost", email: "admin@nordlys.test", theme: "dark" },
] as const;
const WIDTHS = [1280, 390];

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  fs.mkdirSync(OUT, { recursive: true });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

async function adminPage(org: (typeof ORGS)[number]): Promise<Page> {
  const session = await cookieFor(insertSession(server, { organizationId: org.id }, { email: org.email, kind: "web" }));
  const theme = (await createCookie("theme", { path: "/" }).serialize(org.theme)).split(";")[0];
  const page = await (await browser.createBrowserContext()).newPage();
  for (const cookie of [session, theme]) {
    const at = cookie.indexOf("=");
    await page.setCookie({ name: cookie.slice(0, at), value: cookie.slice(at + 1), domain: org.host, path: "/" });
  }
  return page;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.each(ORGS)("the compliance screens of $host ($theme)", (org) => {
  it("show the report, its people and the overview's chart at 1280 and 390 px", async () => {
    const page = await adminPage(org);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    const at = (p: string) => `http://${org.host}:${server.port}${p}`;
    for (const width of WIDTHS) {
      await page.setViewport({ width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 });
      const shoot = async (name: string, selector: string) => {
        await readyForScreenshot(page);
        await savePng(page, path.join(OUT, `compliance-${name}-${org.theme}-${width}.png`));
        expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe(org.theme);
        expect(await overflow(page), `${name} at ${width}`).toBeLessThanOrEqual(0);
        expect(await page.$(selector), `${name}: ${selector}`).not.toBeNull();
      };

      await page.goto(at("/dashboard"), { waitUntil: "load" });
      const legend = await page.$$eval('[data-testid="compliance-overview"] .compliance-legend li', (list) => list.length);
      expect(legend).toBe(5);
      await shoot("overview", '[data-testid="compliance-overview"] svg');

      await page.goto(at("/dashboard/compliance"), { waitUntil: "load" });
      const courses = await page.$$eval('[data-testid="compliance-courses"] tbody tr', (rows) => rows.length);
      expect(courses).toBeGreaterThan(1);
      await shoot("report", '[data-testid="compliance-groups"]');

      // The overdue people of the first course, as its count links to them (one width is enough for the list).
      if (width !== WIDTHS[0]) continue;
      const href = await page.$eval('[data-testid="compliance-courses"] tbody td[data-column="overdue"] a', (a) => a.getAttribute("href"));
      await page.goto(at(href!), { waitUntil: "load" });
      const states = await page.$$eval('[data-testid="compliance-people"] [data-state]', (list) =>
        list.map((s) => s.getAttribute("data-state")),
      );
      expect(states.length).toBeGreaterThan(0);
      expect(new Set(states)).toEqual(new Set(["overdue"]));
      await shoot("people", '[data-testid="compliance-people"]');
    }
    expect(errors).toEqual([]);
    await page.browserContext().close();
  });
});
