import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { clickUntil, connectBrowser, newPage, pathOf } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { insertSession } from "../helpers/sessions";

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const ORG = "nordlys.localhost";

const rules = { limited: 0, second: 0, ordered: 0, orderedSecondLesson: 0 };

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  const admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  const make = async (body: Record<string, unknown>) =>
    (await api(server, ORG, "POST", "courses", { token: admin, body: { type: "series", published: true, ...body } })).json().payload
      .id as number;
  const lesson = async (courseId: number, title: string) =>
    (await api(server, ORG, "POST", "lessons", { token: admin, body: { course_id: courseId, title, kind: "text" } })).json().payload
      .id as number;
  rules.limited = await make({ title: "Kun for holdet", block_default_access: true });
  const first = await make({ title: "Grundkursus" });
  await lesson(first, "Grundlektion");
  rules.second = await make({ title: "Overbygning", prerequisite_course_id: first });
  rules.ordered = await make({ title: "Trin for trin", sequential_lessons: true });
  await lesson(rules.ordered, "Trin et");
  rules.orderedSecondLesson = await lesson(rules.ordered, "Trin to");
  for (const title of ["Stjernebilleder", "Polarlys"]) {
    const course = (
      await api(server, ORG, "POST", "courses", {
        token: admin,
        body: { title, type: "series", published: true, description: `<p>Om ${title.toLowerCase()}.</p>` },
      })
    ).json().payload;
    for (const lesson of ["Intro", "Dybere"]) {
      await api(server, ORG, "POST", "lessons", {
        token: admin,
        body: { course_id: course.id, title: `${title}: ${lesson}`, kind: "text", body: `<p>${lesson} om ${title}</p>` },
      });
    }
  }
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;

for (const javascript of [true, false]) {
  const course = javascript ? "Stjernebilleder" : "Polarlys";
  describe(`a learner with JavaScript ${javascript ? "on" : "off"}`, () => {
    it("opens a course and a lesson, completes it, bookmarks and rates the course, and finds it in history and search", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url(`/courses/1`), { waitUntil: "load" });
      expect(await page.$eval('[data-testid="access-message"]', (el) => el.getAttribute("data-reason"))).toBe("login");

      await page.goto(url("/auth/login"), { waitUntil: "load" });
      await page.type("input[name=email]", "learner@nordlys.test");
      await page.type("input[name=password]", "demo1234");
      // A learner who has not started anything is greeted on /welcome first (the second run has started).
      await clickUntil(
        page,
        '[data-testid="login-submit"]',
        async () => pathOf(page) === (javascript ? "/welcome" : "/") && (await page.$('[data-testid="user-name"]')) !== null,
      );
      await page.goto(url("/"), { waitUntil: "load" });

      await clickUntil(
        page,
        `xpath/.//a[normalize-space()="${course}"]`,
        async () => pathOf(page).startsWith("/courses/") && (await page.$eval("h1", (el) => el.textContent)) === course,
      );
      const courseUrl = pathOf(page);
      expect(await page.$eval("h1", (el) => el.textContent)).toBe(course);
      await clickUntil(
        page,
        '[data-testid="start"]',
        async () => pathOf(page).includes("/lessons/") && (await page.$eval("h1", (el) => el.textContent)) === `${course}: Intro`,
      );
      expect(await page.$eval("h1", (el) => el.textContent)).toBe(`${course}: Intro`);
      await clickUntil(
        page,
        '[data-testid="complete"]',
        async () => (await page.$eval("h1", (el) => el.textContent)) === `${course}: Dybere`,
      );

      await page.goto(url(courseUrl), { waitUntil: "load" });
      expect(await page.$eval('[data-lesson$="Intro"]', (el) => el.className)).toBe("completed");
      await clickUntil(
        page,
        '[data-testid="bookmark"]',
        async () => (await page.$eval('[data-testid="bookmark"]', (el) => el.getAttribute("aria-pressed"))) === "true",
      );
      await clickUntil(
        page,
        '[data-testid="rate-4"]',
        async () => (await page.$eval('[data-testid="rate-4"]', (el) => el.getAttribute("aria-pressed"))) === "true",
      );
      expect(await page.$eval('[data-testid="rating"]', (el) => el.textContent)).toContain("4");

      await page.goto(url("/profile/bookmarks"), { waitUntil: "load" });
      expect(await page.$$eval('[data-testid="bookmarks"] .course-title', (els) => els.map((e) => e.textContent))).toContain(course);
      await page.goto(url("/history"), { waitUntil: "load" });
      expect(await page.$$eval('[data-testid="history"] .course-title', (els) => els.map((e) => e.textContent))).toContain(course);
      await page.goto(url("/search"), { waitUntil: "load" });
      await page.type('[data-testid="search-input"]', course.slice(0, 6));
      await clickUntil(page, '[data-testid="search-submit"]', async () => (await page.$('[data-testid="search-results"]')) !== null);
      const hits = await page.$$eval('[data-testid="search-results"] a', (els) => els.map((e) => e.textContent));
      expect(hits[0]).toBe(course);
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    });

    it("sees each access message where its rule applies", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url("/auth/login"), { waitUntil: "load" });
      await page.type("input[name=email]", "learner@nordlys.test");
      await page.type("input[name=password]", "demo1234");
      await clickUntil(
        page,
        '[data-testid="login-submit"]',
        async () => !pathOf(page).startsWith("/auth") && (await page.$('[data-testid="user-name"]')) !== null,
      );
      const reason = async (p: string) => {
        await page.goto(url(p), { waitUntil: "load" });
        return page.$eval('[data-testid="access-message"]', (el) => [el.getAttribute("data-reason"), el.textContent]);
      };
      expect(await reason(`/courses/${rules.limited}`)).toEqual(["limited", "Begrænset adgang til kurset (kontakt din rådgiver)"]);
      expect((await reason(`/courses/${rules.second}`))[0]).toBe("prerequisite");
      expect((await reason(`/courses/${rules.ordered}/lessons/${rules.orderedSecondLesson}`))[0]).toBe("previous_lessons");
      await page.browserContext().close();
      const visitor = await newPage(browser, { javascript });
      await visitor.goto(url(`/courses/${rules.ordered}`), { waitUntil: "load" });
      expect(await visitor.$eval('[data-testid="access-message"]', (el) => el.getAttribute("data-reason"))).toBe("login");
      await visitor.browserContext().close();
    });
  });
}
