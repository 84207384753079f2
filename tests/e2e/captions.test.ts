import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../helpers/axe";
import { connectBrowser, readyForScreenshot, savePng, settled, until } from "../helpers/browser";
import { learnerPage, prepareTour, type Tour } from "../helpers/learner-tour";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ROOT } from "../helpers/server";
import { execTenant } from "../helpers/sessions";
import Database from "better-sqlite3";

/**
 * Issue 35 in Chromium (docs/decisions/036-captions.md): the demo's captions shown and switched (C, the
 * captions button, the transcript's language), a click on the transcript seeks, the speed by its menu and
 * < >, axe with the transcript open, and screenshots of the player with captions and the transcript in
 * both themes at 1280 and 390 px (tests/artifacts/screenshots/, git-ignored).
 */
const OUT = path.join(ROOT, "tests", "artifacts", "screenshots");
const ORGS = [
  { id: 2, host: "nordlys.localhost", email: "learner@nordlys.test", theme: "dark" },
  { id: 1, host: "acme.localhost", email: "learner@acme.test", theme: "light" },
] as const;

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const tours = new Map<number, Tour>();

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  fs.mkdirSync(OUT, { recursive: true });
  for (const org of ORGS) {
    tours.set(org.id, prepareTour(server, org.id, org.host, org.email));
    execTenant(server, org.id, "update users set player_instructions_shown_at = unixepoch() where email = ?", org.email);
  }
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** Which text track shows, by language (none: ""). */
const showing = (page: Page) =>
  page.$eval("video", (v) => [...(v as HTMLVideoElement).textTracks].find((t) => t.mode === "showing")?.language ?? "");
const currentTime = (page: Page) => page.$eval("video", (v) => (v as HTMLVideoElement).currentTime);
const preferences = (organizationId: number, email: string) => {
  const db = new Database(path.join(server.dataDir, `org-${organizationId}`, "db.sqlite"), { readonly: true });
  try {
    return db
      .prepare("select captions, playback_rate as rate from player_preferences where user_id = (select id from users where email = ?)")
      .get(email) as { captions: string | null; rate: number } | undefined;
  } finally {
    db.close();
  }
};

/** The player with its transcript open, its video paused at `seconds` (a cue on screen). */
async function openPlayer(page: Page, url: string, seconds = 7) {
  await page.goto(url, { waitUntil: "load" });
  await settled(page);
  await page.waitForSelector('[data-testid="video-controls"]');
  if (!(await page.$eval('[data-testid="transcript"] details', (d) => (d as HTMLDetailsElement).open))) {
    await page.click('[data-testid="transcript"] summary');
  }
  await until(() => page.$eval("video", (v) => (v as HTMLVideoElement).readyState >= 1), "the video's metadata");
  // Captions are drawn from the first play on (before it the track is loaded but hidden: a cue drawn without
  // the learner acting would count as a layout shift). Play, pause, then go to the moment.
  expect(await page.$eval("video", (v) => [...(v as HTMLVideoElement).textTracks].some((t) => t.mode === "showing"))).toBe(false);
  await page.$eval("video", (v) => ((v as HTMLVideoElement).muted = true));
  await page.click('[data-testid="vc-play"]');
  await until(() => page.$eval("video", (v) => !(v as HTMLVideoElement).paused), "the video playing");
  await page.click('[data-testid="vc-play"]');
  await until(() => page.$eval("video", (v) => (v as HTMLVideoElement).paused), "the video paused");
  // Put at the moment (the resumed place may land after a first seek), its frame drawn and its cue on screen.
  await until(
    () =>
      page.$eval(
        "video",
        (v, s) => {
          const video = v as HTMLVideoElement;
          if (Math.abs(video.currentTime - s) > 0.2) video.currentTime = s;
          const cue = [...video.textTracks].find((t) => t.mode === "showing")?.activeCues?.length;
          return !video.seeking && video.readyState >= 2 && Math.abs(video.currentTime - s) <= 0.2 && Boolean(cue);
        },
        seconds,
      ),
    "the video at its moment with a caption",
  );
  await until(() => page.$('.transcript-cues a[aria-current="true"]'), "the cue playing marked");
}

