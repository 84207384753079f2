import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickUntil, connectBrowser, newPage, settled } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";
import { tenantDb } from "../helpers/auth";

/**
 * Issue 50 end to end, with JavaScript on and off: Nordlys's admin searches the people list, ticks "all that match",
 * chooses to assign a course, confirms on the page that names how many people it reaches with a course and a due
 * day, and watches the job to its end; each of the three people found then has the course due on that day, which
 * one of them's page (the person, whole) lists.
 */
const HOST = "nordlys.localhost";
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let course: { id: number; title: string };

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  for (const run of ["on", "off"])
    for (let n = 1; n <= 3; n++)
      execTenant(
        server,
        2,
        "insert into users (email, first_name, last_name, role) values (?, 'Massevis', ?, 'learner')",
        `massevis-${run}-${n}@nordlys.test`,
        `Bulk${run}${n}`,
      );
  const db = tenantDb(server, 2);
  try {
    course = db.prepare("select id, title from courses where published = 1 order by id limit 1").get() as typeof course;
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (path: string) => `http://${HOST}:${server.port}${path}`;

async function asAdmin(javascript: boolean) {
  const page = await newPage(browser, { javascript });
  const value = (await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }))).slice(
    "lectern_session=".length,
  );
  await page.setCookie({ name: "lectern_session", value, domain: HOST, path: "/" });
  return page;
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => (el.textContent ?? "").replace(/\s+/g, " ").trim());

describe.each([
  { javascript: true, run: "on" },
  { javascript: false, run: "off" },
])("JavaScript $run", ({ javascript, run }) => {
  it("filters the people, assigns a course with a due day to all that match, sees the job finish, and opens one person's page", async () => {
    const admin = await asAdmin(javascript);
    await admin.goto(url("/dashboard/users"), { waitUntil: "load" });
    await settled(admin);
    await admin.type('input[name="q"]', `bulk${run}`);
    await clickUntil(
      admin,
      '.list-controls button[type="submit"]',
      async () => (await admin.$$('[data-testid="users"] tbody tr')).length === 3,
    );
    await admin.click('[data-testid="bulk-all"]');
    await admin.select('[data-testid="bulk-action"]', "assign_course");
    await clickUntil(admin, '[data-testid="bulk-continue"]', async () => (await admin.$('[data-testid="bulk-confirm"]')) !== null);
    expect(await text(admin, '[data-testid="bulk-count"]')).toBe("Det gælder alle 3 personer, der matcher listen.");
    await admin.select('[data-testid="bulk-course"]', String(course.id));
    // The date picker's typing order follows the browser's locale; the value is what the form sends.
    await admin.$eval('[data-testid="bulk-due"]', (el) => ((el as HTMLInputElement).value = "2027-06-30"));
    // Without JavaScript the job's page refreshes itself until the job is done.
    await clickUntil(
      admin,
      '[data-testid="bulk-apply"]',
      async () => (await admin.$('[data-testid="bulk-job"][data-status="done"]')) !== null,
    );
    expect(await text(admin, '[data-testid="bulk-job"] .form-message')).toBe("Udført for 3 personer af 3.");
    expect(await text(admin, ".bulk-detail")).toContain(course.title);
    // One of them, whole: the person's page lists the course, due on that day.
    await admin.goto(url(`/dashboard/users?q=bulk${run}1`), { waitUntil: "load" });
    await clickUntil(admin, '[data-testid="users"] tbody tr a', async () => (await admin.$('[data-testid="person"]')) !== null);
    expect(await text(admin, "h1")).toBe(`Massevis Bulk${run}1`);
    expect(await text(admin, '[data-testid="person-assignments"] tbody')).toContain(course.title);
    expect((admin as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await admin.browserContext().close();
    const db = tenantDb(server, 2);
    try {
      const due = db
        .prepare(
          `select u.email, ap.due_on from assignment_people ap join assignments a on a.id = ap.assignment_id join users u on u.id = ap.user_id
           where a.course_id = ? and u.email like ? order by u.email`,
        )
        .all(course.id, `massevis-${run}-%`);
      expect(due).toEqual([1, 2, 3].map((n) => ({ email: `massevis-${run}-${n}@nordlys.test`, due_on: "2027-06-30" })));
    } finally {
      db.close();
    }
  });
});
