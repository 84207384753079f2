import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { clickAndWait, clickUntil, connectBrowser, newPage, settled, until } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";
import { addDays } from "~/utils/calendar";
import { formatDate } from "~/utils/dates";

/**
 * Issue 34 end to end, with JavaScript on and off: an organization admin assigns a short course to the
 * Nordlys learner with a due date on the course's assignments screen; the learner finds it due on their
 * home ("Due soon", not started), completes it, and the home shows it done. One browser, one admin page
 * and one learner page per run; then the admin's compliance report counts the course done and lists the learner
 * behind its "done" figure.
 */
const HOST = "nordlys.localhost";
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const courses: Record<"on" | "off", number> = { on: 0, off: 0 };

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  const token = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  for (const run of ["on", "off"] as const) {
    const made = await api(server, HOST, "POST", "courses", {
      token,
      body: { title: `Brandøvelse ${run}`, type: "series", published: true, description: "<p>Et kort kursus om brand.</p>" },
    });
    courses[run] = made.json().payload.id;
    await api(server, HOST, "POST", "lessons", {
      token,
      body: { course_id: courses[run], title: `Nødudgange ${run}`, kind: "text", body: "<p>Find den nærmeste udgang.</p>" },
    });
  }
  // The player's first-visit instructions are not what this test is about.
  execTenant(server, 2, "update users set player_instructions_shown_at = unixepoch() where email = 'learner@nordlys.test'");
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (path: string) => `http://${HOST}:${server.port}${path}`;

async function as(email: string, javascript: boolean) {
  const page = await newPage(browser, { javascript });
  const value = (await cookieFor(insertSession(server, { organizationId: 2 }, { email, kind: "web" }))).slice("lectern_session=".length);
  await page.setCookie({ name: "lectern_session", value, domain: HOST, path: "/" });
  return page;
}

/** The learner's "Due soon" item of a course: its state and its text. */
function dueItem(page: Page, title: string) {
  return page
    .$eval(`[data-testid="due-soon"] [data-course="${title}"]`, (el) => ({
      state: el.getAttribute("data-state"),
      badge: el.querySelector(".state-badge")?.textContent,
      date: el.querySelector(".due-date > span:last-child")?.textContent,
    }))
    .catch(() => null);
}

describe.each([
  { javascript: true, run: "on" as const },
  { javascript: false, run: "off" as const },
])("JavaScript $run", ({ javascript, run }) => {
  it("an admin assigns a course with a due date; the learner sees it due and completes it; the report shows it done", async () => {
    const title = `Brandøvelse ${run}`;
    // Ten days from today in the organization's zone (Europe/Copenhagen, a day ahead of UTC at most).
    const dueDate = addDays(new Date().toISOString().slice(0, 10), 10);
    const shown = formatDate(`${dueDate}T12:00:00Z`, { timeZone: "UTC" });

    const admin = await as("admin@nordlys.test", javascript);
    await admin.goto(url(`/dashboard/organizations/2/courses/${courses[run]}`), { waitUntil: "load" });
    await clickAndWait(admin, '[data-testid="course-assignments"]');
    // The assignments screen is drawn (with JavaScript, a busy machine draws it after the router is idle).
    expect(await admin.waitForSelector('[data-testid="no-assignments"]')).not.toBeNull();
    await admin.type('[data-testid="person"]', "learner@nordlys.test");
    // The date picker's typing order follows the browser's locale; the value is what the form sends.
    await admin.$eval('[data-testid="due-date"]', (el, value) => ((el as HTMLInputElement).value = value), dueDate);
    await clickUntil(admin, '[data-testid="assign"]', async () => (await admin.$('[data-testid="assignment-people"]')) !== null);
    expect(await admin.$eval('[data-testid="flash"]', (el) => el.textContent)).toBe("Kurset er tildelt.");
    const person = await admin.$eval('[data-testid="people"] [data-person="learner@nordlys.test"]', (el) => ({
      state: el.getAttribute("data-state"),
      text: (el.textContent ?? "").replace(/\s+/g, " "),
    }));
    expect(person.state).toBe("not_started");
    expect(person.text).toContain(shown);
    expect((admin as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await admin.browserContext().close();

    const learner = await as("learner@nordlys.test", javascript);
    await learner.goto(url("/"), { waitUntil: "load" });
    await settled(learner);
    expect(await dueItem(learner, title)).toEqual({ state: "not_started", badge: "Ikke startet", date: `Frist ${shown}` });
    await clickUntil(
      learner,
      `[data-testid="due-soon"] [data-course="${title}"] a`,
      async () => (await learner.$eval("h1", (el) => el.textContent).catch(() => "")) === title,
    );
    expect(await learner.$eval('[data-testid="assignment-notice"]', (el) => el.textContent)).toContain(`Tildelt dig — frist ${shown}`);
    await clickUntil(learner, '[data-testid="start"]', async () => (await learner.$('[data-testid="complete"]')) !== null);
    // The course's last lesson done, the player goes back to the course page: its notice says done.
    await clickUntil(
      learner,
      '[data-testid="complete"]',
      async () => (await learner.$('[data-testid="assignment-notice"] [data-state="done"]')) !== null,
    );
    await learner.goto(url("/"), { waitUntil: "load" });
    await settled(learner);
    const done = await until(() => dueItem(learner, title), "the due item");
    expect(done).toMatchObject({ state: "done", badge: "Gennemført" });
    expect(done.date).toMatch(new RegExp(`^Frist ${shown} · gennemført .+`));
    expect((learner as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await learner.browserContext().close();

    // The admin's compliance report counts the course done, and its "done" figure lists the learner.
    const report = await as("admin@nordlys.test", javascript);
    await report.goto(url("/dashboard/compliance"), { waitUntil: "load" });
    const row = `[data-testid="compliance-courses"] tbody tr[data-id="${courses[run]}"]`;
    const figures = await report.$$eval(`${row} td[data-column]`, (cells) =>
      Object.fromEntries(cells.map((td) => [td.getAttribute("data-column"), (td.textContent ?? "").trim()])),
    );
    expect(figures).toEqual({ assigned: "1", done: "1", in_progress: "0", not_started: "0", overdue: "0", expiring: "0" });
    await clickUntil(report, `${row} td[data-column="done"] a`, async () => (await report.$('[data-testid="compliance-people"]')) !== null);
    const listed = await report.$$eval('[data-testid="compliance-people"] tbody tr', (rows) =>
      rows.map((tr) => ({
        text: (tr.textContent ?? "").replace(/\s+/g, " "),
        state: tr.querySelector("[data-state]")?.getAttribute("data-state"),
      })),
    );
    expect(listed).toHaveLength(1);
    expect(listed[0].state).toBe("done");
    expect(listed[0].text).toContain(title);
    expect((report as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await report.browserContext().close();
  });
});
