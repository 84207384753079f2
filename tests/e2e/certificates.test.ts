import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "puppeteer";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import da from "../../locales/da/certificates.json";
import { clickAndWait, clickUntil, connectBrowser, newPage, pathOf, signIn as signInAt, until } from "../helpers/browser";
import { request } from "../helpers/http";
import { pdfText } from "../helpers/pdf";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

/**
 * Issue 12's "done when", with JavaScript off and on: an admin designs a template with a background and
 * placeholders, previews it, and puts a course with certificates on it; a learner completes the course
 * and gets a PDF whose text holds their name, the course and the verification address; the public page
 * confirms it; the admin revokes it and the page says so.
 */
let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let background: string;
const T = da.certificates; // Nordlys speaks Danish
const HOST = "nordlys.localhost";

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  background = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bg-")), "background.png");
  await sharp({ create: { width: 600, height: 420, channels: 3, background: { r: 250, g: 236, b: 200 } } })
    .png()
    .toFile(background);
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  fs.rmSync(path.dirname(background), { recursive: true, force: true });
});

const url = (p = "/") => `http://${HOST}:${server.port}${p}`;
const signIn = (page: Page, email: string) => signInAt(page, url("").replace(/\/$/, ""), email);
const cookieHeader = async (page: Page) => (await page.browserContext().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

// The two runs side by side (each with its own course, template and certificate): the file takes as long as
// the longer, not the sum.
describe.concurrent.each([false, true])("certificates with JavaScript %s", (javascript) => {
  it("are designed, issued on completion, downloaded as a PDF, verified and revoked", async () => {
    const title = `Bevis-kursus ${javascript ? "JS" : "HTML"}`;
    const admin = await newPage(browser, { javascript });
    await signIn(admin, "admin@nordlys.test");

    // A course with certificates on, one lesson, published.
    await admin.goto(url("/dashboard/organizations/2/courses"), { waitUntil: "load" });
    await clickAndWait(admin, '[data-testid="create-course"]');
    await admin.waitForSelector("input[name=title]"); // the form is drawn (a busy machine draws late)
    await admin.type("input[name=title]", title);
    await admin.select("select[name=type]", "series");
    await admin.click("input[name=allow_certificates]");
    await clickAndWait(admin, '[data-testid="save-course"]');
    const courseId = Number(pathOf(admin).split("/").pop());
    expect(courseId).toBeGreaterThan(0);
    await admin.waitForSelector("#lesson_title"); // the course's page is drawn (a busy machine draws late)
    await admin.type("#lesson_title", "Eneste afsnit");
    await clickAndWait(admin, '[data-testid="add-lesson"]');
    await clickAndWait(admin, '[data-testid="toggle-publish"]');

    // A template: background uploaded here, a block with placeholders, the course ticked, previewed, saved.
    await admin.goto(url("/dashboard/organizations/2/certificate-templates"), { waitUntil: "load" });
    await admin.type("#template-name", `Skabelon ${title}`);
    await clickAndWait(admin, '[data-testid="create-template"]');
    const upload = (await admin.waitForSelector("#background-upload")) as import("puppeteer").ElementHandle<HTMLInputElement>;
    expect(pathOf(admin)).toMatch(/\/certificate-templates\/\d+$/);
    await upload!.uploadFile(background);
    await clickAndWait(admin, ".upload-form button[type=submit]");
    await until(() => admin.$eval("#background", (el) => (el as HTMLSelectElement).value !== ""), "the uploaded background to be chosen");
    await admin.$eval("#block_0_text", (el) => ((el as HTMLTextAreaElement).value = ""));
    await admin.type("#block_0_text", "Kursusbevis til {learner_name}");
    await admin.click(`input[name=course_id][value="${courseId}"]`);
    if (javascript) {
      await admin.click('[data-testid="preview-template"]');
      await admin.waitForSelector('[data-testid="template-preview"]', { timeout: 30_000 });
    } else {
      // A renderer kept busy by the rest of the suite answers "try again in a moment" (decision 015's time
      // limit); the admin does as it says, at most three times, and then sees the preview.
      for (let tries = 0; tries < 3 && !(await admin.$('[data-testid="template-preview"]')); tries++) {
        await clickAndWait(admin, '[data-testid="preview-template"]');
      }
      expect(await admin.$('[data-testid="template-preview"]')).not.toBeNull();
      // The preview keeps what was typed, unsaved.
      expect(await admin.$eval("#block_0_text", (el) => (el as HTMLTextAreaElement).value)).toBe("Kursusbevis til {learner_name}");
    }
    expect(await admin.$eval('[data-testid="template-preview"]', (el) => (el as HTMLImageElement).src)).toMatch(/^data:image\/png;base64,/);
    await clickAndWait(admin, '[data-testid="save-template"]');
    expect(await admin.$eval(`input[name=course_id][value="${courseId}"]`, (el) => (el as HTMLInputElement).checked)).toBe(true);

    // The learner completes the course and downloads the certificate.
    const learner = await newPage(browser, { javascript });
    await signIn(learner, "learner@nordlys.test");
    await learner.goto(url(`/courses/${courseId}`), { waitUntil: "load" });
    await learner.click('[data-testid="start"]');
    await learner.waitForSelector('[data-testid="complete"]');
    await clickUntil(
      learner,
      '[data-testid="complete"]',
      async () => (await learner.$('[data-testid="lesson-completed"], [data-testid="course-certificate"]')) !== null,
    );
    await learner.goto(url(`/courses/${courseId}`), { waitUntil: "load" });
    expect(await learner.$('[data-testid="course-certificate"]')).not.toBeNull();
    await learner.goto(url("/profile/certificates"), { waitUntil: "load" });
    const card = await learner.$$eval(
      ".certificate-card",
      (els, t) => {
        const el = els.find((e) => e.textContent?.includes(t))!;
        return {
          download: el.querySelector<HTMLAnchorElement>("a.button")!.getAttribute("href")!,
          share: el.querySelector("input")!.value,
        };
      },
      title,
    );
    await learner.goto(url(card.download), { waitUntil: "load" });
    expect(await learner.$eval("main, body", (el) => el.textContent ?? "")).toContain(T.learner.preparing);
    // The page refreshes itself (meta refresh) until the PDF is ready; then it redirects to the file.
    const cookie = await cookieHeader(learner);
    let location = "";
    // The render waits its turn for Chromium: on a busy machine (the whole suite at once) that can take a minute or more.
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && !location; ) {
      const r = await request(server.port, HOST, card.download, { headers: { Cookie: cookie } });
      if (r.status === 302) location = String(r.headers.location);
      else await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(location).toMatch(/^\/files\//);
    const pdf = await request(server.port, HOST, location);
    const text = pdfText(pdf.raw);
    expect(text).toContain("Kursusbevis til Lars Larsen");
    expect(text).toContain(title);
    expect(text).toContain(card.share);

    // Anyone can verify it; after the admin revokes it, the page says so.
    const visitor = await newPage(browser, { javascript });
    await visitor.goto(card.share, { waitUntil: "load" });
    const verified = await visitor.$eval('[data-testid="verification"]', (el) => el.textContent ?? "");
    expect(verified).toContain(T.verify.valid);
    expect(verified).toContain("Lars Larsen");
    expect(verified).toContain(title);
    expect(verified).toContain("Nordlys Akademi");

    const publicId = card.share.split("/").pop()!;
    await admin.goto(url("/dashboard/organizations/2/certificates"), { waitUntil: "load" });
    await admin.type(`[data-certificate="${publicId}"] input[name=reason]`, "Udstedt ved en fejl");
    await clickAndWait(admin, `[data-testid="revoke-${publicId}"]`);
    expect(await admin.$eval(`[data-certificate="${publicId}"]`, (el) => el.textContent ?? "")).toContain(T.status.revoked);
    await visitor.goto(card.share, { waitUntil: "load" });
    expect(await visitor.$eval('[data-testid="verification"]', (el) => el.textContent ?? "")).toContain(T.verify.revoked);

    const errors = (page: Page) => (page as Page & { jsErrors: string[] }).jsErrors;
    expect(errors(learner)).toEqual([]);
    expect(errors(visitor)).toEqual([]);
    expect(errors(admin)).toEqual([]);
    for (const page of [admin, learner, visitor]) await page.browserContext().close();
    // 22-28 s on a quiet machine, 64-71 s with the whole suite running beside it, most of it Chromium
    // launched for each PDF and preview (issue 33 keeps one warm).
  }, 180_000);
});
