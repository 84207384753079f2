import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agePast, api, cookieFrom, loginApi, loginPage, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { linkFrom, startMailbox, type Mailbox } from "../helpers/mail";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startInProcess({ env: { SMTP_URL: mailbox.url } });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

const page = (host: string, path: string, cookie?: string | null) =>
  request(server.port, host, path, { headers: cookie ? { Cookie: cookie } : {} });
const NORDLYS = "nordlys.localhost";

describe("password reset", () => {
  it("answers a known and an unknown address identically", async () => {
    const known = await api(server, "acme.localhost", "POST", "auth/reset/request", { body: { email: "admin@acme.test" } });
    const unknown = await api(server, "acme.localhost", "POST", "auth/reset/request", { body: { email: "nobody@acme.test" } });
    expect(known.status).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json().payload.message).toBe(
      "If your email address was recognized in the system, you will receive an email within a few minutes.",
    );
    await mailbox.next("admin@acme.test");
    const pageKnown = await postForm(server, "acme.localhost", "/auth/reset", { email: "learner@acme.test" });
    const pageUnknown = await postForm(server, "acme.localhost", "/auth/reset", { email: "ghost@acme.test" });
    expect([pageKnown.status, pageKnown.headers.location]).toEqual([pageUnknown.status, pageUnknown.headers.location]);
    const shown = await page("acme.localhost", "/auth/reset", cookieFrom(pageKnown, "lectern_flash"));
    expect(shown.body).toContain("If your email address was recognized in the system, you will receive an email within a few minutes.");
    await mailbox.next("learner@acme.test");
  });

  it("mails a link in the person's language, on the organization's stored origin whatever the request said", async () => {
    await api(server, NORDLYS, "POST", "auth/reset/request", {
      body: { email: "admin@nordlys.test" },
      headers: { "X-Forwarded-Host": "evil.example" },
    });
    const mail = await mailbox.next("admin@nordlys.test");
    expect(mail.subject).toBe("Nulstil din adgangskode til Nordlys Akademi");
    const link = linkFrom(mail);
    expect(link.origin).toBe(`http://nordlys.localhost:${server.port}`);
    expect(link.pathname).toMatch(/^\/auth\/reset\/admin%40nordlys\.test\/[A-Za-z0-9_-]{43}$/);
  });

  it("sets a new password with a good token, once; signs out everywhere; refuses it used or expired", async () => {
    const { token: oldToken } = await loginApi(server, NORDLYS, "learner@nordlys.test");
    await api(server, NORDLYS, "POST", "auth/reset/request", { body: { email: "learner@nordlys.test" } });
    const link = linkFrom(await mailbox.next("learner@nordlys.test"));
    const token = decodeURIComponent(link.pathname.split("/").pop()!);

    const form = await page(NORDLYS, link.pathname);
    expect(form.status).toBe(200);
    expect(form.headers["referrer-policy"]).toBe("no-referrer");
    const longPassword = "correct horse battery staple ".repeat(4); // well over 64 characters
    const reset = await postForm(server, NORDLYS, link.pathname, { password: longPassword, passwordConfirmation: longPassword });
    expect(reset.status).toBe(302);
    expect(reset.headers.location).toBe("/auth/login");
    const flashed = await page(NORDLYS, "/auth/login", cookieFrom(reset, "lectern_flash"));
    expect(flashed.body).toContain("Din adgangskode er blevet ændret.");

    expect((await api(server, NORDLYS, "POST", "auth/user", { token: oldToken })).status).toBe(401);
    expect((await loginPage(server, NORDLYS, "learner@nordlys.test", longPassword)).cookie).not.toBeNull();

    const reused = await api(server, NORDLYS, "POST", "auth/reset", {
      body: { email: "learner@nordlys.test", token, password: "another-one", password_confirmation: "another-one" },
    });
    expect(reused.status).toBe(422);
    expect(reused.json().payload.code).toBe("invalid_token");
    const usedPage = await page(NORDLYS, link.pathname);
    expect(usedPage.body).toContain("Linket er ikke længere gyldigt");

    await api(server, NORDLYS, "POST", "auth/reset/request", { body: { email: "learner@nordlys.test" } });
    const expiring = decodeURIComponent(
      linkFrom(await mailbox.next("learner@nordlys.test"))
        .pathname.split("/")
        .pop()!,
    );
    agePast(server, 2, "update password_resets set expires_at = unixepoch() - 1 where used_at is null");
    const expired = await api(server, NORDLYS, "POST", "auth/reset", {
      body: { email: "learner@nordlys.test", token: expiring, password: "demo1234", password_confirmation: "demo1234" },
    });
    expect(expired.status).toBe(422);

    // Put the demo password back for the other tests.
    await api(server, NORDLYS, "POST", "auth/reset/request", { body: { email: "learner@nordlys.test" } });
    const again = decodeURIComponent(
      linkFrom(await mailbox.next("learner@nordlys.test"))
        .pathname.split("/")
        .pop()!,
    );
    const restored = await api(server, NORDLYS, "POST", "auth/reset", {
      body: { email: "learner@nordlys.test", token: again, password: "demo1234", password_confirmation: "demo1234" },
    });
    expect(restored.status).toBe(200);
  });

  it("refuses a short password and a confirmation that does not match, changing nothing", async () => {
    const res = await api(server, "acme.localhost", "POST", "auth/reset", {
      body: { email: "learner@acme.test", token: "x", password: "12345", password_confirmation: "54321" },
    });
    expect(res.status).toBe(422);
    expect(res.json().payload.fields).toEqual({
      password: ["Use at least 6 characters."],
      password_confirmation: ["The passwords do not match."],
    });
  });

  it("stores passwords as argon2id", async () => {
    const { tenantDb } = await import("../helpers/auth");
    const db = tenantDb(server, 2);
    const hashes = db.prepare("select password_hash from users where password_hash is not null").pluck().all() as string[];
    db.close();
    expect(hashes.length).toBeGreaterThanOrEqual(2); // the demo accounts; generated learners sign in by link
    for (const hash of hashes) expect(hash).toMatch(/^\$argon2id\$/);
  });
});

