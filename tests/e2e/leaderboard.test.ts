import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTenantDatabase } from "../../db/open";
import { publish } from "../../app/models/events.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { api } from "../helpers/auth";
import { connectBrowser, newPage, settled, until } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

/**
 * Issue 13 end to end, with JavaScript on and off: a learner completes lessons and a quiz and sees points,
 * level progress, badges and their rank; an admin changes activity points and level thresholds.
 * (Quizzes are built on another branch: the quiz event is recorded through the learning event itself, on
 * the server's own database file, as the quiz code will call it.)
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const ORG = "nordlys.localhost";
const courses: Record<string, { id: number; lessons: number[] }> = {};

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  const admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  for (const title of ["Nordlysets fysik", "Stjernekort"]) {
    const course = (await api(server, ORG, "POST", "courses", { token: admin, body: { title, type: "series", published: true } })).json()
      .payload;
    const lessons: number[] = [];
    for (const lesson of ["Første", "Anden"]) {
      lessons.push(
        (
          await api(server, ORG, "POST", "lessons", {
            token: admin,
            body: { course_id: course.id, title: `${title}: ${lesson}`, kind: "text", body: "<p>Tekst</p>" },
          })
        ).json().payload.id,
      );
    }
    courses[title] = { id: course.id, lessons };
  }
  for (const name of ["Aurora", "Bjørn"])
    execTenant(
      server,
      2,
      "insert into users (email, first_name, last_name, role) values (?, ?, 'Elev', 'learner')",
      `${name.toLowerCase()}@nordlys.test`,
      name,
    );
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;

async function signedIn(email: string, javascript: boolean) {
  const page = await newPage(browser, { javascript });
  const token = insertSession(server, { organizationId: 2 }, { email, kind: "web" });
  const [name, value] = (await cookieFor(token)).split("=");
  await page.setCookie({ name, value, domain: ORG, path: "/" });
  return page;
}

/**
 * Submits a form and waits for the answer: a page load without JavaScript; with it, the fetches of the
 * submission and the revalidation to finish and the new state to render.
 */
async function submit(page: Page, selector: string) {
  const send = () =>
    page.$eval(selector, (el) =>
      el instanceof HTMLFormElement ? el.requestSubmit() : (el as HTMLButtonElement).form!.requestSubmit(el as HTMLButtonElement),
    );
  if (!page.isJavaScriptEnabled()) {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), send()]);
    return;
  }
  // Hydrated first (pages hydrate once they have loaded, app/utils/boot.server.ts), so Remix sends the form.
  await settled(page);
  await Promise.all([page.waitForNetworkIdle({ idleTime: 300 }), send()]);
  await settled(page);
}

/** Submits a form and waits until the page has moved on to where the action redirects. */
async function submitAndLeave(page: Page, selector: string) {
  const from = page.url();
  await page.$eval(selector, (el) => (el as HTMLButtonElement).form!.requestSubmit(el as HTMLButtonElement));
  await until(
    async () => page.url() !== from && (await page.evaluate(() => document.readyState === "complete")),
    "the page after the submission",
  );
  await settled(page);
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent?.trim() ?? "");

function userId(email: string) {
  const db = openTenantDatabase(path.join(server.dataDir, "org-2", "db.sqlite"));
  try {
    return (db.$client.prepare("select id from users where email = ?").get(email) as { id: number }).id;
  } finally {
    db.$client.close();
  }
}

/** A perfect first attempt at a quiz, recorded by the learning event inside a transaction on the server's file. */
function passQuiz(email: string, quizId: number) {
  const id = userId(email);
  const db = openTenantDatabase(path.join(server.dataDir, "org-2", "db.sqlite"));
  try {
    db.transaction((tx) =>
      publish(tx, "quizAttemptEnded", {
        userId: id,
        quizId,
        attemptId: 1,
        lessonId: null,
        courseId: null,
        score: 100,
        passed: true,
        attemptNumber: 1,
        at: new Date(),
      }),
    );
  } finally {
    db.$client.close();
  }
}

