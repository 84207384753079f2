import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantDb } from "../helpers/auth";
import { axeViolations, COLOUR_RULES, describeViolations } from "../helpers/axe";
import { connectBrowser, newPage, settled } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * The demo's cmi5 course and xAPI package played in Chromium (issue 48): a learner opens each AU from the
 * lesson's contents, the AU fetches its token, reads its launch data and reports to the organization's LRS
 * from the content origin, and sends the learner back; every AU done completes the lesson, both lessons the
 * course, and the course's certificate is issued. A session left without terminating is abandoned by the
 * next launch. Without JavaScript the page says what the parts need and still hands out the launch.
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const ORG = "acme.localhost";
const ids = { course: 0, cmi5: 0, xapi: 0, learner: 0 };

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = tenantDb(server, 1);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  const [cmi5, xapi] = query<{ id: number; course_id: number }>(
    "select l.id, l.course_id from lessons l join content_packages p on p.lesson_id = l.id order by l.position",
  );
  ids.cmi5 = cmi5.id;
  ids.xapi = xapi.id;
  ids.course = cmi5.course_id;
  ids.learner = query<{ id: number }>("select id from users where email = 'learner@acme.test'")[0].id;
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p: string) => `http://${ORG}:${server.port}${p}`;
const lessonPath = (lesson: number) => `/courses/${ids.course}/lessons/${lesson}`;

async function learnerPage(javascript: boolean, email = "learner@acme.test"): Promise<Page> {
  const page = await newPage(browser, { javascript });
  const cookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email, kind: "web" }));
  const at = cookie.indexOf("=");
  await page.setCookie({ name: cookie.slice(0, at), value: cookie.slice(at + 1), domain: ORG, path: "/" });
  return page;
}

/** Launches the AU at `index` of the contents and waits for its page to have started (its token fetched, initialized sent). */
async function launch(page: Page, index: number) {
  await settled(page);
  const buttons = await page.$$('[data-testid="package-launch"]');
  // The action answers the launch's address and the page opens it: the AU's page is ready once it has started.
  await buttons[index]!.click();
  await page.waitForSelector("body.ready", { timeout: 20_000 });
  expect(new URL(page.url()).host).toBe(`1.scorm.localhost:${server.port}`);
}

/** Answers the AU's quiz rightly, or finishes a page without one, then goes back to the lesson as the AU sends it. */
async function finishAndReturn(page: Page) {
  if (await page.$("#quiz")) {
    for (const fieldset of await page.$$("fieldset")) {
      const answer = await fieldset.evaluate((f) => f.getAttribute("data-answer"));
      await (await fieldset.$(`input[value="${answer}"]`))!.click();
    }
    await page.click('#quiz button[type="submit"]');
  } else await page.click("#finish");
  await page.waitForSelector("#done:not([hidden])", { timeout: 20_000 });
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("#done button")]);
  await page.waitForSelector('[data-testid="package-player"]');
}

const states = (page: Page) => page.$$eval('[data-testid="package-au-state"]', (els) => els.map((e) => e.getAttribute("data-state")));

describe("a learner with JavaScript on", () => {
  it("plays the cmi5 course AU by AU and the xAPI package to the end; the course is completed and its certificate issued", async () => {
    const page = await learnerPage(true);
    await page.goto(url(lessonPath(ids.cmi5)), { waitUntil: "load" });
    expect(await states(page)).toEqual(["not_attempted", "not_attempted", "not_attempted"]);
    for (const index of [0, 1, 2]) {
      await launch(page, index);
      await finishAndReturn(page);
    }
    expect(await states(page)).toEqual(["completed", "passed", "passed"]);
    await page.waitForSelector('[data-testid="lesson-completed"]');

    await page.goto(url(lessonPath(ids.xapi)), { waitUntil: "load" });
    await launch(page, 0);
    await finishAndReturn(page);
    await page.waitForSelector('[data-testid="lesson-completed"]');
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);

    const satisfied = query<{ n: number }>(
      "select count(*) as n from xapi_statements where verb_id = 'https://w3id.org/xapi/adl/verbs/satisfied' and registration = (select registration from package_registrations where lesson_id = ? and user_id = ?)",
      ids.cmi5,
      ids.learner,
    )[0].n;
    expect(satisfied).toBe(3); // two blocks and the course
    expect(query("select user_id from course_completions where user_id = ? and course_id = ?", ids.learner, ids.course)).toHaveLength(1);
    expect(query("select id from certificates where user_id = ? and course_id = ?", ids.learner, ids.course)).toHaveLength(1);
    await page.browserContext().close();
  });

  it("abandons a session whose tab was closed before it finished when the next launch comes", async () => {
    const first = await learnerPage(true);
    await first.goto(url(lessonPath(ids.cmi5)), { waitUntil: "load" });
    await launch(first, 0);
    const session = new URL(first.url()).searchParams.get("registration");
    // The tab is closed without the AU terminating; the learner comes back in another.
    const page = await first.browserContext().newPage();
    await first.close();
    await page.goto(url(lessonPath(ids.cmi5)), { waitUntil: "load" });
    await launch(page, 0);
    const abandoned = query<{ n: number }>(
      "select count(*) as n from xapi_statements where verb_id = 'https://w3id.org/xapi/adl/verbs/abandoned' and registration = ?",
      session,
    )[0].n;
    expect(abandoned).toBe(1);
    await page.browserContext().close();
  });
});

describe("a learner with JavaScript off", () => {
  it("is told the parts need JavaScript, and still gets the launch as a link", async () => {
    const page = await learnerPage(false);
    await page.goto(url(lessonPath(ids.cmi5)), { waitUntil: "load" });
    expect(await page.$eval('[data-testid="package-needs-js"]', (e) => e.textContent)).toContain("JavaScript");
    const buttons = await page.$$('[data-testid="package-launch"]');
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), buttons[0]!.click()]);
    const href = await page.$eval('[data-testid="package-open"]', (a) => (a as HTMLAnchorElement).href);
    expect(new URL(href).host).toBe(`1.scorm.localhost:${server.port}`);
    expect(new URL(href).searchParams.get("fetch")).toContain("/xapi/fetch/");
    await page.browserContext().close();
  });
});

describe("accessibility", () => {
  it("finds no violation on the player's contents list, nor on the package page with its waivers, in either theme", async () => {
    const learner = await learnerPage(true);
    const admin = await learnerPage(true, "admin@acme.test");
    const pages: Array<[Page, string]> = [
      [learner, lessonPath(ids.cmi5)],
      [admin, `/dashboard/organizations/1/courses/${ids.course}/lessons/${ids.cmi5}/scorm`],
    ];
    for (const [page, path] of pages) {
      await page.goto(url(path), { waitUntil: "load" });
      await settled(page);
      expect(describeViolations(await axeViolations(page)), path).toEqual([]);
      await page.setCookie({ name: "theme", value: Buffer.from(JSON.stringify("dark")).toString("base64"), domain: ORG, path: "/" });
      await page.goto(url(path), { waitUntil: "load" });
      expect(describeViolations(await axeViolations(page, COLOUR_RULES)), `${path} (dark)`).toEqual([]);
      await page.browserContext().close();
    }
  });
});
