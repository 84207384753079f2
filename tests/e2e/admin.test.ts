import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickAndWait, connectBrowser, newPage, pathOf, signIn as signInAt } from "../helpers/browser";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { tempDir } from "../helpers/temp";

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let logoFile: string;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  logoFile = path.join(tempDir("lectern-logo-"), "logo.png");
  fs.writeFileSync(
    logoFile,
    await sharp({ create: { width: 160, height: 48, channels: 3, background: "#22aa66" } })
      .png()
      .toBuffer(),
  );
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const url = (host: string, p = "/") => `http://${host}:${server.port}${p}`;
const signIn = (page: Page, host: string, email: string) => signInAt(page, url(host, "").replace(/\/$/, ""), email);

describe("with JavaScript off", () => {
  it("a super-admin creates an organization and gives it a logo that shows on its pages", async () => {
    const page = await newPage(browser, { javascript: false });
    await signIn(page, "localhost", "super@lectern.test");
    expect(pathOf(page)).toBe("/admin");

    await page.goto(url("localhost", "/admin/organizations"), { waitUntil: "load" });
    await page.type("input[name=name]", "Harbour Institute");
    await page.select("form[method=post] select[name=language]", "sv");
    await page.type("input[name=urlPrefix]", "harbour");
    await clickAndWait(page, '[data-testid="create-organization"]');
    expect(pathOf(page)).toMatch(/^\/admin\/organizations\/\d+$/);
    expect(await page.$eval('[data-testid="flash"]', (el) => el.textContent)).toBe("The organization has been created.");

    const input = await page.$('[data-testid="upload-logo"]');
    await (input as unknown as { uploadFile: (f: string) => Promise<void> }).uploadFile(logoFile);
    await clickAndWait(page, '[data-testid="submit-logo"]');
    expect(await page.$('[data-testid="preview-logo"]')).not.toBeNull();

    const visitor = await newPage(browser, { javascript: false });
    await visitor.goto(url("harbour.localhost"), { waitUntil: "load" });
    expect(await visitor.$eval(".brand-name", (el) => el.textContent)).toBe("Harbour Institute");
    const size = await visitor.$eval(".brand-logo", (img) => ({
      w: (img as HTMLImageElement).naturalWidth,
      h: (img as HTMLImageElement).naturalHeight,
    }));
    expect(size).toEqual({ w: 160, h: 48 });
    await visitor.browserContext().close();
    await page.browserContext().close();
  });

  it("an organization admin adds a user and deletes one through the confirmation", async () => {
    const page = await newPage(browser, { javascript: false });
    await signIn(page, "nordlys.localhost", "admin@nordlys.test");
    expect(pathOf(page)).toBe("/dashboard");

    await page.goto(url("nordlys.localhost", "/dashboard/users"), { waitUntil: "load" });
    await clickAndWait(page, '[data-testid="add-user"]');
    await page.type("input[name=firstName]", "Freja");
    await page.type("input[name=lastName]", "Frost");
    await page.type("input[name=email]", "freja@nordlys.test");
    await clickAndWait(page, '[data-testid="save-user"]');
    expect(pathOf(page)).toBe("/dashboard/users");
    expect(await page.$('tr[data-email="freja@nordlys.test"]')).not.toBeNull();

    await clickAndWait(page, 'tr[data-email="freja@nordlys.test"] a');
    await clickAndWait(page, '[data-testid="delete-user"]');
    const question = await page.$eval("h1", (el) => el.textContent);
    expect(question).toBeTruthy();
    await clickAndWait(page, '[data-testid="confirm-delete"]');
    expect(pathOf(page)).toBe("/dashboard/users");
    expect(await page.$('[data-testid="flash"]')).not.toBeNull();
    expect(await page.$('tr[data-email="freja@nordlys.test"]')).toBeNull();
    await page.browserContext().close();
  });
});
