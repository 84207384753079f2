import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { clickAndWait, connectBrowser, newPage, pathOf } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Learning paths in Chromium, with JavaScript on and off (issue 49): an admin makes a path on the editor (its
 * fields, then a course step and a choice step) and assigns it to a learner by their e-mail; the learner finds it due
 * soon on their home, follows "Continue" lesson by lesson through its courses, and ends on the path's certificate.
 * Each run has its own courses, path and learner. (Enrolling by oneself is tests/integration/path-pages.test.ts's.)
 */
const ORG = "acme.localhost";
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let origin: string;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  origin = `http://${ORG}:${server.port}`;
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

async function signedIn(email: string, javascript: boolean): Promise<Page> {
  const page = await newPage(browser, { javascript });
  const cookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email, kind: "web" }));
  const at = cookie.indexOf("=");
  await page.setCookie({ name: cookie.slice(0, at), value: cookie.slice(at + 1), domain: ORG, path: "/" });
  await page.setViewport({ width: 1280, height: 900 });
  return page;
}

/** Three published courses of one text lesson each, made for this run. */
async function coursesFor(run: string) {
  const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  const ids: number[] = [];
  for (const name of ["Basics", "Elective A", "Elective B"]) {
    const id = (
      await api(server, ORG, "POST", "courses", { token, body: { title: `${run} ${name}`, type: "series", published: true } })
    ).json().payload.id;
    await api(server, ORG, "POST", "lessons", { token, body: { course_id: id, title: `${run} ${name} lesson`, kind: "text" } });
    ids.push(id);
  }
  return ids;
}

describe.each([
  { javascript: true, run: "JS", learner: "priya.garcia.1@acme.test" },
  { javascript: false, run: "NoJS", learner: "sofia.wright.2@acme.test" },
])("a learning path with JavaScript $javascript", ({ javascript, run, learner }) => {
  let pathUrl: string;

  it("is made by an admin on the editor (its fields, a course step and a choice of two) and assigned to a learner", async () => {
    const courses = await coursesFor(run);
    const page = await signedIn("admin@acme.test", javascript);
    await page.goto(`${origin}/dashboard/organizations/1/paths`, { waitUntil: "load" });
    await page.type("#new-path-title", `${run} path`);
    await clickAndWait(page, '[data-testid="create-path"]');
    const id = Number(/\/paths\/(\d+)$/.exec(pathOf(page))?.[1]);
    // The editor, once drawn (with JavaScript the router may still be drawing it after the address changed).
    await page.waitForSelector('input[name="published"]');
    expect(id).toBeGreaterThan(0);
    for (const name of ["published", "allow_certificates"]) await page.click(`input[name="${name}"]`);
    await clickAndWait(page, '[data-testid="save-path"]');
    expect(await page.$eval('input[name="published"]', (el) => (el as HTMLInputElement).checked)).toBe(true);
    // A course step, then a choice of any one of two (a list box: Ctrl picks a second option).
    await page.select("#new-step-courses", String(courses[0]));
    await clickAndWait(page, '[data-testid="add-step"]');
    await page.select("#new-step-kind", "choice");
    await page.type("#new-step-title", "Electives");
    await page.select("#new-step-courses", String(courses[1]), String(courses[2]));
    await clickAndWait(page, '[data-testid="add-step"]');
    const steps = await page.$$eval('[data-testid="path-admin-steps"] > li', (items) => items.map((li) => li.textContent ?? ""));
    expect(steps).toHaveLength(2);
    expect(steps[1]).toContain("Electives");
    expect(steps[1]).toContain(`${run} Elective B`);
    pathUrl = `/paths/${id}`;
    // Assigned to the learner by their e-mail, due seven days after.
    await page.type("#assign-person", learner);
    await page.click('input[name="due"][value="days"]');
    await page.type("#assign-days", "7");
    await clickAndWait(page, '[data-testid="assign-path"]');
    expect(await page.$eval('[data-testid="path-assignments"]', (el) => el.textContent)).toContain(learner);
    await page.browserContext().close();
  });

  it("is followed by the learner it is assigned to from their home, lesson by lesson, to its certificate", async () => {
    const page = await signedIn(learner, javascript);
    // The assigned path is due soon on their home, and they are on it already.
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await clickAndWait(page, `[data-testid="due-soon"] [data-path="${run} path"] a`);
    expect(pathOf(page)).toBe(pathUrl);
    expect(await page.$eval('[data-testid="path-due"]', (el) => el.textContent)).toContain("Assigned to you, due");
    expect(await page.$eval('[data-testid="path-progress"]', (el) => el.textContent)).toContain("0 % done");
    // Continue leads to the next lesson; marking it complete finishes its course, and the path moves on.
    for (const expected of [`${run} Basics lesson`, `${run} Elective A lesson`]) {
      await page.goto(`${origin}${pathUrl}`, { waitUntil: "load" });
      expect(await page.$eval('[data-testid="path-continue"]', (el) => el.textContent)).toContain(expected);
      await clickAndWait(page, '[data-testid="path-continue"]');
      await clickAndWait(page, '[data-testid="complete"]');
      // The course's last lesson: back on its page, which names the path and the step.
      expect(pathOf(page)).toMatch(/^\/courses\/\d+$/);
      expect(await page.$eval('[data-testid="course-path"]', (el) => el.textContent)).toContain(`${run} path`);
    }
    await page.goto(`${origin}${pathUrl}`, { waitUntil: "load" });
    const states = await page.$$eval('[data-testid="path-timeline"] > li', (items) => items.map((li) => li.getAttribute("data-state")));
    expect(states).toEqual(["done", "done"]);
    expect(await page.$eval('[data-testid="path-progress"]', (el) => el.textContent)).toContain("100 % done");
    await clickAndWait(page, '[data-testid="path-certificate"]');
    expect(pathOf(page)).toMatch(/^\/profile\/certificates\/\d+$/);
    expect(await page.$eval("main", (el) => el.textContent)).toContain(`${run} path`);
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await page.browserContext().close();
  });
});
