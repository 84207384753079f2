import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, newPage } from "../helpers/browser";
import { codeFrom, linkFrom, startMailbox, type Mailbox } from "../helpers/mail";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
let mailbox: Mailbox;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startInProcess({ env: { SMTP_URL: mailbox.url } });
  ({ browser, close: closeBrowser } = await connectBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  await mailbox?.close();
});

const url = (host: string, path = "/") => `http://${host}:${server.port}${path}`;

/**
 * Clicks a button the way a person does, then waits for the next page. With JavaScript on, the address
 * changes before the new page is drawn, so every wait names something on the new page as well.
 */
async function submit(page: Page, button: string, waitFor: (p: Page) => Promise<boolean>) {
  await page.click(button);
  for (let i = 0; i < 200; i++) {
    try {
      if (await waitFor(page)) return;
    } catch {
      // between documents
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing happened after clicking ${button} (at ${page.url()})`);
}

const path = (p: Page) => new URL(p.url()).pathname;

for (const javascript of [true, false]) {
  describe(`signing in with JavaScript ${javascript ? "on" : "off"}`, () => {
    it("logs in to Acme with the code from the mail, then logs out to /auth/login", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url("acme.localhost", "/auth/password"), { waitUntil: "load" });
      expect(path(page)).toBe("/auth/login");

      await page.type("input[name=email]", "learner@acme.test");
      await page.type("input[name=password]", "demo1234");
      await submit(
        page,
        '[data-testid="login-submit"]',
        async (p) => path(p) === "/auth/2fa/confirm" && (await p.$("input[name=code]")) !== null,
      );

      const code = codeFrom(await mailbox.next("learner@acme.test"));
      await page.type("input[name=code]", code);
      await submit(
        page,
        '[data-testid="code-submit"]',
        async (p) => path(p) === "/auth/password" && (await p.$eval("h1", (el) => el.textContent).catch(() => "")) === "Change password",
      );
      expect(await page.$eval("h1", (el) => el.textContent)).toBe("Change password");
      expect(await page.$eval('[data-testid="user-name"]', (el) => el.textContent)).toBe("Leo Learner");

      await submit(page, '[data-testid="logout"]', async (p) => path(p) === "/auth/login" && (await p.$('[data-testid="flash"]')) !== null);
      expect(await page.$eval('[data-testid="flash"]', (el) => el.textContent)).toBe("You have been signed out.");
      await page.goto(url("acme.localhost", "/auth/password"), { waitUntil: "load" });
      expect(path(page)).toBe("/auth/login");
      await page.browserContext().close();
    });

    it("shows the spec's message for a wrong password", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url("acme.localhost", "/auth/login"), { waitUntil: "load" });
      await page.type("input[name=email]", "learner@acme.test");
      await page.type("input[name=password]", "wrong-password");
      await submit(
        page,
        '[data-testid="login-submit"]',
        async (p) => ((await p.$eval(".form-message", (el) => el.textContent).catch(() => "")) ?? "").length > 0,
      );
      expect(await page.$eval(".form-message", (el) => el.textContent)).toBe("The entered password is invalid.");
      // Without JavaScript the page comes back from the server, which never echoes a password.
      if (!javascript) expect(await page.$eval("input[name=password]", (el) => (el as HTMLInputElement).value)).toBe("");
      await page.browserContext().close();
    });

    it("signs in to Nordlys with an e-mailed sign-in link", async () => {
      const page = await newPage(browser, { javascript });
      await page.goto(url("nordlys.localhost", "/auth/magic"), { waitUntil: "load" });
      await page.type("input[name=email]", "learner@nordlys.test");
      await submit(page, "button.primary", async (p) => (await p.$('[data-testid="flash"]')) !== null);
      const link = linkFrom(await mailbox.next("learner@nordlys.test"));
      await page.goto(link.href, { waitUntil: "load" });
      if (!javascript) {
        expect(path(page)).toBe("/auth/magic");
        await submit(
          page,
          '[data-testid="magic-continue"]',
          async (p) => path(p) === "/" && (await p.$('[data-testid="user-name"]')) !== null,
        );
      } else {
        await page.waitForFunction(() => location.pathname === "/" && !location.search.includes("auth="));
      }
      expect(new URL(page.url()).search).toBe("");
      await page.waitForSelector('[data-testid="user-name"]');
      expect(await page.$eval('[data-testid="user-name"]', (el) => el.textContent)).toBe("Lars Larsen");
      await page.browserContext().close();
    });
  });
}
