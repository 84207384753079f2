import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickAndWait, connectBrowser, newPage, pathOf, savePng, settled, signIn as signInAt } from "../helpers/browser";
import { startIdp, TEST_SECRET_KEY, type RunningIdp } from "../helpers/idp";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
let idp: RunningIdp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let nordlysId: number;
const HOST = "nordlys.localhost";
const CLIENT = { client_id: "lectern-e2e", client_secret: "e2e-client-secret-do-not-show" };
/** Screenshots for people to look at (not compared): SSO_SCREENSHOTS=<dir>. */
const SHOTS = process.env.SSO_SCREENSHOTS;

beforeAll(async () => {
  server = await startInProcess({ env: { SECRET_KEY: TEST_SECRET_KEY } });
  const platform = new Database(path.join(server.dataDir, "platform.sqlite"), { readonly: true });
  nordlysId = (platform.prepare("select id from organizations where url_prefix = 'nordlys'").get() as { id: number }).id;
  platform.close();
  idp = await startIdp({ clients: [{ ...CLIENT, redirect_uris: [`http://${HOST}:${server.port}/auth/sso/company/callback`] }] });
  ({ browser, close: closeBrowser } = await connectBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  await idp?.close();
});

const url = (p = "/") => `http://${HOST}:${server.port}${p}`;

function users(email: string) {
  const db = new Database(path.join(server.dataDir, `org-${nordlysId}`, "db.sqlite"), { readonly: true });
  try {
    return db.prepare("select id, role, managed_externally, first_name from users where email = ?").all(email) as Array<
      Record<string, unknown>
    >;
  } finally {
    db.close();
  }
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute("class", `theme-${t}`), theme);
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 900 });
      await savePng(page, path.join(SHOTS, `${name}-${theme}-${width}.png`));
    }
  }
  await page.setViewport({ width: 1280, height: 900 });
}

/** At the provider: its own plain login form, then its consent form. */
async function signInAtProvider(page: Page, login: string) {
  expect(page.url().startsWith(idp.issuer)).toBe(true);
  await page.type("input[name=login]", login);
  await page.type("input[name=password]", "whatever");
  await clickAndWait(page, "button[type=submit]");
  if (page.url().startsWith(idp.issuer)) await clickAndWait(page, "button[type=submit]");
}

async function ssoSignIn(page: Page, login: string) {
  await page.goto(url("/auth/login"), { waitUntil: "load" });
  await clickAndWait(page, '[data-testid="sso-company"]');
  await signInAtProvider(page, login);
}