for (const javascript of [true, false]) {
  const email = javascript ? "aurora@nordlys.test" : "bjørn@nordlys.test";
  const course = javascript ? "Nordlysets fysik" : "Stjernekort";
  describe(`JavaScript ${javascript ? "on" : "off"}`, () => {
    it("a learner earns points, a level, badges and a rank by completing lessons and a quiz", async () => {
      const page = await signedIn(email, javascript);
      await page.goto(url("/leaderboard"), { waitUntil: "load" });
      expect(await text(page, '[data-testid="my-points"]')).toBe("0");
      expect(await text(page, '[data-testid="my-row"]')).toContain("Dig");

      for (const lesson of courses[course].lessons) {
        await page.goto(url(`/courses/${courses[course].id}/lessons/${lesson}`), { waitUntil: "load" });
        await submitAndLeave(page, '[data-testid="complete"]');
      }
      passQuiz(email, javascript ? 1 : 2);

      await page.goto(url("/profile"), { waitUntil: "load" });
      // 2 lessons (10 each), the course (50), a quiz passed (20) on the first try (10) with 100% (15).
      expect(await text(page, '[data-testid="my-points"]')).toBe("115");
      expect(await text(page, '[data-testid="level-name"]')).toBe("Opdager");
      expect(await text(page, '[data-testid="level-next"]')).toBe("185 point til Præsterer");
      expect(await page.$eval('[role="progressbar"]', (el) => el.getAttribute("aria-valuenow"))).toBe("7");
      const badges = await page.$$eval('[data-testid="badges"] li', (els) => els.map((e) => e.getAttribute("data-badge")));
      expect(badges).toEqual(expect.arrayContaining(["Første skridt", "Kursusfuldender", "Fuld score"]));

      await page.goto(url("/leaderboard"), { waitUntil: "load" });
      const rank = await text(page, '[data-testid="my-rank"]');
      const name = `${javascript ? "Aurora" : "Bjørn"} Elev`;
      // The demo's learners have months of points: the learner's own row is in the top ten or follows it.
      const [shown, listedAs] = await page.$eval("tr.lb-me", (el) => [
        el.querySelector(".lb-rank")?.textContent,
        el.getAttribute("data-learner"),
      ]);
      expect(shown).toBe(rank.slice(1));
      if (listedAs === null) expect(await text(page, '[data-testid="my-row"]')).toContain("Dig");
      else expect(listedAs).toBe(name);
      await page.goto(url(`/leaderboard?course=${courses[course].id}`), { waitUntil: "load" });
      expect(await page.$$eval('[data-testid="board"] tbody tr', (els) => els.map((e) => e.getAttribute("data-learner")))).toEqual([name]);
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    });

    it("an admin changes the points of an activity and a level's threshold, and bad input changes nothing", async () => {
      const page = await signedIn("admin@nordlys.test", javascript);
      const tab = url("/dashboard/organizations/2/leaderboard");
      await page.goto(tab, { waitUntil: "load" });
      const points = '[data-activity="lesson_completed"] input[name="points"]';
      await page.$eval(points, (el) => ((el as HTMLInputElement).value = ""));
      await page.type(points, "25");
      await submit(page, '[data-activity="lesson_completed"]');
      expect(await text(page, '[data-testid="saved"]')).toBe("Gemt.");
      expect(await page.$eval(points, (el) => (el as HTMLInputElement).value)).toBe("25");

      const threshold = '[data-level="Opdager"] input[name="threshold"]';
      await page.$eval(threshold, (el) => ((el as HTMLInputElement).value = ""));
      await page.type(threshold, "300");
      await submit(page, '[data-level="Opdager"] form');
      expect(await text(page, '[data-level="Opdager"] .field-errors')).toBe("Et andet niveau starter allerede ved dette antal point.");
      await page.goto(tab, { waitUntil: "load" });
      expect(await page.$eval(threshold, (el) => (el as HTMLInputElement).value)).toBe("100");
      await page.$eval(threshold, (el) => ((el as HTMLInputElement).value = ""));
      await page.type(threshold, "90");
      await submit(page, '[data-level="Opdager"] form');
      expect(await page.$eval(threshold, (el) => (el as HTMLInputElement).value)).toBe("90");

      // Back as they were, for the other run.
      await page.$eval(points, (el) => ((el as HTMLInputElement).value = "10"));
      await submit(page, '[data-activity="lesson_completed"]');
      await page.$eval(threshold, (el) => ((el as HTMLInputElement).value = "100"));
      await submit(page, '[data-level="Opdager"] form');
      expect(await page.$eval(points, (el) => (el as HTMLInputElement).value)).toBe("10");
      expect(await page.$eval(threshold, (el) => (el as HTMLInputElement).value)).toBe("100");
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    });
  });
}
