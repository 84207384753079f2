import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickAndWait, connectBrowser, newPage, pathOf, savePng, signIn as signInAt, until } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

/**
 * Issue 15 in a real browser: the dashboard overview's KPIs and charts, and the analytics page's
 * grouping, comparison and per-course table, with JavaScript on and off. The demo seed gives a year of
 * history. Set ANALYTICS_SHOTS=<folder> to keep screenshots of both themes at 1280 and 390 px.
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const ORG = "nordlys.localhost";
const shots = process.env.ANALYTICS_SHOTS;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;
const signIn = (page: Page) => signInAt(page, url("").replace(/\/$/, ""), "admin@nordlys.test");

async function shoot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  const themeCookie = createCookie("theme", { path: "/" });
  for (const theme of ["dark", "light"]) {
    const value = (await themeCookie.serialize(theme)).split(";")[0].split("=")[1];
    await page.setCookie({ name: "theme", value, domain: ORG, path: "/" });
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 900 });
      await page.reload({ waitUntil: "load" });
      await savePng(page, path.join(shots, `${name}-${theme}-${width}.png`));
    }
  }
}

async function kpiTotals(page: Page) {
  return page.$$eval('[data-testid^="total-"]', (els) => els.map((el) => [el.getAttribute("data-testid"), el.textContent]));
}

for (const javascript of [false, true]) {
  describe(`with JavaScript ${javascript ? "on" : "off"}`, () => {
    it("shows the four KPIs with charts and changes on the dashboard overview, for a chosen period", async () => {
      const page = await newPage(browser, { javascript });
      await signIn(page);
      await page.goto(url("/dashboard"), { waitUntil: "load" });
      const cards = await page.$$eval('[data-testid^="kpi-"]', (els) => els.map((el) => el.getAttribute("data-testid")));
      expect(cards).toEqual(["kpi-new_users", "kpi-watch_time", "kpi-completions", "kpi-downloads"]);
      // Danish interface; every card has a chart with a title and a bar per day of the last 30 days.
      expect(await page.$eval('[data-testid="kpi-new_users"] h3', (el) => el.textContent)).toBe("Nye brugere");
      expect(await page.$$eval('[data-testid="kpi-watch_time"] svg .chart-bar', (els) => els.length)).toBe(30);
      expect(await page.$eval('[data-testid="kpi-watch_time"] svg title', (el) => el.textContent)).toMatch(/^Visningstid/);
      expect(await page.$eval('[data-testid="change-new_users"]', (el) => el.textContent)).toMatch(/ift\. forrige periode/);
      const monthTotals = await kpiTotals(page);
      expect(monthTotals.some(([, v]) => Number(v!.replace(/\D/g, "")) > 0)).toBe(true);

      await page.select("#analytics-period", "12m");
      await clickAndWait(page, ".period-form button[type=submit]");
      await until(async () => (await page.$$('[data-testid="kpi-completions"] svg .chart-bar')).length < 30, "the year's bars");
      expect(new URL(page.url()).searchParams.get("period")).toBe("12m");
      // A year is drawn by month: twelve or thirteen bars (the first month is clipped).
      const bars = await page.$$eval('[data-testid="kpi-completions"] svg .chart-bar', (els) => els.length);
      expect(bars).toBeGreaterThanOrEqual(12);
      const yearTotals = await kpiTotals(page);
      for (let i = 0; i < 4; i++)
        expect(Number(yearTotals[i][1]!.replace(/\D/g, ""))).toBeGreaterThanOrEqual(Number(monthTotals[i][1]!.replace(/\D/g, "")));
      expect(await page.$eval('[data-testid="period-summary"]', (el) => el.textContent)).toContain("Europe/Copenhagen");
      if (javascript) await shoot(page, "overview");
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    });

    it("groups by week, compares with the previous period and breaks down per course on /dashboard/analytics", async () => {
      const page = await newPage(browser, { javascript });
      await signIn(page);
      await page.goto(url("/dashboard"), { waitUntil: "load" });
      await clickAndWait(page, 'a[href^="/dashboard/analytics"]');
      expect(pathOf(page)).toBe("/dashboard/analytics");
      await page.waitForSelector(".kpi-grid.wide");
      await page.select("#analytics-period", "90d");
      await page.select("#analytics-group", "week");
      await page.click("input[name=compare]");
      await clickAndWait(page, ".period-form button[type=submit]");
      // With JavaScript the address changes before React has drawn the new data.
      await until(
        async () => (await page.$$('[data-testid="kpi-watch_time"] .chart-previous')).length === 1,
        "the previous period's series",
      );
      const params = new URL(page.url()).searchParams;
      expect([params.get("period"), params.get("group"), params.get("compare")]).toEqual(["90d", "week", "true"]);
      // 90 days in ISO weeks: 13 or 14 buckets, the previous period as a dashed second series.
      const bars = await page.$$eval('[data-testid="kpi-watch_time"] svg .chart-bar', (els) => els.length);
      expect(bars).toBeGreaterThanOrEqual(13);
      expect(bars).toBeLessThanOrEqual(14);
      expect(await page.$('[data-testid="kpi-watch_time"] svg .chart-previous')).not.toBeNull();
      expect(await page.$eval('[data-testid="kpi-watch_time"] .chart-legend', (el) => el.textContent)).toContain("Forrige periode");
      // The data table behind the disclosure names ISO weeks.
      expect(await page.$eval('[data-testid="kpi-watch_time"] details tbody tr td', (el) => el.textContent)).toMatch(/^Uge \d+, \d{4}/);
      const courses = await page.$$eval('[data-testid="courses-table"] tbody tr', (rows) => rows.length);
      expect(courses).toBeGreaterThan(0);
      expect(await page.$eval('a[href*="table=courses"]', (el) => el.getAttribute("href"))).toContain("group=week");

      if (javascript) {
        await page.hover('[data-testid="kpi-watch_time"] svg .chart-hit');
        await page.waitForSelector('[data-testid="kpi-watch_time"] .chart-tooltip');
        expect(await page.$eval('[data-testid="kpi-watch_time"] .chart-tooltip', (el) => el.textContent)).toContain("Denne periode");
        await shoot(page, "analytics");
      }

      // A bad custom range shows a translated error and the default period, not a broken page.
      await page.goto(url("/dashboard/analytics?period=custom&from=2026-03-10&to=2026-03-01"), { waitUntil: "load" });
      expect(await page.$eval(".field-errors", (el) => el.textContent)).toContain(
        "Slutdatoen skal være samme dag som eller efter startdatoen.",
      );
      expect(await page.$$eval('[data-testid^="kpi-"]', (els) => els.length)).toBe(4);
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    });
  });
}
