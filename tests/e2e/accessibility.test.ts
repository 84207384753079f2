import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../helpers/axe";
import { connectBrowser, settled } from "../helpers/browser";
import { learnerPage, prepareTour, type Tour } from "../helpers/learner-tour";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { execTenant } from "../helpers/sessions";

/**
 * axe-core on the learner's pages (issue 18): home, course, player, categories, search, profile and learning paths, signed
 * in, in both demo organizations (light and dark theme). No serious or critical violation may remain.
 */
const ORGS = [
  { id: 1, host: "acme.localhost", email: "learner@acme.test" },
  { id: 2, host: "nordlys.localhost", email: "learner@nordlys.test" },
] as const;
const PAGES = ["home", "course", "player", "categories", "search", "profile"] as const;

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const tours = new Map<number, Tour>();

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  for (const org of ORGS) {
    tours.set(org.id, prepareTour(server, org.id, org.host, org.email));
    execTenant(server, org.id, "update users set player_instructions_shown_at = unixepoch() where email = ?", org.email);
  }
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** The learner's pages keep to serious and critical violations (the management screens to none at all). */
async function axe(page: Page) {
  return (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
}

describe.each(ORGS)("axe-core on $host", (org) => {
  let page: Page;
  beforeAll(async () => {
    page = await learnerPage(browser, server, tours.get(org.id)!, org.email);
    await page.setViewport({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await page?.browserContext().close();
  });

  it.each(PAGES)("finds no serious or critical violation on %s", async (name) => {
    // Loaded and hydrated (settled) is enough for axe: no need to wait for the network to go quiet.
    await page.goto(`http://${org.host}:${server.port}${tours.get(org.id)!.pages[name]}`, { waitUntil: "load" });
    await settled(page);
    expect(describeViolations(await axe(page))).toEqual([]);
  });

  it("finds none on the learning paths and a path's timeline (issue 49)", async () => {
    for (const path of ["/paths", "/paths/1", "/paths/2"]) {
      await page.goto(`http://${org.host}:${server.port}${path}`, { waitUntil: "load" });
      await settled(page);
      expect(await page.$('[data-testid="path-timeline"], [data-testid="paths-mine"]'), path).not.toBeNull();
      expect(describeViolations(await axe(page)), path).toEqual([]);
    }
  });

  it("finds none in the player's instructions modal", async () => {
    await page.goto(`http://${org.host}:${server.port}${tours.get(org.id)!.pages.player}?instructions=1`, { waitUntil: "load" });
    await page.waitForSelector('[data-testid="instructions"]');
    await settled(page);
    expect(describeViolations(await axe(page))).toEqual([]);
  });
});