describe("single sign-on end to end", () => {
  it("an admin adds an OpenID Connect provider on the organization's sign-in screen", async () => {
    const page = await newPage(browser, { javascript: true });
    await signInAt(page, url("").replace(/\/$/, ""), "admin@nordlys.test");
    // Hydrated before typing (settled), so React keeps what is typed.
    await page.goto(url(`/dashboard/organizations/${nordlysId}/sso`), { waitUntil: "load" });
    await settled(page);
    await page.type("#sso-label", "Continue with Company");
    await page.type("#sso-slug", "company");
    await page.type("#sso-clientId", CLIENT.client_id);
    await page.type("#sso-clientSecret", CLIENT.client_secret);
    await page.type("#sso-issuer", idp.issuer);
    // OAuth2's addresses hide when OpenID Connect is chosen (with JavaScript).
    expect(await page.$eval("#sso-tokenUrl", (el) => (el.closest("fieldset") as HTMLFieldSetElement).hidden)).toBe(true);
    await shoot(page, "settings-add");
    // With JavaScript the form posts through Remix's fetch: wait for what the new page shows.
    await page.click('[data-testid="add-driver-submit"]');
    await page.waitForSelector('[data-testid="sso-drivers"]', { timeout: 20_000 });
    expect(pathOf(page)).toBe(`/dashboard/organizations/${nordlysId}/sso`);
    const list = await page.$eval('[data-testid="sso-drivers"]', (el) => el.textContent);
    expect(list).toContain("Continue with Company");
    expect(list).toContain(`/auth/sso/company/callback`);
    expect(await page.content()).not.toContain(CLIENT.client_secret);
    await shoot(page, "settings-list");
    await page.goto(url(`/dashboard/organizations/${nordlysId}/sso/1`), { waitUntil: "load" });
    expect(await page.$eval("#sso-clientSecret", (el) => (el as HTMLInputElement).value)).toBe("");
    expect(await page.content()).not.toContain(CLIENT.client_secret);
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
  });

  it("with JavaScript off, the same screen adds a plain OAuth2 provider (both kinds' fields show)", async () => {
    const page = await newPage(browser, { javascript: false });
    await signInAt(page, url("").replace(/\/$/, ""), "admin@nordlys.test");
    await page.goto(url(`/dashboard/organizations/${nordlysId}/sso`), { waitUntil: "load" });
    expect(await page.$eval("#sso-tokenUrl", (el) => (el.closest("fieldset") as HTMLFieldSetElement).hidden)).toBe(false);
    await page.select("#sso-kind", "oauth2");
    await page.type("#sso-label", "Company (OAuth2)");
    await page.type("#sso-slug", "company-oauth");
    await page.type("#sso-clientId", CLIENT.client_id);
    await page.type("#sso-clientSecret", CLIENT.client_secret);
    await page.type("#sso-authorizationUrl", `${idp.issuer}/auth`);
    await page.type("#sso-tokenUrl", `${idp.issuer}/token`);
    // The user-info address is missing: the page says so, and keeps what was typed (but not the secret).
    await clickAndWait(page, '[data-testid="add-driver-submit"]');
    expect(await page.$eval("#sso-userinfoUrl + .field-errors, #sso-userinfoUrl ~ .field-errors", (el) => el.textContent)).toBeTruthy();
    expect(await page.$eval("#sso-label", (el) => (el as HTMLInputElement).value)).toBe("Company (OAuth2)");
    expect(await page.content()).not.toContain(CLIENT.client_secret);
    await page.type("#sso-clientSecret", CLIENT.client_secret);
    await page.type("#sso-userinfoUrl", `${idp.issuer}/me`);
    await clickAndWait(page, '[data-testid="add-driver-submit"]');
    expect(await page.$eval('[data-testid="sso-drivers"]', (el) => el.textContent)).toContain("Company (OAuth2)");
    await page.goto(url(`/dashboard/organizations/${nordlysId}/sso/2`), { waitUntil: "load" });
    expect(await page.$eval("#sso-kind", (el) => (el as HTMLSelectElement).value)).toBe("oauth2");
    await shoot(page, "settings-edit-nojs");
  });

  it.each([
    ["on", true],
    ["off", false],
  ] as const)(
    "a new person signs in through the provider with JavaScript %s, lands on /auth/redirect and cannot edit their details",
    async (label, javascript) => {
      const login = `sso.person.${label}`;
      const email = `${login}@idp.test`;
      const page = await newPage(browser, { javascript });
      await page.goto(url("/auth/login"), { waitUntil: "load" });
      if (javascript) await shoot(page, "login");
      const redirects: string[] = [];
      page.on("response", (res) => {
        if (res.url().includes("/auth/redirect")) redirects.push(res.url());
      });
      await ssoSignIn(page, login);
      expect(redirects.length).toBeGreaterThan(0); // through /auth/redirect
      expect(pathOf(page)).toBe("/welcome"); // a new learner is greeted first
      expect(users(email)).toMatchObject([{ role: "learner", managed_externally: 1, first_name: "Sso" }]);

      await page.goto(url("/profile"), { waitUntil: "load" });
      expect(await page.$eval("#firstName", (el) => (el as HTMLInputElement).disabled)).toBe(true);
      await page.goto(url("/auth/password"), { waitUntil: "load" });
      expect(await page.$("input[name=currentPassword]")).toBeNull();

      // A second sign-in (a fresh browser) finds the same person.
      const again = await newPage(browser, { javascript });
      await ssoSignIn(again, login);
      expect(pathOf(again)).toBe("/welcome");
      expect(users(email)).toHaveLength(1);
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    },
  );

  it("a forged state fails closed with a clear message and no session", async () => {
    const page = await newPage(browser, { javascript: false });
    await page.goto(url("/auth/login"), { waitUntil: "load" });
    await clickAndWait(page, '[data-testid="sso-company"]');
    expect(page.url().startsWith(idp.issuer)).toBe(true); // at the provider's sign-in page
    await page.goto(url(`/auth/sso/company/callback?code=stolen&state=forged`), { waitUntil: "load" });
    expect(pathOf(page)).toBe("/auth/login");
    expect(await page.$eval(".form-message-error", (el) => el.textContent)).toMatch(/could not be verified|kunne ikke bekræftes/);
    await shoot(page, "login-error");
    await page.goto(url("/profile"), { waitUntil: "load" });
    expect(pathOf(page)).toBe("/auth/login");
  });

  it("an ID token for another audience fails closed", async () => {
    const page = await newPage(browser, { javascript: true });
    idp.tamper.mode = "aud";
    try {
      await ssoSignIn(page, "wrong.audience");
    } finally {
      idp.tamper.mode = null;
    }
    expect(pathOf(page)).toBe("/auth/login");
    expect(new URL(page.url()).searchParams.get("sso")).toBe("id_token");
    expect(await page.$eval(".form-message-error", (el) => el.textContent)).toBeTruthy();
    expect(users("wrong.audience@idp.test")).toHaveLength(0);
    await page.goto(url("/profile"), { waitUntil: "load" });
    expect(pathOf(page)).toBe("/auth/login");
  });
});
