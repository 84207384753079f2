import path from "node:path";
import type { Browser, Frame, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { launchBrowser, newPage, signIn } from "../helpers/browser";
import { startServer, type RunningServer } from "../helpers/server";
import { insertSession } from "../helpers/sessions";

/**
 * SCORM in real Chromium (issue 16): an admin uploads the real Golf Examples packages (SCORM 1.2 and
 * 2004) and sees bad ones refused; a learner runs them in the sandboxed frame, the content reports to
 * the LMS, a reload resumes where it was, and reaching the end completes the lesson.
 */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const ORG = "nordlys.localhost";
const FIXTURES = path.resolve(__dirname, "../fixtures/scorm");
const ids = { course: 0, l12: 0, l2004: 0, after: 0 };

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  const admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  ids.course = (await api(server, ORG, "POST", "courses", { token: admin, body: { title: "Golf", type: "series", published: true } })).json().payload.id;
  const lesson = async (title: string) => (await api(server, ORG, "POST", "lessons", { token: admin, body: { course_id: ids.course, title, kind: "text" } })).json().payload.id as number;
  ids.l12 = await lesson("Golf 1.2");
  ids.l2004 = await lesson("Golf 2004");
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (p = "/") => `http://${ORG}:${server.port}${p}`;
const packagePage = (lessonId: number) => url(`/dashboard/organizations/2/courses/${ids.course}/lessons/${lessonId}/scorm`);

async function upload(page: Page, lessonId: number, file: string) {
  await page.goto(packagePage(lessonId), { waitUntil: "load" });
  const input = await page.$("input[name=package]");
  await input!.uploadFile(path.join(FIXTURES, file));
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click('[data-testid="scorm-submit"]')]);
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (${String(last)})` : ""}`);
}

/** The SCO's launch page inside the content frame (the launcher's child), once it has started. */
function launchFrame(page: Page) {
  return until("the SCO's launch page", async () => page.frames().find((f) => f.url().includes("/shared/launchpage.html") && f.url().includes(".scorm.localhost")));
}

async function contentPage(frame: Frame) {
  return until("a content page", async () => frame.childFrames().find((f) => /\/(Playing|Etiquette|Handicapping|HavingFun|shared)\/\w+\.html/.test(f.url()))?.url());
}

describe("an admin uploads packages", () => {
  it("installs the real SCORM 1.2 and 2004 packages and refuses invalid.zip and badscorm.zip with their errors", async () => {
    const page = await newPage(browser, { javascript: true });
    await signIn(page, url(), "admin@nordlys.test");
    await upload(page, ids.l12, "invalid.zip");
    expect(await page.$eval('[data-testid="scorm-error"]', (el) => el.textContent)).toContain("no imsmanifest.xml");
    await upload(page, ids.l12, "badscorm.zip");
    expect(await page.$eval('[data-testid="scorm-error"]', (el) => el.textContent)).toContain("must be at the root");
    expect(await page.$('[data-testid="scorm-package"]')).toBeNull();

    await upload(page, ids.l12, "singlesco_scorm12.zip");
    expect(await page.$eval('[data-testid="scorm-installed"]', (el) => el.textContent)).toContain("installed");
    expect(await page.$eval('[data-testid="scorm-version"]', (el) => el.textContent)).toBe("SCORM 1.2");
    await upload(page, ids.l2004, "RuntimeBasicCalls_SCORM20043rdEdition.zip");
    expect(await page.$eval('[data-testid="scorm-version"]', (el) => el.textContent)).toBe("SCORM 2004 3rd edition");
    expect(await page.$$eval('[data-testid="scorm-items"] li', (els) => els.map((e) => e.textContent?.trim()))).toEqual(["Golf Explained"]);
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
  });
});

