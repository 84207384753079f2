import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, request, setCookie } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess();
});
afterAll(() => server?.stop());

const htmlClass = (body: string) => body.match(/<html[^>]*class="([^"]+)"/)?.[1];
const htmlLang = (body: string) => body.match(/<html[^>]*lang="([^"]+)"/)?.[1];

describe("theme", () => {
  it("is light by default for organization 1 and dark for the others", async () => {
    expect(htmlClass((await request(server.port, "acme.localhost", "/")).body)).toBe("theme-light");
    expect(htmlClass((await request(server.port, "nordlys.localhost", "/")).body)).toBe("theme-dark");
    expect(htmlClass((await request(server.port, "localhost", "/")).body)).toBe("theme-dark");
  });

  it("is switched by a form post that sets a host-only cookie and goes back", async () => {
    const res = await request(server.port, "acme.localhost", "/theme", form({ theme: "dark", redirectTo: "/" }));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/");
    const cookie = setCookie(res, "theme")!;
    expect(cookie).toMatch(/^theme=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Domain=/i);
    const page = await request(server.port, "acme.localhost", "/", { headers: { Cookie: cookie.split(";")[0] } });
    expect(htmlClass(page.body)).toBe("theme-dark");
  });

  it("refuses a bad theme and an off-site redirect", async () => {
    const bad = await request(server.port, "acme.localhost", "/theme", form({ theme: "purple" }));
    expect(bad.status).toBe(400);
    expect(setCookie(bad, "theme")).toBeUndefined();
    const offsite = await request(server.port, "acme.localhost", "/theme", form({ theme: "dark", redirectTo: "//evil.example/" }));
    expect(offsite.headers.location).toBe("/");
  });
});

describe("language", () => {
  it("defaults to the organization's language", async () => {
    const nordlys = await request(server.port, "nordlys.localhost", "/");
    expect(htmlLang(nordlys.body)).toBe("da");
    expect(nordlys.body).toContain("Kurser");
    expect(nordlys.body).toContain("Skift sprog");
  });

  it("follows Accept-Language where there is no organization language", async () => {
    const page = await request(server.port, "localhost", "/", { headers: { "Accept-Language": "sv-SE,sv;q=0.9" } });
    expect(htmlLang(page.body)).toBe("sv");
    expect(page.body).toContain("Det här är Lecterns plattformsadress");
  });

  it("falls back to English for a language we do not have", async () => {
    const page = await request(server.port, "localhost", "/", { headers: { "Accept-Language": "fr" } });
    expect(htmlLang(page.body)).toBe("en");
  });

  it("is switched by a form post, and the choice wins over the organization's language", async () => {
    const res = await request(server.port, "nordlys.localhost", "/language", form({ language: "pl", redirectTo: "/" }));
    expect(res.status).toBe(302);
    const cookie = setCookie(res, "lng")!.split(";")[0];
    const page = await request(server.port, "nordlys.localhost", "/", { headers: { Cookie: cookie } });
    expect(htmlLang(page.body)).toBe("pl");
    expect(page.body).toContain(`<h1 class="visually-hidden">Kursy</h1>`);
  });

  it("shows the 404 page in the visitor's language", async () => {
    const page = await request(server.port, "nordlys.localhost", "/findes-ikke");
    expect(page.status).toBe(404);
    expect(page.body).toContain("Siden kunne ikke findes");
  });
});

describe("dates", () => {
  it("are formatted in the Danish locale by default, whatever the interface language", async () => {
    const page = await request(server.port, "acme.localhost", "/");
    // Danish medium dates read like "21. nov. 2026".
    expect(page.body).toMatch(/Added \d{1,2}\. [a-z]{3}\. \d{4}/);
  });
});

describe("security headers", () => {
  it("sends a CSP with a fresh nonce that the page's scripts carry", async () => {
    const a = await request(server.port, "acme.localhost", "/");
    const b = await request(server.port, "acme.localhost", "/");
    const nonceOf = (csp: string | undefined) => csp?.match(/'nonce-([^']+)'/)?.[1];
    const nonce = nonceOf(a.headers["content-security-policy"] as string);
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(nonceOf(b.headers["content-security-policy"] as string));
    const scripts = [...a.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    expect(a.headers["referrer-policy"]).toBe("no-referrer");
    expect(a.headers["x-powered-by"]).toBeUndefined();
  });
});
