import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, settled } from "../helpers/browser";
import { learnerPage, prepareTour, type Tour } from "../helpers/learner-tour";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { execTenant } from "../helpers/sessions";

/** Issue 18: the course page's play button, the player's controls and shortcuts, and the same without JavaScript. */
const ORG = { id: 2, host: "nordlys.localhost", email: "learner@nordlys.test" };
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let tour: Tour;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  tour = prepareTour(server, ORG.id, ORG.host, ORG.email);
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p: string) => `http://${ORG.host}:${server.port}${p}`;
/**
 * Clicks one of the player's own controls once the page has settled: a seek or a key saves the place
 * through a fetcher, and the revalidation after it redraws the player.
 */
async function press(page: Page, selector: string) {
  await settled(page);
  await page.click(selector);
}
const currentTime = (page: Page) => page.$eval("video", (v) => (v as HTMLVideoElement).currentTime);
/** Polls a condition for up to 30 s (a busy machine decodes video slowly); fails with what it waited for. */
async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 600; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the player with JavaScript", () => {
  it("continues from the course page, resumes the place, and answers to its controls and shortcuts", async () => {
    execTenant(server, ORG.id, "update users set player_instructions_shown_at = null where email = ?", ORG.email);
    const page = await learnerPage(browser, server, tour, ORG.email);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url(tour.pages.course), { waitUntil: "load" });
    await settled(page);
    await page.click('[data-testid="start"]');
    await until(async () => new URL(page.url()).pathname === tour.pages.player, "the player");

    // The first visit shows the instructions; "Got it" records them and closes the modal.
    await page.waitForSelector('[data-testid="instructions"]');
    await page.click('[data-testid="instructions-ok"]');
    await until(async () => (await page.$('[data-testid="instructions"]')) === null, "the modal to close");

    await page.waitForSelector('[data-testid="video-controls"]');
    expect(await page.$eval("video", (v) => v.hasAttribute("controls"))).toBe(false);
    await until(async () => (await page.$eval("video", (v) => (v as HTMLVideoElement).readyState)) >= 1, "the video's metadata");
    await until(async () => (await currentTime(page)) > 0, "the resumed place");

    await page.$eval("video", (v) => ((v as HTMLVideoElement).currentTime = 0));
    await page.keyboard.press("l");
    await until(async () => (await currentTime(page)) > 5, "l to skip forward");
    await page.keyboard.press("j");
    await until(async () => (await currentTime(page)) === 0, "j to skip back");
    await press(page, '[data-testid="vc-forward"]');
    await until(async () => (await currentTime(page)) > 5, "the forward button");
    await press(page, '[data-testid="vc-back"]');
    await until(async () => (await currentTime(page)) === 0, "the back button");

    await page.keyboard.press("m");
    // The button follows the video's volumechange event, drawn a moment after the video is muted.
    await until(
      async () =>
        (await page.$eval("video", (v) => (v as HTMLVideoElement).muted)) &&
        (await page.$eval('[data-testid="vc-mute"]', (b) => b.getAttribute("aria-pressed"))) === "true",
      "m to mute",
    );
    expect(await page.$eval('[data-testid="vc-mute"]', (b) => b.getAttribute("aria-pressed"))).toBe("true");
    await press(page, '[data-testid="vc-mute"]');
    await until(async () => !(await page.$eval("video", (v) => (v as HTMLVideoElement).muted)), "the mute button");

    await page.$eval("video", (v) => ((v as HTMLVideoElement).muted = true));
    await page.keyboard.press("k");
    // As with mute: the button's label follows the video's play event.
    await until(
      async () =>
        !(await page.$eval("video", (v) => (v as HTMLVideoElement).paused)) &&
        (await page.$eval('[data-testid="vc-play"]', (b) => b.getAttribute("aria-label"))) === "Pause",
      "k to play",
    );
    expect(await page.$eval('[data-testid="vc-play"]', (b) => b.getAttribute("aria-label"))).toBe("Pause");
    await page.keyboard.press("k");
    await until(() => page.$eval("video", (v) => (v as HTMLVideoElement).paused), "k to pause");

    await page.keyboard.type("?");
    await page.waitForSelector('[data-testid="instructions"]');
    expect(await page.$eval("#instructions-title", (h) => h.textContent)).toBe("Sådan virker afspilleren");
    await page.keyboard.press("Escape");
    await until(async () => (await page.$('[data-testid="instructions"]')) === null, "Escape to close the modal");

    // Marking complete goes on to the next episode.
    const title = await page.$eval("h1", (h) => h.textContent);
    await page.click('[data-testid="complete"]');
    await until(async () => (await page.$eval("h1", (h) => h.textContent)) !== title, "the next episode");
    expect(errors).toEqual([]);
    await page.browserContext().close();
  });
});

describe("the player without JavaScript", () => {
  it("shows the native video, the episodes and the instructions link, and completes with the form", async () => {
    execTenant(server, ORG.id, "update users set player_instructions_shown_at = unixepoch() where email = ?", ORG.email);
    // The video is not completed (again), so it is the next episode.
    execTenant(
      server,
      ORG.id,
      "delete from lesson_progress where lesson_id = ? and user_id = (select id from users where email = ?)",
      tour.lessonId,
      ORG.email,
    );
    const page = await learnerPage(browser, server, tour, ORG.email, { javascript: false });
    await page.goto(url(`/courses/${tour.courseId}/lessons`), { waitUntil: "load" });
    expect(new URL(page.url()).pathname).toBe(tour.pages.player);
    await page.goto(url(tour.pages.player), { waitUntil: "load" });
    expect(await page.$eval("video", (v) => v.hasAttribute("controls"))).toBe(true);
    expect(await page.$('[data-testid="video-controls"]')).toBeNull();
    expect(await page.$$eval('[data-testid="episodes"] li', (els) => els.length)).toBeGreaterThan(1);
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click('[data-testid="open-instructions"]')]);
    expect(await page.$('[data-testid="instructions"]')).not.toBeNull();
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click('[data-testid="instructions-close"]')]);
    expect(await page.$('[data-testid="instructions"]')).toBeNull();
    const title = await page.$eval("h1", (h) => h.textContent);
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click('[data-testid="complete"]')]);
    expect(await page.$eval("h1", (h) => h.textContent)).not.toBe(title);
    await page.browserContext().close();
  });
});
