import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agePast, api, cookieFrom, DEMO_PASSWORD, loginPage, tenantDb } from "../helpers/auth";
import { form, request, type HttpResponse } from "../helpers/http";
import { codeFrom, linkFrom, startMailbox, type Mailbox } from "../helpers/mail";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Three servers, started together: one with the default settings, for the cross-site posts and for the mail
 * without SMTP (the app in this process); the rate limits and the password guessing each need settings of
 * their own (processes of their own: one app at a time in a process).
 */
let plain: InProcessServer;
let limited: RunningServer;
let guessing: RunningServer;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  [plain, limited, guessing] = await Promise.all([
    startInProcess(),
    startServer({ env: { RATE_LIMIT_AUTH: "5" } }),
    startServer({ env: { SMTP_URL: mailbox.url, TRUST_PROXY: "true" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), limited?.stop(), guessing?.stop()]);
  await mailbox?.close();
});

describe("cross-site posts (SameSite is not enough between sibling sub-domains)", () => {
  /** A signed-in browser's cookie (a session row: the sign-in form is not what these tests are about). */
  const signedIn = () => cookieFor(insertSession(plain, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  const change = (cookie: string, headers: Record<string, string>) =>
    request(plain.port, "nordlys.localhost", "/auth/password", {
      ...form({ currentPassword: "demo1234", password: "hijacked1", passwordConfirmation: "hijacked1" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...headers },
    });

  it("refuses a cookie-authenticated post from another organization's page", async () => {
    const cookie = await signedIn();
    const fromSibling = await change(cookie, { Origin: "http://acme.localhost", "Sec-Fetch-Site": "same-site" });
    expect(fromSibling.status).toBe(403);
    const byOrigin = await change(cookie, { Origin: "http://acme.localhost" });
    expect(byOrigin.status).toBe(403);
    const nullOrigin = await change(cookie, { Origin: "null" });
    expect(nullOrigin.status).toBe(403);
    // The password did not change.
    expect((await loginPage(plain, "nordlys.localhost", "admin@nordlys.test")).cookie).not.toBeNull();
  });

  it("lets the same origin post", async () => {
    const cookie = await signedIn();
    const res = await change(cookie, { Origin: "http://nordlys.localhost", "Sec-Fetch-Site": "same-origin" });
    expect(res.status).toBe(302);
    const back = await request(plain.port, "nordlys.localhost", "/auth/password", {
      ...form({ currentPassword: "hijacked1", password: "demo1234", passwordConfirmation: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(back.status).toBe(302);
  });

  it("accepts a same-origin form post that carries `Origin: null` (browsers do so under no-referrer)", async () => {
    const res = await request(plain.port, "nordlys.localhost", "/auth/login", {
      ...form({ email: "learner@nordlys.test", password: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null", "Sec-Fetch-Site": "same-origin" },
    });
    expect(res.status).toBe(302);
    const forged = await request(plain.port, "nordlys.localhost", "/auth/login", {
      ...form({ email: "learner@nordlys.test", password: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null", "Sec-Fetch-Site": "cross-site", Cookie: "theme=x" },
    });
    expect(forged.status).toBe(403);
  });

  it("refuses a cross-site sign-in post even from a browser without cookies (login CSRF)", async () => {
    const res = await request(plain.port, "nordlys.localhost", "/auth/login", {
      ...form({ email: "learner@nordlys.test", password: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://evil.localhost", "Sec-Fetch-Site": "same-site" },
    });
    expect(res.status).toBe(403);
    expect(cookieFrom(res, "lectern_session")).toBeNull();
  });

  it("does not hand a browser's session token out through /api/auth/refresh", async () => {
    const cookie = await signedIn();
    const res = await request(plain.port, "nordlys.localhost", "/api/auth/refresh", {
      method: "POST",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(res.status).toBe(405);
    expect(res.body).not.toMatch(/"token"/);
  });

  it("answers /api in the envelope", async () => {
    const cookie = await signedIn();
    const res = await request(plain.port, "nordlys.localhost", "/api/auth/logout", {
      method: "POST",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: true, status: 403, payload: { code: "cross_site" } });
  });
});

describe("rate limits and throttling", () => {
  it("limits auth posts per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await api(limited, "nordlys.localhost", "POST", "auth/reset/request", { body: { email: `x${i}@nordlys.test` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const refused = await api(limited, "nordlys.localhost", "POST", "auth/login", { body: { email: "a@b.c", password: "x" } });
    expect(refused.json()).toMatchObject({ error: true, status: 429, payload: { code: "too_many_requests" } });
    // API users see the limit and when to come back (IETF RateLimit headers, draft 7, and Retry-After).
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["ratelimit-policy"]).toBe("5;w=60");
    expect(refused.headers.ratelimit).toMatch(/^limit=5, remaining=0, reset=\d+$/);
  });
});

/**
 * Issue 44, item 5: anyone could lock a person out. 100 wrong passwords from anywhere made the right password
 * answer 429 for an hour, for its owner too. Now guesses are counted per account and client (an address, or a
 * known device), with growing waits, and per account (at most 100 failures in an hour's window); the ceiling
 * spares the account's known devices (a signed cookie set by a completed sign-in) and never touches the
 * sign-in link, and the owner is told once by mail. The server trusts X-Forwarded-For, so every request
 * below can come from an address of its own (docs/decisions/007-authentication.md "Guessing passwords").
 */
describe("guessing passwords", () => {
  const HOST = "nordlys.localhost";
  const OWNER_ADDRESS = "192.0.2.10";

  let hop = 0;
  /** A new address, as a stranger guessing from many would use. */
  const stranger = () => {
    hop++;
    return `10.44.${Math.floor(hop / 250)}.${(hop % 250) + 1}`;
  };
  /** A form posted as a browser without JavaScript does, from an address, with the browser's cookies. */
  const post = (host: string, path: string, fields: Record<string, string>, address: string, cookies: Array<string | null> = []) => {
    const f = form(fields);
    const cookie = cookies.filter(Boolean).join("; ");
    return request(guessing.port, host, path, {
      ...f,
      headers: { ...f.headers, Origin: `http://${host}`, "X-Forwarded-For": address, ...(cookie ? { Cookie: cookie } : {}) },
    });
  };
  const signIn = (address: string, email: string, password: string, cookies: Array<string | null> = []) =>
    post(HOST, "/auth/login", { email, password }, address, cookies);
  const guess = (address: string, email: string, password: string) =>
    api(guessing, HOST, "POST", "auth/login", {
      body: { email, password },
      headers: { "X-Forwarded-For": address },
    });
  const setCookieLine = (res: HttpResponse, name: string) => (res.headers["set-cookie"] ?? []).find((c) => c.startsWith(`${name}=`));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const db = (sql: string, ...params: unknown[]) => agePast(guessing, 2, sql, ...params);
  const throttleRows = () => {
    const tenant = tenantDb(guessing, 2);
    try {
      return (tenant.prepare("select count(*) as n from login_throttle").get() as { n: number }).n;
    } finally {
      tenant.close();
    }
  };

  it("100 wrong passwords from other addresses, then the owner's right password from their known device gets in", async () => {
    const EMAIL = "learner@nordlys.test";
    db("update users set language = 'pl' where email = ?", EMAIL);
    // The owner signed in on this browser before, and signed out since: it keeps its known-device cookie.
    const earlier = await signIn(OWNER_ADDRESS, EMAIL, DEMO_PASSWORD);
    expect(earlier.status).toBe(302);
    const device = cookieFrom(earlier, "lectern_device");
    expect(device).not.toBeNull();
    // Host-only (no Domain), HttpOnly, and sent to the sign-in page alone.
    expect(setCookieLine(earlier, "lectern_device")).toMatch(/; Path=\/auth\/login;/);
    expect(setCookieLine(earlier, "lectern_device")).toMatch(/; HttpOnly/);
    expect(setCookieLine(earlier, "lectern_device")).not.toMatch(/Domain=/i);
    const signedOut = await post(HOST, "/auth/logout", {}, OWNER_ADDRESS, [cookieFrom(earlier, "lectern_session")]);
    expect(signedOut.status).toBe(302);
    expect(setCookieLine(signedOut, "lectern_device")).toBeUndefined();

    // The attack: 100 wrong passwords, each from another address.
    // (All at once: each is charged before its password is checked, so the count is the same in any order.)
    const start = mailbox.mails.length;
    const attack = await Promise.all(Array.from({ length: 100 }, (_, i) => guess(stranger(), EMAIL, `wrong-${i}`)));
    expect(attack.map((res) => res.status)).toEqual(Array(100).fill(401));

    // The account is at its ceiling: from a device it does not know, even the right password is not checked.
    const elsewhere = await guess(stranger(), EMAIL, DEMO_PASSWORD);
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.json().payload).toMatchObject({ code: "throttled" });
    expect(elsewhere.json().payload.message).toMatch(
      /^For mange mislykkede loginforsøg på denne konto\. Prøv igen om \d+ minutter, log ind på en enhed, du har logget ind på før, eller brug et link sendt pr\. e-mail\.$/,
    );
    expect(Number(elsewhere.headers["retry-after"])).toBeGreaterThan(3000);
    expect(Number(elsewhere.headers["retry-after"])).toBeLessThanOrEqual(3600);
    const newBrowser = await signIn(OWNER_ADDRESS, EMAIL, DEMO_PASSWORD);
    expect(newBrowser.status).toBe(429);
    expect(newBrowser.body).toMatch(/For mange mislykkede loginforsøg på denne konto\. Prøv igen om \d+ minutter/);
    expect(cookieFrom(newBrowser, "lectern_session")).toBeNull();

    // The owner's browser, which the account knows, gets in.
    const owner = await signIn(OWNER_ADDRESS, EMAIL, DEMO_PASSWORD, [device]);
    expect(owner.status).toBe(302);
    expect(owner.headers.location).toBe("/auth/redirect");
    const session = cookieFrom(owner, "lectern_session");
    expect(session).not.toBeNull();
    expect((await request(guessing.port, HOST, "/profile", { headers: { Cookie: session! } })).status).toBe(200);
    // A wrong password from it is still a wrong password.
    expect((await signIn(OWNER_ADDRESS, EMAIL, "not-it", [device])).status).toBe(400);

    // The owner was told once, in their own language, with the ways in.
    const alert = await mailbox.next(EMAIL, { after: start });
    expect(alert.subject).toBe("Ktoś próbuje odgadnąć twoje hasło – Nordlys Akademi");
    expect(alert.text).toContain("W ciągu ostatniej godziny ktoś wiele razy wpisał błędne hasło do twojego konta.");
    expect(alert.text).toMatch(/^http:\/\/nordlys\.localhost:\d+\/auth\/magic$/m);
    expect(alert.text).toMatch(/^http:\/\/nordlys\.localhost:\d+\/auth\/reset$/m);
    const more = await Promise.all(Array.from({ length: 5 }, (_, i) => guess(stranger(), EMAIL, `more-${i}`)));
    expect(more.map((res) => res.status)).toEqual(Array(5).fill(429));
    await sleep(1000);
    expect(mailbox.mails.slice(start).filter((m) => m.to.includes(EMAIL))).toHaveLength(1);

    // Other accounts are not affected.
    expect((await guess(stranger(), "admin@nordlys.test", DEMO_PASSWORD)).status).toBe(200);
    // 100 password checks (argon2, ~40 ms of CPU each) and a second's wait for a second mail: 3-10 s.
  }, 45_000);

  it("at the ceiling a sign-in link still gets in; an hour on, passwords are checked from anywhere again", async () => {
    const EMAIL = "learner@nordlys.test";
    expect((await guess(stranger(), EMAIL, DEMO_PASSWORD)).status).toBe(429);
    const start = mailbox.mails.length;
    const asked = await post(HOST, "/auth/magic", { email: EMAIL }, stranger());
    expect(asked.status).toBe(302);
    const code = linkFrom(await mailbox.next(EMAIL, { after: start })).searchParams.get("auth")!;
    const exchanged = await post(HOST, "/auth/magic", { intent: "exchange", code, redirectTo: "/" }, stranger());
    expect(exchanged.status).toBe(302);
    expect(cookieFrom(exchanged, "lectern_session")).not.toBeNull();
    // A browser signed in by a link becomes a known device too.
    expect(cookieFrom(exchanged, "lectern_device")).not.toBeNull();

    // No permanent lock-out: once the window is an hour old, the right password from anywhere gets in.
    db("update login_throttle set window_start = window_start - 3601 where client = ''");
    expect((await guess(stranger(), EMAIL, DEMO_PASSWORD)).status).toBe(200);
  });

  it("makes one address wait longer after each wrong password past the fifth, without holding up anyone else", async () => {
    const EMAIL = "admin@nordlys.test";
    const guesser = stranger();
    for (let i = 0; i < 5; i++) expect((await guess(guesser, EMAIL, `wrong-${i}`)).status).toBe(401);
    // Even the right password is not checked from there until the wait is over.
    const held = await guess(guesser, EMAIL, DEMO_PASSWORD);
    expect(held.status).toBe(429);
    expect(held.json().payload).toEqual({ code: "wait", message: "For mange forkerte adgangskoder. Prøv igen om 1 minut." });
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(25);
    expect(Number(held.headers["retry-after"])).toBeLessThanOrEqual(30);
    const page = await signIn(guesser, EMAIL, DEMO_PASSWORD);
    expect(page.status).toBe(429);
    expect(page.body).toContain("For mange forkerte adgangskoder. Prøv igen om 1 minut.");
    expect(Number(page.headers["retry-after"])).toBeLessThanOrEqual(30);
    // The owner, somewhere else, is not held up by it.
    expect((await guess(stranger(), EMAIL, DEMO_PASSWORD)).status).toBe(200);
    // Once the wait is over, the next wrong password doubles it.
    db("update login_throttle set wait_until = wait_until - 30 where client = ?", `ip:${guesser}`);
    expect((await guess(guesser, EMAIL, "wrong-again")).status).toBe(401);
    const longer = await guess(guesser, EMAIL, DEMO_PASSWORD);
    expect(longer.status).toBe(429);
    expect(Number(longer.headers["retry-after"])).toBeGreaterThan(55);
    expect(Number(longer.headers["retry-after"])).toBeLessThanOrEqual(60);
  });

  it("knows a device for its person only, until their password changes", async () => {
    const EMAIL = "admin@nordlys.test";
    const first = await signIn(OWNER_ADDRESS, EMAIL, DEMO_PASSWORD);
    const device = cookieFrom(first, "lectern_device")!;
    expect(device).not.toBeNull();
    const learnersDevice = cookieFrom(await signIn(OWNER_ADDRESS, "learner@nordlys.test", DEMO_PASSWORD), "lectern_device");
    // Changing the password voids the person's known devices, but makes this browser one again.
    const changed = await post(
      HOST,
      "/auth/password",
      { currentPassword: DEMO_PASSWORD, password: "changed-1", passwordConfirmation: "changed-1" },
      OWNER_ADDRESS,
      [cookieFrom(first, "lectern_session")],
    );
    expect(changed.status).toBe(302);
    const renewed = cookieFrom(changed, "lectern_device");
    expect(renewed).not.toBeNull();
    expect(renewed).not.toBe(device);
    // The account at its ceiling (as after 100 guesses).
    db(
      "insert into login_throttle (user_id, client, failures, window_start, last_failure_at) select id, '', 100, unixepoch(), unixepoch() from users where email = ? on conflict do update set failures = 100, window_start = unixepoch()",
      EMAIL,
    );
    expect((await signIn(OWNER_ADDRESS, EMAIL, "changed-1", [learnersDevice])).status).toBe(429);
    expect((await signIn(OWNER_ADDRESS, EMAIL, "changed-1", [device])).status).toBe(429);
    expect((await signIn(OWNER_ADDRESS, EMAIL, "changed-1", [renewed])).status).toBe(302);
  });

  it("sets the known-device cookie only once the e-mailed code is in, where the organization asks for one", async () => {
    const ACME = "acme.localhost";
    const EMAIL = "learner@acme.test";
    const start = mailbox.mails.length;
    const login = await post(ACME, "/auth/login", { email: EMAIL, password: DEMO_PASSWORD }, OWNER_ADDRESS);
    expect(login.headers.location).toBe("/auth/2fa/confirm?redirectTo=%2Fauth%2Fredirect");
    expect(cookieFrom(login, "lectern_device")).toBeNull();
    const code = codeFrom(await mailbox.next(EMAIL, { after: start }));
    const confirmed = await post(ACME, "/auth/2fa/confirm?redirectTo=%2Fauth%2Fredirect", { intent: "confirm", code }, OWNER_ADDRESS, [
      cookieFrom(login, "lectern_session"),
    ]);
    expect(confirmed.status).toBe(302);
    expect(cookieFrom(confirmed, "lectern_device")).not.toBeNull();
  });

  it("keeps no row for an unknown address, and lets go of rows a day old", async () => {
    const before = throttleRows();
    const nobodies = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(stranger(), `nobody-${i}@nordlys.test`, "x")));
    expect(nobodies.map((res) => res.status)).toEqual(Array(20).fill(401));
    expect(throttleRows()).toBe(before);
    // Every row is older than a day; the next first failure of an account sweeps them away.
    db("update login_throttle set window_start = window_start - 86401, last_failure_at = last_failure_at - 86401, wait_until = null");
    expect((await guess(stranger(), "learner@nordlys.test", "wrong")).status).toBe(401);
    expect(throttleRows()).toBe(2);
  });
});

describe("mail without SMTP", () => {
  it("writes each message as an .eml file under <DATA_DIR>/outbox", async () => {
    const outbox = path.join(plain.dataDir, "outbox");
    // What the cross-site posts above may have mailed is there already.
    const before = new Set(fs.existsSync(outbox) ? fs.readdirSync(outbox) : []);
    const { res } = await loginPage(plain, "acme.localhost", "learner@acme.test");
    expect(cookieFrom(res, "lectern_session")).not.toBeNull();
    const files = fs.readdirSync(outbox).filter((f) => !before.has(f));
    expect(files.filter((f) => f.endsWith(".eml"))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith(".tmp"))).toHaveLength(0);
    const eml = fs.readFileSync(path.join(outbox, files[0]), "utf8");
    expect(eml).toMatch(/^To: learner@acme\.test$/m);
    expect(eml).toMatch(/^Subject: Your sign-in code for Acme Academy$/m);
    expect(eml).toMatch(/\b\d{6}\b/);
  });
});
