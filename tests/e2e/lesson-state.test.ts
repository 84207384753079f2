import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { checkReply } from "../helpers/contract";
import { connectBrowser, newPage } from "../helpers/browser";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Issue 45 item 3 in real Chromium: a course of three SCORM lessons, installed through /api (item 4), shows
 * each lesson's one state — not started, in progress, completed — the same on the course page, beside the
 * player and in /api, after the learner's records are made through the runtime endpoint the player itself
 * posts to (`POST /api/scorm-attempts`, with the page's session). Playing the content is tests/e2e/scorm.test.ts's.
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const ORG = "acme.localhost";
const FIXTURES = path.resolve(__dirname, "../fixtures/scorm");
const ids = { course: 0, lessons: [] as number[] };
const TITLES = ["Package one", "Package two", "Package three"];

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  const admin = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  ids.course = (
    await api(server, ORG, "POST", "courses", { token: admin, body: { title: "Three packages", type: "series", published: true } })
  ).json().payload.id;
  for (const title of TITLES) {
    const { body, contentType } = multipart(
      {},
      { file: { name: "golf.zip", type: "application/zip", data: fs.readFileSync(path.join(FIXTURES, "singlesco_scorm12.zip")) } },
    );
    const uploaded = await request(server.port, ORG, "/api/files", {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": contentType },
      body,
    });
    checkReply("POST", "/api/files", uploaded);
    const lesson = await api(server, ORG, "POST", "lessons", {
      token: admin,
      body: { course_id: ids.course, title, kind: "scorm", file_id: uploaded.json().payload.id },
    });
    expect(lesson.status, lesson.body).toBe(201);
    ids.lessons.push(lesson.json().payload.id);
  }
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** What the course page shows: each episode's state and words, and the hero's button. */
async function coursePage(page: Page) {
  await page.goto(url(`/courses/${ids.course}`), { waitUntil: "load" });
  await page.waitForSelector('[data-testid="episodes"]');
  return page.evaluate(() => ({
    episodes: [...document.querySelectorAll('[data-testid="episodes"] li')].map((li) => ({
      title: li.getAttribute("data-lesson"),
      state: li.getAttribute("data-state"),
      shown: (li.querySelector(".episode-state") as HTMLElement | null)?.innerText.trim() ?? "",
    })),
    button: (document.querySelector('[data-testid="start"]') as HTMLElement | null)?.innerText ?? "",
    actions: document.querySelector(".course-actions")?.outerHTML ?? document.body.innerText.slice(0, 500),
  }));
}

/** A call from inside the signed-in page, with its session cookie, as the player makes it. */
function fromPage(page: Page, method: string, p: string, body?: unknown) {
  return page.evaluate(
    async (m, target, b) => {
      const res = await fetch(target, {
        method: m,
        headers: b === undefined ? {} : { "Content-Type": "application/json" },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, json: await res.json() };
    },
    method,
    p,
    body,
  );
}

describe("SCORM lessons on the course page, beside the player and in /api", () => {
  it("show not started, in progress and completed alike once the learner's package commits", async () => {
    // Signed in as the demo's learner (a session of theirs, as the sign-in form would make).
    const page = await newPage(browser, { javascript: true });
    const cookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    const at = cookie.indexOf("=");
    await page.setCookie({ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: url() });

    let seen = await coursePage(page);
    expect(seen.episodes.map((e) => e.state)).toEqual(["not_started", "not_started", "not_started"]);
    expect(seen.button, seen.actions).toContain("Start");

    // The runtime endpoint the player posts the package's commits to: the first package under way, the second done.
    const commit = async (lessonId: number, status: string) => {
      const res = await fromPage(page, "POST", "/api/scorm-attempts", {
        lesson_id: lessonId,
        sco_id: "item_1",
        cmi: { "cmi.core.lesson_status": status, "cmi.core.lesson_location": "page-2" },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json.payload as { lesson_completed: boolean };
    };
    expect((await commit(ids.lessons[0], "incomplete")).lesson_completed).toBe(false);
    expect((await commit(ids.lessons[1], "completed")).lesson_completed).toBe(true);

    seen = await coursePage(page);
    expect(seen.episodes).toEqual([
      { title: "Package one", state: "in_progress", shown: "In progress" },
      { title: "Package two", state: "completed", shown: "Completed" },
      { title: "Package three", state: "not_started", shown: expect.any(String) },
    ]);
    // Begun: the big button goes on where the learner is, to the first lesson not completed.
    expect(seen.button).toContain("Continue");
    expect(seen.button).toContain("Package one");
    expect(await page.$eval('[data-testid="course-progress"]', (el) => (el as HTMLElement).innerText)).toContain("1 of 3");

    // The episode list beside the player says the same.
    await page.goto(url(`/courses/${ids.course}/lessons/${ids.lessons[2]}`), { waitUntil: "load" });
    await page.waitForSelector('[data-testid="episodes"]');
    expect(await page.$$eval('[data-testid="episodes"] li', (items) => items.map((li) => li.getAttribute("data-state")))).toEqual([
      "in_progress",
      "completed",
      "not_started",
    ]);

    // And /api, asked from the same page.
    const progress = await fromPage(page, "GET", `/api/lesson-progresses/course/${ids.course}`);
    expect(progress.status).toBe(200);
    expect(progress.json.payload).toMatchObject({
      completed_lessons: 1,
      in_progress_lessons: 1,
      lesson_states: [
        { lesson_id: ids.lessons[0], state: "in_progress" },
        { lesson_id: ids.lessons[1], state: "completed" },
        { lesson_id: ids.lessons[2], state: "not_started" },
      ],
    });
    const rows = (await fromPage(page, "GET", "/api/lesson-progresses")).json.payload.data as Array<{ lesson_id: number; state: string }>;
    expect(rows.filter((r) => ids.lessons.includes(r.lesson_id)).map((r) => [r.lesson_id, r.state])).toEqual(
      expect.arrayContaining([
        [ids.lessons[0], "in_progress"],
        [ids.lessons[1], "completed"],
      ]),
    );

    // The home's "continue watching" row holds the course begun.
    await page.goto(url("/"), { waitUntil: "load" });
    expect(await page.$eval('[data-testid="continue-watching"]', (el) => (el as HTMLElement).innerText)).toContain("Three packages");
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
  });
});