describe("a learner takes SCORM lessons", () => {
  for (const [name, key, version] of [
    ["SCORM 1.2", "l12", "1.2"],
    ["SCORM 2004", "l2004", "2004"],
  ] as const) {
    it(`${name}: launches, reports, resumes after a reload, and completes`, async () => {
      const page = await newPage(browser, { javascript: true });
      page.on("dialog", (dialog) => void dialog.accept()); // "Would you like to resume…?" from the SCO
      await signIn(page, url(), "learner@nordlys.test");
      const lessonUrl = url(`/courses/${ids.course}/lessons/${ids[key]}`);
      await page.goto(lessonUrl, { waitUntil: "load" });
      await page.waitForSelector('[data-testid="scorm-frame"]');
      expect(await page.$('[data-testid="complete"]')).toBeNull(); // no "mark complete": the package decides

      // The content runs on the content origin and cannot read the app's page or cookies.
      let sco = await launchFrame(page);
      expect(new URL(sco.url()).hostname).toBe("2.scorm.localhost");
      expect(await sco.evaluate(() => document.cookie)).toBe("");
      expect(await sco.evaluate(() => { try { return String(window.top!.document.title); } catch { return "blocked"; } })).toBe("blocked");
      expect(await sco.evaluate((v) => (v === "1.2" ? typeof (window.parent as unknown as { API?: unknown }).API : typeof (window.parent as unknown as { API_1484_11?: unknown }).API_1484_11), version)).toBe("object");

      // Three pages on; the SCO bookmarks each (cmi.core.lesson_location / cmi.location).
      expect(await contentPage(sco)).toContain("Playing/Playing.html");
      for (let i = 0; i < 3; i++) await sco.click("#butNext");
      expect(await contentPage(sco)).toContain("Playing/OtherScoring.html");
      await until("progress saved", async () => (await page.$eval('[data-testid="scorm-status"]', (el) => el.textContent))?.includes("In progress"));

      // Reload: the place is restored (the SCO asks, the dialog is accepted) and entry is resume.
      await page.reload({ waitUntil: "load" });
      await page.waitForSelector('[data-testid="scorm-frame"]');
      sco = await launchFrame(page);
      await until("the resumed page", async () => (await contentPage(sco)).includes("Playing/OtherScoring.html"));
      const entry = await sco.evaluate((v) => {
        const w = window.parent as unknown as { API?: { LMSGetValue(k: string): string }; API_1484_11?: { GetValue(k: string): string } };
        return v === "1.2" ? w.API!.LMSGetValue("cmi.core.entry") : w.API_1484_11!.GetValue("cmi.entry");
      }, version);
      expect(entry).toBe("resume");

      // On to the last page: the SCO says completed, and the lesson is completed.
      for (let i = 0; i < 20; i++) {
        const disabled = await sco.$eval("#butNext", (b) => (b as HTMLButtonElement).disabled);
        if (disabled) break;
        await sco.click("#butNext");
      }
      await until("the lesson completed", async () => page.$('[data-testid="lesson-completed"]'));
      expect(await page.$eval('[data-testid="scorm-status"]', (el) => el.textContent)).toContain("Completed");
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);

      // /api shows the tracking through lesson-progresses.
      const token = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
      const progress = (await api(server, ORG, "GET", "lesson-progresses", { token })).json().payload;
      const row = progress.items.find((p: { lesson_id: number }) => p.lesson_id === ids[key]);
      expect(row.completed).toBe(true);
      expect(row.scorm.status).toBe("completed");
    });
  }

  it("without JavaScript the lesson says the content needs JavaScript, and the page still works", async () => {
    const page = await newPage(browser, { javascript: false });
    await signIn(page, url(), "learner@nordlys.test");
    await page.goto(url(`/courses/${ids.course}/lessons/${ids.l12}`), { waitUntil: "load" });
    expect(await page.$eval('[data-testid="scorm-needs-js"]', (el) => el.textContent)).toContain("needs JavaScript");
    expect(await page.$('[data-testid="scorm-frame"]')).toBeNull();
    expect(await page.$$eval(".episodes li", (els) => els.length)).toBe(2);
  });
});
