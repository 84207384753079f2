import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agePast, api, cookieFrom, loginApi, loginPage, postForm, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { codeFrom, startMailbox, type Mailbox } from "../helpers/mail";
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

describe("signing in on a page", () => {
  it("without two-factor (Nordlys): the cookie signs in at once, host-only and HttpOnly", async () => {
    const { res, cookie } = await loginPage(server, "nordlys.localhost", "learner@nordlys.test");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/auth/redirect");
    const line = res.headers["set-cookie"]!.find((c) => c.startsWith("lectern_session="))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).not.toMatch(/Domain=/i);
    expect(line).toMatch(/Max-Age=2592000/);
    const landing = await page("nordlys.localhost", "/auth/redirect", cookie);
    expect(landing.status).toBe(302);
    expect(landing.headers.location).toBe("/welcome"); // a learner who has not started anything yet
    const home = await page("nordlys.localhost", "/", cookie);
    expect(home.body).toContain('data-testid="user-name"');
    expect(home.body).toContain("Lars Larsen");
  });

  it("with two-factor (Acme): the code from the mail completes it, and nothing opens before", async () => {
    const { res, cookie } = await loginPage(server, "acme.localhost", "learner@acme.test");
    expect(res.headers.location).toBe("/auth/2fa/confirm?redirectTo=%2Fauth%2Fredirect");
    const mail = await mailbox.next("learner@acme.test");
    expect(mail.subject).toBe("Your sign-in code for Acme Academy");
    expect(mail.text).toContain("valid for 10 minutes");

    // Between the password and the code, the cookie reaches nothing but the code step.
    const guarded = await page("acme.localhost", "/auth/password", cookie);
    expect(guarded.status).toBe(302);
    expect(guarded.headers.location).toBe("/auth/2fa/confirm");
    expect((await page("acme.localhost", "/", cookie)).body).not.toContain("Leo Learner");
    const step = await page("acme.localhost", "/auth/2fa/confirm", cookie);
    expect(step.status).toBe(200);
    expect(step.body).toContain("learner@acme.test");

    const confirm = await postForm(
      server,
      "acme.localhost",
      "/auth/2fa/confirm?redirectTo=%2Fauth%2Fpassword",
      { intent: "confirm", code: codeFrom(mail) },
      cookie!,
    );
    expect(confirm.status).toBe(302);
    expect(confirm.headers.location).toBe("/auth/password");
    expect((await page("acme.localhost", "/auth/password", cookie)).status).toBe(200);
  });

  it("shows the spec's three login messages", async () => {
    const wrong = await postForm(server, "nordlys.localhost", "/auth/login", { email: "learner@nordlys.test", password: "not-it" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("Den indtastede adgangskode er forkert."); // Nordlys speaks Danish
    // Acme speaks English: the spec's own wording.
    const wrongEn = await postForm(server, "acme.localhost", "/auth/login", { email: "learner@acme.test", password: "not-it" });
    expect(wrongEn.body).toContain("The entered password is invalid.");
    const unknown = await postForm(server, "acme.localhost", "/auth/login", { email: "nobody@acme.test", password: "whatever" });
    expect(unknown.body).toContain("User not found, try again.");
    expect(cookieFrom(unknown, "lectern_session")).toBeNull();
  });

  it("says 'you do not have access to this organization' to a person without a role here", async () => {
    // A person removed from the organization keeps the account (and history) but not the access.
    const db = tenantDb(server, 1);
    db.prepare("update users set role = null where email = 'admin@acme.test'").run();
    db.close();
    const { res } = await loginPage(server, "acme.localhost", "admin@acme.test");
    expect(res.body).toContain("You do not have access to this organization.");
    const apiRes = await api(server, "acme.localhost", "POST", "auth/login", { body: { email: "admin@acme.test", password: "demo1234" } });
    expect(apiRes.status).toBe(403);
    expect(apiRes.json().payload.code).toBe("organization");
    const db2 = tenantDb(server, 1);
    db2.prepare("update users set role = 'admin' where email = 'admin@acme.test'").run();
    db2.close();
  });

  it("validates the form and keeps the password out of the reply", async () => {
    const res = await postForm(server, "acme.localhost", "/auth/login", { email: "not-an-address", password: "secret-typed" });
    expect(res.status).toBe(400);
    expect(res.body).toContain("Enter a valid e-mail address.");
    expect(res.body).not.toContain("secret-typed");
  });
});

describe("signing in through /api", () => {
  it("answers the three login errors in the envelope with their codes", async () => {
    const wrong = await api(server, "acme.localhost", "POST", "auth/login", {
      body: { email: "learner@acme.test", password: "nope-nope" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json()).toMatchObject({
      error: true,
      status: 401,
      payload: { code: "invalid_password", message: "The entered password is invalid." },
    });
    const unknown = await api(server, "acme.localhost", "POST", "auth/login", {
      body: { email: "ghost@acme.test", password: "nope-nope" },
    });
    expect(unknown.json().payload).toMatchObject({ code: "user_not_found", message: "User not found, try again." });
    const invalid = await api(server, "acme.localhost", "POST", "auth/login", { body: { email: "x" } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.json().payload.fields).sort()).toEqual(["email", "password"]);
  });

  it("gives a token that is pending until the e-mailed code, then reaches the user", async () => {
    const { token, two_factor_pending } = await loginApi(server, "acme.localhost", "learner@acme.test");
    expect(two_factor_pending).toBe(true);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const code = codeFrom(await mailbox.next("learner@acme.test"));
    for (const [method, path] of [
      ["POST", "auth/user"],
      ["GET", "devices"],
      ["POST", "auth/refresh"],
    ] as const) {
      const res = await api(server, "acme.localhost", method, path, { token });
      expect(res.status, path).toBe(401);
      expect(res.json().payload.code).toBe("two_factor_pending");
    }
    const confirmed = await api(server, "acme.localhost", "POST", "auth/2fa", { token, body: { code } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json().payload.user.is_2fa_confirmed).toBe(true);
    const me = await api(server, "acme.localhost", "POST", "auth/user", { token });
    expect(me.json().payload).toMatchObject({ email: "learner@acme.test", type: "learner", organization_id: 1, is_2fa_confirmed: true });
    expect(me.body).not.toContain("password");
  });

  it("signs in at once where the organization does not ask for a code", async () => {
    const { token, two_factor_pending } = await loginApi(server, "nordlys.localhost", "admin@nordlys.test");
    expect(two_factor_pending).toBe(false);
    const me = await api(server, "nordlys.localhost", "POST", "auth/user", { token });
    expect(me.json().payload).toMatchObject({ email: "admin@nordlys.test", type: "admin" });
  });

  it("never reads a token from the query string", async () => {
    const { token } = await loginApi(server, "nordlys.localhost", "learner@nordlys.test");
    const res = await api(server, "nordlys.localhost", "POST", `auth/user?token=${token}`);
    expect(res.status).toBe(401);
    const res2 = await api(server, "nordlys.localhost", "POST", `auth/user?access_token=${token}`);
    expect(res2.status).toBe(401);
  });
});

describe("the e-mailed code", () => {
  async function pending() {
    const { token } = await loginApi(server, "acme.localhost", "learner@acme.test");
    return { token, code: codeFrom(await mailbox.next("learner@acme.test")) };
  }
  const confirm = (token: string, code: string) => api(server, "acme.localhost", "POST", "auth/2fa", { token, body: { code } });

  it("expires after 10 minutes", async () => {
    const { token, code } = await pending();
    agePast(server, 1, "update sessions set two_factor_issued_at = two_factor_issued_at - 601 where two_factor_pending = 1");
    const res = await confirm(token, code);
    expect(res.status).toBe(422);
    expect(res.json().payload.code).toBe("expired");
  });

  it("is single use: a spent code does not confirm another sign-in", async () => {
    const first = await pending();
    expect((await confirm(first.token, first.code)).status).toBe(200);
    const second = await pending();
    if (second.code !== first.code) {
      expect((await confirm(second.token, first.code)).json().payload.code).toBe("invalid");
    }
    expect((await confirm(second.token, second.code)).status).toBe(200);
  });

  it("is voided by a resend; the new one works", async () => {
    const { token, code: old } = await pending();
    const resent = await api(server, "acme.localhost", "POST", "auth/2fa/resend", { token });
    expect(resent.status).toBe(200);
    const fresh = codeFrom(await mailbox.next("learner@acme.test"));
    if (fresh !== old) expect((await confirm(token, old)).json().payload.code).toBe("invalid");
    expect((await confirm(token, fresh)).status).toBe(200);
  });

  it("allows at most 5 tries; the fifth wrong one ends the sign-in, so even the right code fails", async () => {
    const { token, code } = await pending();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i <= 4; i++) expect((await confirm(token, wrong)).json().payload.code).toBe("invalid");
    expect((await confirm(token, wrong)).json().payload.code).toBe("too_many_attempts");
    expect((await confirm(token, code)).status).toBe(401); // the pending session is gone (auth-hardening.test.ts)
  });

  it("limits resends", async () => {
    const { token } = await pending();
    for (let i = 0; i < 4; i++) {
      expect((await api(server, "acme.localhost", "POST", "auth/2fa/resend", { token })).status).toBe(200);
      await mailbox.next("learner@acme.test");
    }
    const refused = await api(server, "acme.localhost", "POST", "auth/2fa/resend", { token });
    expect(refused.status).toBe(429);
    expect(refused.json().payload.code).toBe("too_many_sends");
  });

  it("works on the page, with resend, without JavaScript", async () => {
    const { cookie } = await loginPage(server, "acme.localhost", "learner@acme.test");
    const old = codeFrom(await mailbox.next("learner@acme.test"));
    const resend = await postForm(server, "acme.localhost", "/auth/2fa/confirm", { intent: "resend" }, cookie!);
    expect(resend.status).toBe(200);
    expect(resend.body).toContain("A new code has been sent.");
    const fresh = codeFrom(await mailbox.next("learner@acme.test"));
    if (fresh !== old) {
      const bad = await postForm(server, "acme.localhost", "/auth/2fa/confirm", { intent: "confirm", code: old }, cookie!);
      expect(bad.status).toBe(400);
      expect(bad.body).toContain("The code is not correct.");
    }
    const good = await postForm(server, "acme.localhost", "/auth/2fa/confirm", { intent: "confirm", code: fresh }, cookie!);
    expect(good.status).toBe(302);
  });
});

describe("guards", () => {
  it("sends a visitor to the login page with the way back", async () => {
    const res = await page("acme.localhost", "/auth/password");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/auth/login?redirectTo=%2Fauth%2Fpassword");
  });

  it("sends a super-admin to /admin to pick an organization, and keeps /admin off organization hosts", async () => {
    const { res, cookie } = await loginPage(server, "localhost", "super@lectern.test");
    expect(res.status).toBe(302);
    const landing = await page("localhost", "/auth/redirect", cookie);
    expect(landing.headers.location).toBe("/admin");
    const admin = await page("localhost", "/admin", cookie);
    expect(admin.status).toBe(200);
    expect(admin.body).toContain("Acme Academy");
    expect(admin.body).toContain("Nordlys Akademi");

    const learner = (await loginPage(server, "nordlys.localhost", "learner@nordlys.test")).cookie;
    expect((await page("nordlys.localhost", "/admin", learner)).status).toBe(404);
    expect((await page("localhost", "/admin")).headers.location).toBe("/auth/login?redirectTo=%2Fadmin");
  });

  it("refuses a person whose role was taken away, on the very next request", async () => {
    const { cookie } = await loginPage(server, "nordlys.localhost", "admin@nordlys.test");
    const { token } = await loginApi(server, "nordlys.localhost", "admin@nordlys.test");
    expect((await page("nordlys.localhost", "/auth/password", cookie)).status).toBe(200);
    const db = tenantDb(server, 2);
    db.prepare("update users set role = null where email = 'admin@nordlys.test'").run();
    db.close();
    const res = await page("nordlys.localhost", "/auth/password", cookie);
    expect(res.headers.location).toBe("/auth/no-access");
    expect((await page("nordlys.localhost", "/auth/no-access", cookie)).body).toContain("Du har ikke adgang til denne organisation.");
    expect((await api(server, "nordlys.localhost", "POST", "auth/user", { token })).status).toBe(403);
    const db2 = tenantDb(server, 2);
    db2.prepare("update users set role = 'admin' where email = 'admin@nordlys.test'").run();
    db2.close();
  });

  it("saves a person's own name and language from /profile, and no one else's", async () => {
    const { cookie } = await loginPage(server, "nordlys.localhost", "learner@nordlys.test");
    const saved = await postForm(
      server,
      "nordlys.localhost",
      "/profile?index",
      { firstName: " Lise ", lastName: "Lund", language: "sv" },
      cookie!,
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe("/profile");
    const shown = await page("nordlys.localhost", "/profile", cookie);
    expect(shown.body).toContain('value="Lise"');
    expect(shown.body).toContain('value="Lund"');
    const db = tenantDb(server, 2);
    const row = (email: string) => db.prepare("select first_name, last_name, language from users where email = ?").get(email);
    expect(row("learner@nordlys.test")).toEqual({ first_name: "Lise", last_name: "Lund", language: "sv" });
    expect(row("admin@nordlys.test")).not.toMatchObject({ first_name: "Lise" });
    // "Default" clears the language; the name goes back for the tests that follow.
    await postForm(server, "nordlys.localhost", "/profile?index", { firstName: "Lars", lastName: "Larsen", language: "" }, cookie!);
    expect(row("learner@nordlys.test")).toEqual({ first_name: "Lars", last_name: "Larsen", language: null });
    db.close();
  });

  it("keeps accounts managed by an external platform from editing their details", async () => {
    const db = tenantDb(server, 2);
    db.prepare("update users set managed_externally = 1 where email = 'learner@nordlys.test'").run();
    db.close();
    const { cookie } = await loginPage(server, "nordlys.localhost", "learner@nordlys.test");
    const profile = await postForm(
      server,
      "nordlys.localhost",
      "/profile?index",
      { firstName: "Changed", lastName: "", language: "" },
      cookie!,
    );
    expect(profile.status).toBe(403);
    const password = await postForm(
      server,
      "nordlys.localhost",
      "/auth/password",
      { currentPassword: "demo1234", password: "another1", passwordConfirmation: "another1" },
      cookie!,
    );
    expect(password.status).toBe(403);
    expect(password.body).toContain("Din konto administreres af en ekstern platform");
    const db2 = tenantDb(server, 2);
    expect(db2.prepare("select first_name from users where email = 'learner@nordlys.test'").pluck().get()).toBe("Lars");
    db2.prepare("update users set managed_externally = 0 where email = 'learner@nordlys.test'").run();
    db2.close();
  });

  it("refuses a disabled person's session and token at once", async () => {
    const { cookie } = await loginPage(server, "nordlys.localhost", "learner@nordlys.test");
    const { token } = await loginApi(server, "nordlys.localhost", "learner@nordlys.test");
    const db = tenantDb(server, 2);
    db.prepare("update users set disabled_at = unixepoch() where email = 'learner@nordlys.test'").run();
    db.close();
    expect((await page("nordlys.localhost", "/auth/password", cookie)).headers.location).toMatch(/^\/auth\/login/);
    expect((await api(server, "nordlys.localhost", "POST", "auth/user", { token })).status).toBe(401);
    const again = await loginPage(server, "nordlys.localhost", "learner@nordlys.test");
    expect(again.cookie).toBeNull();
    const db2 = tenantDb(server, 2);
    db2.prepare("update users set disabled_at = null where email = 'learner@nordlys.test'").run();
    db2.close();
  });
});