describe("sign-in links", () => {
  async function linkFor(email: string, host = NORDLYS) {
    await postForm(server, host, "/auth/magic", { email });
    return linkFrom(await mailbox.next(email));
  }

  it("exchanges a code through /api once, for the organization it belongs to", async () => {
    const code = (await linkFor("learner@nordlys.test")).searchParams.get("auth")!;
    const wrongOrganization = await api(server, NORDLYS, "POST", "auth/magic-link", { body: { code, organization_id: 1 } });
    expect(wrongOrganization.status).toBe(422);
    const exchanged = await api(server, NORDLYS, "POST", "auth/magic-link", { body: { code, organization_id: 2 } });
    expect(exchanged.status).toBe(200);
    const { access_token } = exchanged.json().payload;
    const me = await api(server, NORDLYS, "POST", "auth/user", { token: access_token });
    expect(me.json().payload.email).toBe("learner@nordlys.test");
    const replay = await api(server, NORDLYS, "POST", "auth/magic-link", { body: { code, organization_id: 2 } });
    expect(replay.status).toBe(422);
    expect(replay.json().payload.code).toBe("invalid_code");
  });

  it("on a page: a GET never spends the code; the post signs in and returns without the parameter", async () => {
    const link = await linkFor("learner@nordlys.test");
    expect(link.origin).toBe(`http://nordlys.localhost:${server.port}`);
    const landing = await page(NORDLYS, `/?auth=${link.searchParams.get("auth")}`);
    expect(landing.status).toBe(303);
    const interstitial = landing.headers.location!;
    expect(interstitial).toMatch(/^\/auth\/magic\?code=/);
    // A mail scanner may fetch the page any number of times.
    for (let i = 0; i < 3; i++) expect((await page(NORDLYS, interstitial)).body).toContain('data-testid="magic-continue"');
    const code = new URL(interstitial, "http://x").searchParams.get("code")!;
    const signIn = await postForm(server, NORDLYS, interstitial, { intent: "exchange", code, redirectTo: "/" });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.location).toBe("/");
    const home = await page(NORDLYS, "/", cookieFrom(signIn, "lectern_session"));
    expect(home.body).toContain("Lars Larsen");
    const replay = await postForm(server, NORDLYS, interstitial, { intent: "exchange", code, redirectTo: "/" });
    expect(replay.status).toBe(400);
    expect(cookieFrom(replay, "lectern_session")).toBeNull();
  });

  it("expires", async () => {
    const code = (await linkFor("admin@nordlys.test")).searchParams.get("auth")!;
    agePast(server, 2, "update magic_links set expires_at = unixepoch() - 1 where used_at is null");
    expect((await api(server, NORDLYS, "POST", "auth/magic-link", { body: { code, organization_id: 2 } })).status).toBe(422);
  });
});

