import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { clickUntil, connectBrowser, newPage, pathOf, savePng } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { insertSession } from "../helpers/sessions";

/**
 * Quizzes end to end in Chromium, JavaScript on and off: an admin authors a quiz of all four question
 * types and attaches it to a course; a learner fails it, retakes it, passes, and sees the course progress
 * move. Screenshots go to $QUIZ_SCREENSHOTS when set.
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let admin: string;
const ORG = "nordlys.localhost";
const SHOTS = process.env.QUIZ_SCREENSHOTS;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await savePng(page, path.join(SHOTS, `${name}.png`));
}

async function signIn(page: Page, email: string) {
  await page.goto(url("/auth/login"), { waitUntil: "load" });
  await page.type("input[name=email]", email);
  await page.type("input[name=password]", "demo1234");
  await clickUntil(
    page,
    '[data-testid="login-submit"]',
    async () => !pathOf(page).startsWith("/auth") && (await page.$('[data-testid="user-name"]')) !== null,
  );
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");
const count = (page: Page, selector: string) => page.$$eval(selector, (els) => els.length);

async function addQuestion(page: Page, fill: (form: string) => Promise<void>) {
  const form = '[data-testid="add-question"]';
  const before = await count(page, '[data-testid="questions"] article');
  await fill(form);
  await clickUntil(
    page,
    `${form} [data-testid="save-question"]`,
    async () => (await count(page, '[data-testid="questions"] article')) === before + 1,
  );
}

// The two runs side by side (each with its own course, quiz and browser contexts): the file takes as long as
// the longer, not the sum, so it is not the last of a run to finish.
for (const javascript of [true, false]) {
  const mode = javascript ? "js" : "nojs";
  describe.concurrent(`quizzes with JavaScript ${javascript ? "on" : "off"}`, () => {
    it("an admin authors and attaches a quiz; a learner fails, retakes, passes, and the course progresses", async () => {
      const courseTitle = `Kemi ${mode}`;
      const course = (
        await api(server, ORG, "POST", "courses", {
          token: admin,
          body: { title: courseTitle, type: "series", published: true, allow_quizzes: true },
        })
      ).json().payload;
      await api(server, ORG, "POST", "lessons", {
        token: admin,
        body: { course_id: course.id, title: "Læs først", kind: "text", body: "<p>Vand er H2O.</p>" },
      });

      // --- the admin ---
      const page = await newPage(browser, { javascript });
      await page.setViewport({ width: 1280, height: 900 });
      await signIn(page, "admin@nordlys.test");
      await page.goto(url("/dashboard/organizations/2/quizzes"), { waitUntil: "load" });
      await clickUntil(
        page,
        '[data-testid="new-quiz"]',
        async () => pathOf(page).endsWith("/quizzes/create") && (await page.$("input[name=title]")) !== null,
      );
      await page.type("input[name=title]", `Kemiquiz ${mode}`);
      await page.type("textarea[name=description]", "Fire spørgsmål om grundstoffer.");
      await clickUntil(
        page,
        '[data-testid="save-quiz"]',
        async () => /\/quizzes\/\d+$/.test(pathOf(page)) && (await page.$('[data-testid="add-question"]')) !== null,
      );
      const quizPath = pathOf(page);

      await addQuestion(page, async (f) => {
        await page.select(`${f} select[name=type]`, "single");
        await page.type(`${f} textarea[name=prompt]`, "Capital of Norway?");
        await page.type(`${f} input[name=option_text_0]`, "Oslo");
        await page.click(`${f} input[name=option_correct_0]`);
        await page.type(`${f} input[name=option_text_1]`, "Bergen");
        await page.type(`${f} textarea[name=explanation]`, "Oslo has been the capital since 1814.");
      });
      await addQuestion(page, async (f) => {
        await page.select(`${f} select[name=type]`, "multiple");
        await page.type(`${f} textarea[name=prompt]`, "Which are prime numbers?");
        for (const [i, v] of ["2", "3", "4"].entries()) await page.type(`${f} input[name=option_text_${i}]`, v);
        await page.click(`${f} input[name=option_correct_0]`);
        await page.click(`${f} input[name=option_correct_1]`);
      });
      await addQuestion(page, async (f) => {
        await page.select(`${f} select[name=type]`, "true_false");
        await page.type(`${f} textarea[name=prompt]`, "The sun is a star.");
        await page.click(`${f} input[name=correct_answer][value=true]`);
      });
      await addQuestion(page, async (f) => {
        await page.select(`${f} select[name=type]`, "text");
        await page.type(`${f} textarea[name=prompt]`, "Chemical formula of water?");
        await page.type(`${f} textarea[name=accepted]`, "H2O");
      });
      // A pass requirement above the number of questions is refused with a message.
      await page.$eval("input[name=pass_min]", (el) => ((el as HTMLInputElement).value = ""));
      await page.$eval("input[name=pass_min]", (el) => el.removeAttribute("max"));
      await page.type("input[name=pass_min]", "5");
      await clickUntil(page, '[data-testid="save-quiz"]', async () => (await page.$(".field-errors")) !== null);
      expect(await text(page, ".field-errors")).toContain("Beståelseskravet");
      await page.$eval("input[name=pass_min]", (el) => ((el as HTMLInputElement).value = ""));
      await page.type("input[name=pass_min]", "3");
      await clickUntil(page, '[data-testid="save-quiz"]', async () => (await page.$(".flash")) !== null);
      await page.select('[data-testid="attach-course"]', String(course.id));
      await clickUntil(page, '[data-testid="attach"]', async () =>
        (await page.$$eval('[data-testid="quiz-usage"] li', (els) => els.map((e) => e.textContent ?? ""))).some((t) =>
          t.includes(courseTitle),
        ),
      );
      await shot(page, `admin-quiz-${mode}`);
      expect(await count(page, '[data-testid="questions"] article')).toBe(4);
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();

      const lessons = (await api(server, ORG, "GET", `lessons?course_id=${course.id}`, { token: admin })).json().payload.data;
      const quizLesson = lessons.find((l: { kind: string }) => l.kind === "quiz");

      // --- the learner ---
      const learner = await newPage(browser, { javascript });
      await learner.setViewport({ width: 390, height: 844 });
      await signIn(learner, "learner@nordlys.test");
      await learner.goto(url(`/courses/${course.id}/lessons/${lessons[0].id}`), { waitUntil: "load" });
      await clickUntil(
        learner,
        '[data-testid="complete"]',
        async () => pathOf(learner).endsWith(`/lessons/${quizLesson.id}`) && (await learner.$('[data-testid="quiz-intro"]')) !== null,
      );
      expect(await text(learner, '[data-testid="quiz-facts"]')).toContain("3 af 4 rigtige");
      await shot(learner, `learner-intro-${mode}`);
      await clickUntil(learner, '[data-testid="quiz-start"]', async () => (await learner.$('[data-testid="quiz-question"]')) !== null);
      // No answers: submitting asks for confirmation first, then fails.
      await clickUntil(learner, '[data-testid="quiz-submit"]', async () => (await learner.$('[data-testid="quiz-confirm"]')) !== null);
      await shot(learner, `learner-confirm-${mode}`);
      await clickUntil(
        learner,
        '[data-testid="quiz-confirm-submit"]',
        async () => (await learner.$('[data-testid="quiz-result"]')) !== null,
      );
      expect(await learner.$eval('[data-testid="quiz-result"]', (el) => el.getAttribute("data-status"))).toBe("failed");
      expect(await text(learner, '[data-testid="quiz-score"]')).toBe("0 %");
      await shot(learner, `learner-failed-${mode}`);

      // Retake, answering each question right, going back once to check "previous".
      await clickUntil(learner, '[data-testid="quiz-retake"]', async () => (await learner.$('[data-testid="quiz-question"]')) !== null);
      const position = () => text(learner, '[data-testid="quiz-position"]');
      const choose = async (label: string) =>
        learner.click(`xpath/.//label[contains(@class,"quiz-option")][.//span[normalize-space()="${label}"]]`);
      expect(await position()).toBe("Spørgsmål 1 af 4");
      await choose("Oslo");
      await clickUntil(learner, '[data-testid="quiz-next"]', async () => (await position()) === "Spørgsmål 2 af 4");
      await choose("2");
      await choose("3");
      await clickUntil(learner, '[data-testid="quiz-previous"]', async () => (await position()) === "Spørgsmål 1 af 4");
      // The answer was kept on the server.
      expect(await learner.$eval("input[name=choice]:checked", (el) => el.parentElement?.textContent)).toContain("Oslo");
      await clickUntil(learner, '[data-testid="quiz-next"]', async () => (await position()) === "Spørgsmål 2 af 4");
      expect(await learner.$$eval("input[name=choice]:checked", (els) => els.length)).toBe(2);
      await clickUntil(learner, '[data-testid="quiz-next"]', async () => (await position()) === "Spørgsmål 3 af 4");
      await choose("Sandt");
      await shot(learner, `learner-question-${mode}`);
      await clickUntil(learner, '[data-testid="quiz-next"]', async () => (await position()) === "Spørgsmål 4 af 4");
      await learner.type('[data-testid="quiz-text"]', " h2o ");
      await clickUntil(learner, '[data-testid="quiz-submit"]', async () => (await learner.$('[data-testid="quiz-result"]')) !== null);
      expect(await learner.$eval('[data-testid="quiz-result"]', (el) => el.getAttribute("data-status"))).toBe("passed");
      expect(await text(learner, '[data-testid="quiz-score"]')).toBe("100 %");
      expect(await text(learner, '[data-testid="quiz-result"]')).toContain("Oslo has been the capital since 1814.");
      await shot(learner, `learner-passed-${mode}`);

      await learner.goto(url(`/courses/${course.id}`), { waitUntil: "load" });
      expect(await text(learner, ".progress-line")).toContain("100");
      expect((learner as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await learner.browserContext().close();

      // The admin's screen lists the learner's result.
      const back = await newPage(browser, { javascript });
      await signIn(back, "admin@nordlys.test");
      await back.goto(url(quizPath), { waitUntil: "load" });
      expect(await text(back, '[data-testid="quiz-results"]')).toContain("learner@nordlys.test");
      expect(await text(back, '[data-testid="quiz-results"] tbody tr td:nth-child(2)')).toBe("2");
      await back.browserContext().close();
    }, 180_000); // a long flow (about 40 page loads); the machine is shared
  });
}