describe("captions, the transcript and the speed", () => {
  it("shows captions by the learner's language, switches them, seeks from the transcript, and changes speed", async () => {
    const org = ORGS[0];
    const tour = tours.get(org.id)!;
    const page = await learnerPage(browser, server, tour, org.email);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.setViewport({ width: 1280, height: 860 });
    await openPlayer(page, `http://${org.host}:${server.port}${tour.pages.player}`);

    // Danish by the learner's language, on screen (the browser's own cue for this moment).
    expect(await page.$eval('[data-testid="vc-captions"]', (b) => b.getAttribute("aria-pressed"))).toBe("true");
    expect(await showing(page)).toBe("da");
    await until(
      () =>
        page.$eval("video", (v) => [...((v as HTMLVideoElement).textTracks[0].activeCues ?? [])].map((c) => (c as VTTCue).text).join(" ")),
      "a Danish cue on screen",
    );

    // C turns them off and on again; the choice is kept on the server.
    await page.keyboard.press("c");
    await until(async () => (await showing(page)) === "", "captions off");
    expect(await page.$eval('[data-testid="vc-captions"]', (b) => b.getAttribute("aria-pressed"))).toBe("false");
    await until(async () => preferences(org.id, org.email)?.captions === "off", "the choice kept");
    await page.click('[data-testid="vc-captions"]');
    await until(async () => (await showing(page)) === "da", "captions on with the button");

    // The transcript's language switches the captions and the transcript.
    await page.select('[data-testid="transcript-language"]', "en");
    await until(async () => new URL(page.url()).searchParams.get("transcript") === "en", "the English transcript");
    await settled(page);
    await until(async () => (await showing(page)) === "en", "English captions");
    expect(await page.$eval(".transcript-cues", (ol) => ol.getAttribute("lang"))).toBe("en");
    await until(async () => preferences(org.id, org.email)?.captions === "en", "English kept");

    // A click on a cue seeks there (without loading the page) and marks it.
    const before = page.url();
    const third = await page.$$eval(".transcript-cues a", (links) => Number(links[2].getAttribute("data-start")));
    await page.click(".transcript-cues li:nth-child(3) a");
    await until(async () => Math.abs((await currentTime(page)) - third / 1000) < 0.3, "the video at the third cue");
    expect(page.url()).toBe(before);
    await until(
      () => page.$eval(".transcript-cues li:nth-child(3) a", (a) => a.getAttribute("aria-current") === "true"),
      "the third cue marked",
    );

    // Speed: the menu, then > and <, kept on the server.
    await page.select('[data-testid="vc-speed"]', "1.5");
    await until(async () => (await page.$eval("video", (v) => (v as HTMLVideoElement).playbackRate)) === 1.5, "1.5×");
    await page.keyboard.press(">");
    await until(async () => (await page.$eval("video", (v) => (v as HTMLVideoElement).playbackRate)) === 1.75, "> to 1.75×");
    await page.keyboard.press("<");
    await page.keyboard.press("<");
    await until(async () => (await page.$eval("video", (v) => (v as HTMLVideoElement).playbackRate)) === 1.25, "< twice to 1.25×");
    await until(async () => preferences(org.id, org.email)?.rate === 1.25, "the speed kept");
    expect(await page.$eval('[data-testid="vc-speed"]', (s) => (s as HTMLSelectElement).value)).toBe("1.25");

    // The instructions list the new keys.
    await page.keyboard.type("?");
    await page.waitForSelector('[data-testid="instructions"]');
    const keys = await page.$$eval('[data-testid="instructions"] kbd', (k) => k.map((e) => e.textContent));
    expect(keys).toEqual(expect.arrayContaining(["C", "<", ">"]));
    await page.keyboard.press("Escape");

    // axe with the transcript open: nothing serious or critical.
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(describeViolations(serious)).toEqual([]);
    expect(errors).toEqual([]);
    await page.browserContext().close();
  });

  it.each(ORGS)("is photographed with captions and the transcript ($theme)", async (org) => {
    const tour = tours.get(org.id)!;
    // The first test left Nordlys's learner on English at 1.25×: back to their language's captions.
    execTenant(server, org.id, "delete from player_preferences");
    const page = await learnerPage(browser, server, tour, org.email);
    const barFits = async (width: number) => {
      // The bar with captions and speed still fits the height kept for it before hydration (no layout shift).
      const [bar, kept] = await page.$eval(".video", (v) => [
        v.querySelector(".video-controls")!.getBoundingClientRect().height,
        parseFloat(getComputedStyle(v).getPropertyValue("--vc-height")) * parseFloat(getComputedStyle(document.documentElement).fontSize),
      ]);
      expect(bar, `the control bar at ${width} px`).toBeLessThanOrEqual(kept + 1);
    };
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 });
      await openPlayer(page, `http://${org.host}:${server.port}${tour.pages.player}`);
      expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe(org.theme);
      await barFits(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await readyForScreenshot(page);
      await savePng(page, path.join(OUT, `player-captions-${org.theme}-${width}.png`));
    }
    // The narrowest phones keep the bar's two rows too.
    await page.setViewport({ width: 360, height: 780, deviceScaleFactor: 1 });
    await barFits(360);
    await page.browserContext().close();
  });
});
