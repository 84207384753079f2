import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateDay } from "../../app/models/certificate-html.server";
import { connectBrowser, newPage, readyForScreenshot, savePng } from "../helpers/browser";
import { request } from "../helpers/http";
import { pdfText } from "../helpers/pdf";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ROOT } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Recertification (issue 34) in Chromium, on the demo's safety course (scripts/demo/recertification.ts): the
 * public verification page of a certificate that is still valid and of one that expired (in both themes at
 * 1280 and 390 px), the learner's certificates and course page (one width per theme), kept as screenshots in
 * tests/artifacts/screenshots/ (git-ignored) for people to look at; and the certificate's PDF, rendered by
 * the server, shows its expiry date (its first page kept as a picture too).
 */
const OUT = path.join(ROOT, "tests", "artifacts", "screenshots");
const ACME = "acme.localhost";
const WIDTHS = [1280, 390];
const THEMES = ["light", "dark"] as const;

let server: InProcessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
type Held = { id: number; publicId: string; expiresOn: string; email: string; courseId: number };
let valid: Held;
let expired: Held;

beforeAll(async () => {
  server = await startInProcess();
  ({ browser, close: closeBrowser } = await connectBrowser());
  fs.mkdirSync(OUT, { recursive: true });
  const db = new Database(path.join(server.dataDir, "org-1", "db.sqlite"), { readonly: true });
  try {
    const held = db
      .prepare(
        `select c.id, c.public_id as publicId, c.expires_on as expiresOn, u.email, c.course_id as courseId
         from certificates c join users u on u.id = c.user_id where c.expires_on is not null order by c.expires_on`,
      )
      .all() as Held[];
    const today = new Date().toISOString().slice(0, 10);
    // Days a little apart from today, so that the zone's day and UTC's agree on which side they are.
    expired = held.find((c) => c.expiresOn < today && !held.some((o) => o.email === c.email && o.expiresOn >= today))!;
    valid = held.find((c) => c.expiresOn > today)!;
  } finally {
    db.close();
  }
  expect(expired && valid, "the demo's expired and valid certificates").toBeTruthy();
  // The demo assigns the course to everyone (scripts/demo/assignments.ts), which re-opens an expired completion
  // (the page then says it is being renewed): this learner is taken out of it, so the page offers to take it again.
  const who = `(select id from users where email = '${expired.email}')`;
  execTenant(
    server,
    1,
    `delete from assignment_people where user_id = ${who} and assignment_id in (select id from assignments where course_id = ?)`,
    expired.courseId,
  );
  execTenant(
    server,
    1,
    `update course_completions set renewal_started_at = null where user_id = ${who} and course_id = ?`,
    expired.courseId,
  );
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function withTheme(page: Page, theme: (typeof THEMES)[number]) {
  const value = (await createCookie("theme", { path: "/" }).serialize(theme)).split(";")[0].split("=")[1];
  await page.setCookie({ name: "theme", value, domain: ACME, path: "/" });
}

async function signedIn(page: Page, email: string) {
  const token = insertSession(server, { organizationId: 1 }, { email, kind: "web" });
  await page.setCookie({
    name: "lectern_session",
    value: encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64")),
    domain: ACME,
    path: "/",
  });
}

type Shot = [name: string, address: string, check: (page: Page) => Promise<void>];

async function shoot(page: Page, theme: string, width: number, shots: Shot[]) {
  await page.setViewport({ width, height: width > 600 ? 860 : 844, deviceScaleFactor: 1 });
  for (const [name, address, check] of shots) {
    await page.goto(`http://${ACME}:${server.port}${address}`, { waitUntil: "load" });
    expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe(theme);
    await check(page);
    expect(await overflow(page), `${name} at ${width}`).toBeLessThanOrEqual(0);
    await readyForScreenshot(page);
    await savePng(page, path.join(OUT, `recert-${name}-${theme}-${width}.png`));
  }
}

describe("recertification's pages", () => {
  it.each(THEMES)(
    "in the %s theme",
    async (theme) => {
      const page = await newPage(browser, { javascript: true });
      await withTheme(page, theme);
      // The public verification page, as anyone sees it (signed out), at both widths.
      const verify: Shot[] = [
        [
          "verify-valid",
          `/certificates/verify/${valid.publicId}`,
          async (p) => {
            expect(await p.$eval('[data-testid="verification"]', (el) => el.getAttribute("data-state"))).toBe("valid");
            expect(await p.$eval(".verify-status", (el) => el.textContent)).toBe(`Valid until ${certificateDay(valid.expiresOn, "en")}`);
          },
        ],
        [
          "verify-expired",
          `/certificates/verify/${expired.publicId}`,
          async (p) => {
            expect(await p.$eval('[data-testid="verification"]', (el) => el.getAttribute("data-state"))).toBe("expired");
            expect(await p.$eval(".verify-status", (el) => el.textContent)).toBe(`Expired on ${certificateDay(expired.expiresOn, "en")}`);
          },
        ],
      ];
      for (const width of WIDTHS) await shoot(page, theme, width, verify);
      // The learner whose certificate expired: their certificates and the course page (one width per theme).
      await signedIn(page, expired.email);
      await shoot(page, theme, theme === "light" ? 1280 : 390, [
        [
          "certificates-expired",
          "/profile/certificates",
          async (p) => {
            expect(await p.$eval('[data-testid="certificate-validity"]', (el) => el.textContent)).toContain("Expired on");
          },
        ],
        [
          "course-expired",
          `/courses/${expired.courseId}`,
          async (p) => {
            expect(await p.$('[data-testid="retake"]')).not.toBeNull();
          },
        ],
      ]);
      expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
      await page.browserContext().close();
    },
    30_000,
  );
});

describe("the certificate", () => {
  it("shows its expiry date in the PDF the server renders", async () => {
    const cookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: valid.email, kind: "web" }));
    let location: string | undefined;
    for (let i = 0; i < 200 && !location; i++) {
      const res = await request(server.port, ACME, `/profile/certificates/${valid.id}`, { headers: { Cookie: cookie } });
      if (res.status === 302) location = res.headers.location;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(location, "the PDF's address").toBeTruthy();
    const url = new URL(location!, `http://${ACME}`);
    const pdf = await request(server.port, ACME, `${url.pathname}${url.search}`, { headers: { Cookie: cookie } });
    expect(pdf.headers["content-type"]).toContain("application/pdf");
    expect(pdfText(pdf.raw).replace(/\s+/g, " ")).toContain(`Valid until ${certificateDay(valid.expiresOn, "en")}`);
    const file = path.join(OUT, "recert-certificate.pdf");
    fs.writeFileSync(file, pdf.raw);
    execFileSync("pdftoppm", ["-png", "-r", "96", "-singlefile", file, path.join(OUT, "recert-certificate")]);
    fs.rmSync(file);
  }, 30_000);
});
