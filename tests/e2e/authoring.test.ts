import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import da from "../../locales/da/fixes.json";
import { clickAndWait, connectBrowser, newPage, pathOf, signIn as signInAt } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (host: string, p = "/") => `http://${host}:${server.port}${p}`;
const signIn = (page: Page, host: string, email: string) => signInAt(page, url(host, "").replace(/\/$/, ""), email);

describe("with JavaScript off, an admin authors a course", () => {
  it("creates a series with three lessons, reorders, publishes it, and it shows on that organization's home only", async () => {
    const page = await newPage(browser, { javascript: false });
    await signIn(page, "nordlys.localhost", "admin@nordlys.test");
    await page.goto(url("nordlys.localhost", "/dashboard/organizations/2/courses"), { waitUntil: "load" });
    await clickAndWait(page, '[data-testid="create-course"]');
    await page.waitForSelector("input[name=title]"); // the form is drawn (a busy machine draws late)
    await page.type("input[name=title]", "Vinterhavet");
    await page.select("select[name=type]", "series");
    await page.type("textarea[name=description]", "<p>Om <strong>havet</strong> om vinteren.</p><script>alert(1)</script>");
    await clickAndWait(page, '[data-testid="save-course"]');
    expect(pathOf(page)).toMatch(/^\/dashboard\/organizations\/2\/courses\/\d+$/);

    for (const title of ["Isen", "Strømmen", "Lyset"]) {
      await page.type("#lesson_title", title);
      await clickAndWait(page, '[data-testid="add-lesson"]');
    }
    const lessons = () => page.$$eval("[data-lesson]", (els) => els.map((e) => e.getAttribute("data-lesson")));
    expect(await lessons()).toEqual(["Isen", "Strømmen", "Lyset"]);
    const lastId = await page.$eval('[data-lesson="Lyset"] [data-testid^="up-"]', (el) => el.getAttribute("data-testid")!.slice(3));
    await clickAndWait(page, `[data-testid="up-${lastId}"]`);
    expect(await lessons()).toEqual(["Isen", "Lyset", "Strømmen"]);

    await clickAndWait(page, '[data-testid="toggle-publish"]');
    expect(await page.$eval('[data-testid="toggle-publish"]', (el) => el.textContent)).toBe("Afpublicer");

    const learner = await newPage(browser, { javascript: false });
    await learner.goto(url("nordlys.localhost"), { waitUntil: "load" });
    const titles = await learner.$$eval(".course-title", (els) => els.map((e) => e.textContent));
    expect(titles).toContain("Vinterhavet");
    const card = await learner.$$eval("[data-course-id]", (els) =>
      els.map((e) => e.textContent ?? "").find((t) => t.includes("Vinterhavet")),
    );
    expect(card).toContain("Om havet om vinteren.");
    expect(card).not.toContain("<strong>");
    expect(card).not.toContain("alert(1)");
    await learner.goto(url("acme.localhost"), { waitUntil: "load" });
    expect(await learner.$$eval(".course-title", (els) => els.map((e) => e.textContent))).not.toContain("Vinterhavet");
    await learner.browserContext().close();
    await page.browserContext().close();
  });

  it("copies a course in the background and follows the progress page to the copy", async () => {
    const page = await newPage(browser, { javascript: false });
    await signIn(page, "nordlys.localhost", "admin@nordlys.test");
    await page.goto(url("nordlys.localhost", "/dashboard/organizations/2/courses/1"), { waitUntil: "load" });
    await clickAndWait(page, '[data-testid="clone-course"]');
    expect(pathOf(page)).toMatch(/^\/dashboard\/organizations\/2\/jobs\/\d+$/);
    // The page refreshes itself (meta refresh) until the job is done.
    await page.waitForSelector('[data-testid="job"][data-status="done"]', { timeout: 20_000 });
    await clickAndWait(page, '[data-testid="open-copy"]');
    expect(await page.$eval("h2", (el) => el.textContent)).toBe("Velkommen til Nordlys (kopi)");
    await page.browserContext().close();
  });
});

describe.each([false, true])("with JavaScript %s, an admin adds a quiz lesson", (javascript) => {
  it("picks one of the organization's quizzes, and the learner takes that quiz in the course", async () => {
    const title = `Quizkursus ${javascript ? "JS" : "HTML"}`;
    const page = await newPage(browser, { javascript });
    await signIn(page, "nordlys.localhost", "admin@nordlys.test");
    await page.goto(url("nordlys.localhost", "/dashboard/organizations/2/courses"), { waitUntil: "load" });
    await clickAndWait(page, '[data-testid="create-course"]');
    await page.waitForSelector("input[name=title]"); // the form is drawn (a busy machine draws late)
    await page.type("input[name=title]", title);
    await page.click("input[name=allow_quizzes]");
    await page.click("input[name=published]");
    await clickAndWait(page, '[data-testid="save-course"]');
    await page.waitForSelector("#lesson_title"); // the course's page is drawn (a busy machine draws late)
    const courseId = Number(pathOf(page).split("/").pop());

    // No quiz chosen: the form says so and no lesson is added.
    await page.type("#lesson_title", "Prøv dig selv");
    await page.select("#lesson_kind", "quiz");
    if (javascript) {
      await page.click('[data-testid="add-lesson"]');
      await page.waitForFunction(
        (m) => document.querySelector('[data-testid="add-lesson-form"]')?.textContent?.includes(m),
        { timeout: 15_000 },
        da.fixes.lessonQuiz.required,
      );
    } else {
      await clickAndWait(page, '[data-testid="add-lesson"]');
      expect(await page.$eval('[data-testid="add-lesson-form"]', (el) => el.textContent)).toContain(da.fixes.lessonQuiz.required);
    }
    expect(await page.$$("[data-lesson]")).toHaveLength(0);

    const options = await page.$$eval("#lesson_quiz_id option", (els) =>
      els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? "" })).filter((o) => o.value),
    );
    expect(options.length).toBeGreaterThan(0);
    const quiz = options[0]!;
    await page.$eval("#lesson_title", (el) => ((el as HTMLInputElement).value = "Prøv dig selv"));
    await page.select("#lesson_kind", "quiz");
    await page.select("#lesson_quiz_id", quiz.value);
    await clickAndWait(page, '[data-testid="add-lesson"]');
    await page.waitForSelector('[data-lesson="Prøv dig selv"]', { timeout: 15_000 });

    // The lesson page shows the chosen quiz.
    await clickAndWait(page, '[data-lesson="Prøv dig selv"] a');
    expect(await page.$eval("#lesson_quiz_id", (el) => (el as HTMLSelectElement).value)).toBe(quiz.value);

    const learner = await newPage(browser, { javascript });
    await signIn(learner, "nordlys.localhost", "learner@nordlys.test");
    await learner.goto(url("nordlys.localhost", `/courses/${courseId}`), { waitUntil: "load" });
    await learner.click('[data-testid="start"]');
    await learner.waitForSelector('[data-testid="quiz"]', { timeout: 15_000 });
    expect(await learner.$eval("main", (el) => el.textContent ?? "")).toContain(quiz.text);
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    expect((learner as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await learner.browserContext().close();
    await page.browserContext().close();
  });
});
