import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantDb } from "../helpers/auth";
import { clickAndWait, connectBrowser, newPage, pathOf, settled, until } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Issue 14 end to end, with JavaScript on and off: an Acme admin creates a group with a rule, imports a
 * CSV whose rows fall in and out of it, sees the members appear, attaches a force_groups course; a member
 * opens it, a non-member gets the spec's message; a group admin manages members and reaches nothing else
 * (adding someone outside their groups is refused; the organization admin adds them, and the audit says so).
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-csv-"));
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const HOST = "acme.localhost";
const url = (p: string) => `http://${HOST}:${server.port}${p}`;

async function as(email: string, javascript: boolean) {
  const page = await newPage(browser, { javascript });
  const token = insertSession(server, { organizationId: 1 }, { email, kind: "web" });
  const value = (await cookieFor(token)).slice("lectern_session=".length);
  await page.setCookie({ name: "lectern_session", value, domain: HOST, path: "/" });
  return page;
}

function courseId(title: string) {
  const db = tenantDb(server, 1);
  try {
    return (db.prepare("select id from courses where title = ?").get(title) as { id: number }).id;
  } finally {
    db.close();
  }
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");

/** Waits for an element (polled from here: robust while a navigation swaps the DOM, with or without JavaScript). */
const present = (page: Page, selector: string) => until(() => page.$(selector), selector);
/** Waits until an element's text contains a value. */
const shows = (page: Page, selector: string, value: string) =>
  until(async () => (await text(page, selector)).includes(value), `${selector} to show ${value}`);

// The two runs side by side: each has its own group, people and course, and reads its own rows of the audit.
describe.concurrent.each([
  { javascript: false, tag: "off", course: "Data Protection Basics" },
  { javascript: true, tag: "on", course: "Project Management Fundamentals" },
])("groups and import with JavaScript $tag", ({ javascript, tag, course }) => {
  it("runs the admin's, the member's and the group admin's path", async () => {
    const admin = await as("admin@acme.test", javascript);
    // With JavaScript, a form's redirect and revalidation run in the page: let them finish before leaving.
    const go = async (page: Page, p: string) => {
      await settled(page);
      return page.goto(url(p), { waitUntil: "load" });
    };

    // A group with a rule.
    await go(admin, "/dashboard/organizations/1/groups/create");
    await admin.type("#group-name", `Sales ${tag}`);
    await clickAndWait(admin, '[data-testid="save-group"]');
    expect(pathOf(admin)).toMatch(/^\/dashboard\/organizations\/1\/groups\/\d+$/);
    await present(admin, '[data-testid="rule-person"]');
    const groupPath = pathOf(admin);
    await admin.select('[data-testid="rule-person"] select[name=field]', "email");
    await admin.select('[data-testid="rule-person"] select[name=operator]', "ends_with");
    await admin.type('[data-testid="rule-person"] input[name=value]', `@sales-${tag}.example.com`);
    await clickAndWait(admin, '[data-testid="add-person-rule"]');
    await shows(admin, '[data-testid="group-rules"]', `@sales-${tag}.example.com`);
    expect(await text(admin, '[data-testid="group-rules"]')).toContain(`@sales-${tag}.example.com`);

    // A CSV with rows in and out of the rule: preview, then import.
    const file = path.join(dir, `people-${tag}.csv`);
    fs.writeFileSync(
      file,
      `First name,Last name,Phone,Email\nSiri,Salg,,siri@sales-${tag}.example.com\nOle,Other,,ole-${tag}@example.com\nSam,Salg,,sam@sales-${tag}.example.com\n`,
    );
    await go(admin, "/dashboard/users/import");
    const input = await admin.$("#import-file");
    await (input as unknown as { uploadFile: (f: string) => Promise<void> }).uploadFile(file);
    await admin.$eval("input[name=sendInvitations]", (el) => ((el as HTMLInputElement).checked = false));
    await clickAndWait(admin, '[data-testid="check-import"]');
    await present(admin, '[data-testid="import-preview"]');
    expect(await text(admin, '[data-testid="import-preview"]')).toContain(`siri@sales-${tag}.example.com`);
    await clickAndWait(admin, '[data-testid="confirm-import"]');
    await present(admin, '[data-testid="import"]:not([data-status="preview"])');
    // The status page refreshes itself while the job runs (a meta refresh, with or without JavaScript).
    const statusUrl = url(pathOf(admin));
    let done = "";
    for (let i = 0; i < 60 && !done.includes("Imported 3 people"); i++) {
      await new Promise((r) => setTimeout(r, 500));
      done = await admin
        .goto(statusUrl, { waitUntil: "load" })
        .then(() => text(admin, '[data-testid="import"][data-status="done"]'))
        .catch(() => "");
    }
    expect(done).toContain("Imported 3 people");

    // The rule's members appear; the course is limited to the group and attached to it.
    execTenant(server, 1, "update courses set force_groups = 1 where title = ?", course);
    await go(admin, groupPath);
    const members = await text(admin, '[data-testid="group-members"]');
    expect(members).toContain(`siri@sales-${tag}.example.com`);
    expect(members).toContain(`sam@sales-${tag}.example.com`);
    expect(members).not.toContain(`ole-${tag}@example.com`);
    await admin.select('[data-testid="group-courses"] select[name=courseId]', String(courseId(course)));
    await clickAndWait(admin, '[data-testid="attach-course"]');
    await shows(admin, '[data-testid="group-courses"] ul', course);
    expect(await text(admin, '[data-testid="group-courses"]')).toContain(course);

    // A member opens the course; a non-member reads the spec's message.
    const member = await as(`siri@sales-${tag}.example.com`, javascript);
    await member.goto(url(`/courses/${courseId(course)}`), { waitUntil: "load" });
    expect(await member.$('[data-reason="limited"]')).toBeNull();
    const outsider = await as(`ole-${tag}@example.com`, javascript);
    await outsider.goto(url(`/courses/${courseId(course)}`), { waitUntil: "load" });
    expect(await text(outsider, '[data-reason="limited"]')).toBe("Limited access to the course (contact your advisor)");

    // Siri becomes the group's admin: she manages its members and reaches nothing else. Ole is in none of
    // her groups, so she cannot add him (issue 44: no action of a group admin widens whom they manage); an
    // organization admin can, and the audit of what admins did shows both changes, newest first.
    await go(admin, groupPath);
    await clickAndWait(admin, `tr[data-member="siri@sales-${tag}.example.com"] button[value=make-admin]`);
    await present(admin, `tr[data-member="siri@sales-${tag}.example.com"] button[value=unmake-admin]`);
    const lead = await as(`siri@sales-${tag}.example.com`, javascript);
    await go(lead, "/groups");
    await clickAndWait(lead, `[data-group="Sales ${tag}"] a`);
    await present(lead, "#member-email");
    const leadGroup = pathOf(lead);
    await lead.type("#member-email", `ole-${tag}@example.com`);
    await clickAndWait(lead, '[data-testid="add-member"]');
    await shows(lead, '[data-testid="group-members"]', "You can add only people who are already in one of the groups you manage.");
    expect(await text(lead, '[data-testid="group-members"]')).not.toContain(`ole-${tag}@example.com`);
    await go(admin, groupPath);
    await present(admin, "#member-email");
    await admin.type("#member-email", `ole-${tag}@example.com`);
    await clickAndWait(admin, '[data-testid="add-member"]');
    await shows(admin, '[data-testid="group-members"]', `ole-${tag}@example.com`);
    await go(lead, leadGroup);
    expect(await text(lead, '[data-testid="group-members"]')).toContain(`ole-${tag}@example.com`);
    await go(admin, "/dashboard/users");
    await clickAndWait(admin, '[data-testid="audit-link"]');
    await present(admin, '[data-testid="audit"]');
    // This run's rows, newest first (the other run's changes to its own group may come between them).
    const audit = await admin.$$eval(
      '[data-testid="audit"] tbody tr',
      (rows, mine) =>
        rows
          .map((tr) => [(tr as HTMLElement).dataset.action, (tr as HTMLElement).dataset.person, (tr as HTMLElement).dataset.actor])
          .filter(([, person]) => mine.includes(person ?? ""))
          .slice(0, 2),
      [`ole-${tag}@example.com`, `siri@sales-${tag}.example.com`],
    );
    expect(audit).toEqual([
      ["member_added", `ole-${tag}@example.com`, "admin@acme.test"],
      ["admin_granted", `siri@sales-${tag}.example.com`, "admin@acme.test"],
    ]);
    expect(await text(admin, `[data-testid="audit"] tbody tr[data-action="member_added"][data-person="ole-${tag}@example.com"]`)).toContain(
      "Added to the group",
    );
    const dashboard = await go(lead, "/dashboard");
    expect(dashboard?.status()).toBe(403);
    const other = await go(lead, "/dashboard/organizations/1/groups");
    expect(other?.status()).toBe(403);
    expect((admin as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
  });
});
