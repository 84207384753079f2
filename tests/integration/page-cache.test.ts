import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { request, type HttpResponse } from "../helpers/http";
import { languageCookie } from "../../app/utils/i18n.server";
import { themeCookie } from "../../app/utils/preferences.server";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Visitors' browsing pages are kept rendered (server/page-cache.ts, docs/decisions/026-visitor-page-cache.md)
 * and are never stale: every change to what they show — through the app, by another process writing the
 * tenant's file, or to the organization's record — is on the next page. Signed-in people, flash messages
 * and Authorization headers are never served a kept page, and each reply carries its own CSP nonce.
 */
let server: InProcessServer;
let learner: string;
let adminToken: string;
const ORG = "acme.localhost";

beforeAll(async () => {
  server = await startInProcess();
  learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
  adminToken = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
});
afterAll(() => server?.stop());

const visit = (p: string, headers: Record<string, string> = {}) => request(server.port, ORG, p, { headers });
const nonceOf = (res: HttpResponse) => /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))![1];
/** The page with its nonce taken out: two replies of the same page differ in nothing else. */
const withoutNonce = (res: HttpResponse) => res.body.split(nonceOf(res)).join("NONCE");

async function warm(p: string, headers: Record<string, string> = {}) {
  const first = await visit(p, headers);
  const second = await visit(p, headers);
  expect(first.status).toBe(200);
  expect(second.headers["x-page-cache"]).toBe("hit");
  return { first, second };
}

describe("a visitor's home page", () => {
  it("is kept, and the kept page is the page, with this reply's own nonce in its header and body", async () => {
    const { first, second } = await warm("/");
    expect(first.headers["x-page-cache"]).toBe("miss");
    expect(nonceOf(second)).not.toBe(nonceOf(first));
    expect(second.body).toContain(`nonce="${nonceOf(second)}"`);
    expect(second.body).not.toContain(nonceOf(first));
    expect(withoutNonce(second)).toBe(withoutNonce(first));
    expect(second.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
  });

  it("shows a course renamed by another process writing the database file at once", async () => {
    await warm("/");
    execTenant(server, 1, "update courses set title = 'Renamed by a script' where id = (select min(id) from courses where published = 1)");
    const after = await visit("/");
    expect(after.headers["x-page-cache"]).toBe("miss");
    expect(after.body).toContain("Renamed by a script");
  });

  it("shows a lesson and a category changed by another process at once (episode count, category name)", async () => {
    const { second } = await warm("/categories");
    expect(second.body).toContain("Compliance");
    execTenant(server, 1, "update categories set name = 'Rules and Regulations' where name = 'Compliance'");
    expect((await visit("/categories")).body).toContain("Rules and Regulations");

    const episodes = (body: string) => /data-course-id="2"[\s\S]*?<span>(\d+) episodes<\/span>/.exec(body)?.[1];
    const before = episodes((await warm("/")).second.body);
    execTenant(server, 1, "delete from lessons where id = (select max(id) from lessons where course_id = 2)");
    expect(episodes((await visit("/")).body)).toBe(String(Number(before) - 1));
  });

  it("shows a carousel the admin renames through /api at once", async () => {
    const list = await api(server, ORG, "GET", "courses-carousels", { token: adminToken });
    const payload = list.json().payload;
    const carousel = (Array.isArray(payload) ? payload : (payload.items ?? payload.data)).find((c: { published: boolean }) => c.published);
    await warm("/");
    const renamed = await api(server, ORG, "PUT", `courses-carousels/${carousel.id}`, {
      token: adminToken,
      body: { title: "Fresh picks for visitors" },
    });
    expect(renamed.status, renamed.body).toBe(200);
    const after = await visit("/");
    expect(after.body).toContain("Fresh picks for visitors");
  });

  it("shows the organization's new name at once when the platform record changes", async () => {
    await warm("/categories");
    const platform = new Database(path.join(server.dataDir, "platform.sqlite"));
    try {
      platform.prepare("update organizations set name = 'Acme Learning Co' where id = 1").run();
    } finally {
      platform.close();
    }
    const after = await visit("/categories");
    expect(after.headers["x-page-cache"]).toBe("miss");
    expect(after.body).toContain("Acme Learning Co");
  });

  it("is kept per language and theme, as the visitor's cookies and browser ask", async () => {
    const english = await warm("/", { Cookie: (await languageCookie.serialize("en")).split(";")[0] });
    const polish = await warm("/", { Cookie: (await languageCookie.serialize("pl")).split(";")[0] });
    expect(polish.second.body).toContain('lang="pl"');
    expect(english.second.body).toContain('lang="en"');
    const dark = await warm("/", { Cookie: (await themeCookie.serialize("dark")).split(";")[0] });
    expect(dark.second.body).toContain('data-theme="dark"');
  });
});

describe("learners' activity", () => {
  it("leaves a visitor's kept home in place: a rating moves only what signed-in pages read (decision 039)", async () => {
    await warm("/");
    execTenant(server, 1, "insert or replace into ratings (user_id, course_id, stars, updated_at) values (3, 2, 5, unixepoch())");
    expect((await visit("/")).headers["x-page-cache"]).toBe("hit");
  });
});

describe("never kept", () => {
  it("for a signed-in learner, who sees their own name", async () => {
    await warm("/");
    const res = await visit("/", { Cookie: learner });
    // Not the visitors' page: their own (server/learner-page-cache.ts keeps it from its second showing).
    expect(res.headers["x-page-cache"]).toBe("miss");
    expect(res.body).toContain("Leo Learner");
  });

  it("with a flash message or any cookie that is not a preference, or with an Authorization header", async () => {
    const cases: Array<Record<string, string>> = [
      { Cookie: "lectern_flash=abc" },
      { Cookie: "theme=light; other=1" },
      { Authorization: "Bearer nothing" },
    ];
    for (const headers of cases) {
      const res = await visit("/", headers);
      expect(res.headers["x-page-cache"]).toBeUndefined();
    }
  });

  it("for pages other than the browsing pages, and for Remix's data requests", async () => {
    for (const p of ["/search", "/courses/1", "/auth/login", "/?_data=root"]) {
      await visit(p);
      expect((await visit(p)).headers["x-page-cache"]).toBeUndefined();
    }
  });
});

describe("a page's texts for the browser", () => {
  it("come in a script of their own, kept by the browser for a year, not inside every page", async () => {
    const page = await visit("/", { Cookie: (await languageCookie.serialize("da")).split(";")[0] });
    // Written inert, woken after the page has loaded (app/utils/boot.server.ts).
    const src = /<script nonce="[^"]+" type="lectern\/texts" data-src="(\/i18n\/da-[0-9a-f]{10}\.js)">/.exec(page.body)?.[1];
    expect(src).toBeDefined();
    // A text no visitor's home shows (the SSO screen's) is in the script, not in the page.
    const script = await visit(src!);
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const texts = JSON.parse(JSON.parse(/^window\.__lecternTexts=JSON\.parse\((.*)\);\n$/s.exec(script.body)![1]));
    expect(texts.app.skipToContent).toBe("Gå til indhold");
    const ssoText = JSON.stringify(texts.sso).slice(2, 30);
    expect(page.body).not.toContain(ssoText);

    const stale = await visit(src!.replace(/-[0-9a-f]{10}\.js$/, "-0000000000.js"));
    expect(stale.status).toBe(200);
    expect(stale.headers["cache-control"]).toBe("no-store");
    expect((await visit("/i18n/xx-0000000000.js")).status).toBe(404);
  });
});