describe("tokens and devices", () => {
  it("refresh gives a new token and revokes the old one", async () => {
    const { token } = await loginApi(server, NORDLYS, "admin@nordlys.test");
    const refreshed = await api(server, NORDLYS, "POST", "auth/refresh", { token });
    expect(refreshed.status).toBe(200);
    const fresh = refreshed.json().payload.token;
    expect(fresh).not.toBe(token);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token })).status).toBe(401);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token: fresh })).status).toBe(200);
  });

  it("logout revokes the token; a page logout revokes the cookie's session and lands on /auth/login", async () => {
    const { token } = await loginApi(server, NORDLYS, "admin@nordlys.test");
    expect((await api(server, NORDLYS, "POST", "auth/logout", { token })).status).toBe(200);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token })).status).toBe(401);

    const { cookie } = await loginPage(server, NORDLYS, "admin@nordlys.test");
    const out = await postForm(server, NORDLYS, "/auth/logout", {}, cookie!);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe("/auth/login");
    expect((await page(NORDLYS, "/auth/password", cookie)).headers.location).toMatch(/^\/auth\/login/);
  });

  it("lists the person's devices and revokes one, which fails on its very next call", async () => {
    const phone = (await loginApi(server, NORDLYS, "admin@nordlys.test")).token;
    const laptop = (await loginApi(server, NORDLYS, "admin@nordlys.test")).token;
    const list = await api(server, NORDLYS, "GET", "devices", { token: phone });
    expect(list.status).toBe(200);
    const devices = list.json().payload.data as Array<{ id: number; current: boolean }>;
    expect(devices.filter((d) => d.current)).toHaveLength(1);
    const me = devices.find((d) => d.current)!;
    const other = devices.find((d) => !d.current)!;
    expect((await api(server, NORDLYS, "DELETE", `devices/${other.id}`, { token: phone })).status).toBe(200);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token: laptop })).status).toBe(401);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token: phone })).status).toBe(200);

    // Another person's device is not found, and stays signed in.
    const learner = (await loginApi(server, NORDLYS, "learner@nordlys.test")).token;
    const learnerDevice = (await api(server, NORDLYS, "GET", "devices", { token: learner })).json().payload.data[0].id;
    expect((await api(server, NORDLYS, "DELETE", `devices/${learnerDevice}`, { token: phone })).status).toBe(404);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token: learner })).status).toBe(200);
    expect(me.id).toBeGreaterThan(0);
  });

  it("refuses a token past its 30 days", async () => {
    const { token } = await loginApi(server, NORDLYS, "learner@nordlys.test");
    expect((await api(server, NORDLYS, "POST", "auth/user", { token })).status).toBe(200);
    agePast(server, 2, "update sessions set expires_at = unixepoch() - 1");
    expect((await api(server, NORDLYS, "POST", "auth/user", { token })).status).toBe(401);
  });

  it("keeps one organization's cookie and token out of another", async () => {
    const { cookie } = await loginPage(server, NORDLYS, "admin@nordlys.test");
    const { token } = await loginApi(server, NORDLYS, "admin@nordlys.test");
    expect((await api(server, "acme.localhost", "POST", "auth/user", { token })).status).toBe(401);
    const acmePage = await page("acme.localhost", "/auth/password", cookie);
    expect(acmePage.status).toBe(302);
    expect(acmePage.headers.location).toMatch(/^\/auth\/login/);
    expect((await page("acme.localhost", "/", cookie)).body).not.toContain("Astrid");
  });
});

describe("changing the password", () => {
  it("needs the current password, then signs out the other devices but not this one", async () => {
    const { cookie } = await loginPage(server, NORDLYS, "admin@nordlys.test");
    const { token: other } = await loginApi(server, NORDLYS, "admin@nordlys.test");
    const wrong = await postForm(
      server,
      NORDLYS,
      "/auth/password",
      { currentPassword: "nope-nope", password: "newpass1", passwordConfirmation: "newpass1" },
      cookie!,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("Den nuværende adgangskode er forkert.");
    const ok = await postForm(
      server,
      NORDLYS,
      "/auth/password",
      { currentPassword: "demo1234", password: "newpass1", passwordConfirmation: "newpass1" },
      cookie!,
    );
    expect(ok.status).toBe(302);
    expect((await page(NORDLYS, "/auth/password", cookie)).status).toBe(200);
    expect((await api(server, NORDLYS, "POST", "auth/user", { token: other })).status).toBe(401);
    const back = await postForm(
      server,
      NORDLYS,
      "/auth/password",
      { currentPassword: "newpass1", password: "demo1234", passwordConfirmation: "demo1234" },
      cookie!,
    );
    expect(back.status).toBe(302);
  });
});
