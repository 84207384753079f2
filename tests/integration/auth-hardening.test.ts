import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/auth/api-token.server";
import { createTenantDatabase, openTenantDatabase } from "../../db/open";
import { api, cookieFrom, tenantDb } from "../helpers/auth";
import { form, request, type HttpResponse } from "../helpers/http";
import { codeFrom, startMailbox, type Mailbox } from "../helpers/mail";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ROOT } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";
import { tempDir } from "../helpers/temp";

/**
 * Issue 30, defects 6 and 7: two-factor guesses counted per sign-in across resends, reset and sign-in-link
 * mails limited per account (not only per address), and API tokens capped at the spec's 30 days.
 *
 * The server trusts X-Forwarded-For (TRUST_PROXY) and allows 3 auth posts a minute per address, so every
 * request below comes from an address of its own: what stops the requests is the per-account limit, never
 * the per-address one.
 */
let server: InProcessServer;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startInProcess({ env: { SMTP_URL: mailbox.url, TRUST_PROXY: "true", RATE_LIMIT_AUTH: "3" } });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

let hop = 0;
/** A new client address for each request. */
function from() {
  hop++;
  return { "X-Forwarded-For": `10.30.${Math.floor(hop / 250)}.${(hop % 250) + 1}` };
}

/** A form post as a browser without JavaScript sends it, from a new address. */
function post(host: string, url: string, fields: Record<string, string>, cookie?: string | null) {
  const f = form(fields);
  return request(server.port, host, url, {
    ...f,
    headers: { ...f.headers, Origin: `http://${host}`, ...from(), ...(cookie ? { Cookie: cookie } : {}) },
  });
}

const get = (host: string, url: string, cookie?: string | null) =>
  request(server.port, host, url, { headers: cookie ? { Cookie: cookie } : {} });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Mails to an address since `start`, once the expected ones are in and a moment has passed for any more. */
async function mailsTo(address: string, start: number, expected: number) {
  for (let i = 0; i < expected; i++) await mailbox.next(address, { after: start });
  await sleep(1500);
  return mailbox.mails.slice(start).filter((m) => m.to.includes(address));
}

describe("two-factor codes: at most 5 wrong guesses per sign-in, whatever the resends", () => {
  const HOST = "acme.localhost";
  const EMAIL = "learner@acme.test";
  const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

  it("through /api: the fifth wrong code ends the sign-in, and then even the right code is refused", async () => {
    const login = await api(server, HOST, "POST", "auth/login", { body: { email: EMAIL, password: "demo1234" }, headers: from() });
    expect(login.status).toBe(200);
    const { token } = login.json().payload;
    let code = codeFrom(await mailbox.next(EMAIL));
    const confirm = (c: string) => api(server, HOST, "POST", "auth/2fa", { token, body: { code: c }, headers: from() });
    const resend = async () => {
      const res = await api(server, HOST, "POST", "auth/2fa/resend", { token, headers: from() });
      expect(res.status, res.body).toBe(200);
      code = codeFrom(await mailbox.next(EMAIL));
    };

    // Two wrong, a new code, two wrong, a new code: four wrong codes in all.
    for (const step of ["guess", "guess", "resend", "guess", "guess", "resend"]) {
      if (step === "resend") await resend();
      else expect((await confirm(wrongFor(code))).json().payload.code).toBe("invalid");
    }
    const fifth = await confirm(wrongFor(code));
    expect(fifth.status).toBe(429);
    expect(fifth.json()).toMatchObject({
      error: true,
      status: 429,
      payload: { code: "too_many_attempts", message: "Too many wrong codes. Sign in again with your password." },
    });

    // The sign-in is over: a sixth guess, the right code, a resend and any other call are all refused.
    const sent = mailbox.mails.length;
    expect((await confirm(wrongFor(code))).status).toBe(401);
    expect((await confirm(code)).status).toBe(401);
    expect((await api(server, HOST, "POST", "auth/2fa/resend", { token, headers: from() })).status).toBe(401);
    expect((await api(server, HOST, "POST", "auth/user", { token, headers: from() })).status).toBe(401);
    await sleep(500);
    expect(mailbox.mails.slice(sent).filter((m) => m.to.includes(EMAIL))).toEqual([]);

    // Signing in again with the password starts a new sign-in with its own code.
    const again = await api(server, HOST, "POST", "auth/login", { body: { email: EMAIL, password: "demo1234" }, headers: from() });
    const fresh = codeFrom(await mailbox.next(EMAIL));
    const ok = await api(server, HOST, "POST", "auth/2fa", { token: again.json().payload.token, body: { code: fresh }, headers: from() });
    expect(ok.status).toBe(200);
  });

  it("on the page: the fifth wrong code sends the person back to the password step with a message", async () => {
    const login = await post(HOST, "/auth/login", { email: EMAIL, password: "demo1234" });
    expect(login.headers.location).toBe("/auth/2fa/confirm?redirectTo=%2Fauth%2Fredirect");
    const cookie = cookieFrom(login, "lectern_session")!;
    let code = codeFrom(await mailbox.next(EMAIL));
    const step = "/auth/2fa/confirm?redirectTo=%2Fauth%2Fredirect";

    for (const action of ["guess", "guess", "resend", "guess", "guess", "resend"]) {
      if (action === "resend") {
        const res = await post(HOST, step, { intent: "resend" }, cookie);
        expect(res.body).toContain("A new code has been sent.");
        code = codeFrom(await mailbox.next(EMAIL));
      } else {
        const res = await post(HOST, step, { intent: "confirm", code: wrongFor(code) }, cookie);
        expect(res.status).toBe(400);
        expect(res.body).toContain("The code is not correct.");
      }
    }
    const fifth = await post(HOST, step, { intent: "confirm", code: wrongFor(code) }, cookie);
    expect(fifth.status).toBe(302);
    expect(fifth.headers.location).toBe("/auth/login?redirectTo=%2Fauth%2Fredirect");
    expect(cookieFrom(fifth, "lectern_session")).toBe("lectern_session=");
    const flash = cookieFrom(fifth, "lectern_flash")!;
    const landing = await get(HOST, fifth.headers.location!, flash);
    expect(landing.status).toBe(200);
    expect(landing.body).toContain("Too many wrong codes. Sign in again with your password.");

    // The old cookie (as a browser that ignored the clearing would send it) reaches nothing, right code or not.
    const right = await post(HOST, step, { intent: "confirm", code }, cookie);
    expect(right.status).toBe(302);
    expect(right.headers.location).toMatch(/^\/auth\/login\?redirectTo=/);
    expect((await get(HOST, "/auth/password", cookie)).headers.location).toMatch(/^\/auth\/login/);
  });
});

describe("reset and sign-in-link mails: limited per account, from any number of addresses", () => {
  const SPEC_ANSWER = "If your email address was recognized in the system, you will receive an email within a few minutes.";

  /** What a page's reply shows the requester: status, where it goes, and the flash message it sets. */
  const pageReply = (res: HttpResponse) => ({
    status: res.status,
    location: res.headers.location,
    flash: cookieFrom(res, "lectern_flash"),
  });

  it("sends at most 5 reset mails an hour to one account; the answer never changes", async () => {
    const EMAIL = "learner@acme.test";
    const start = mailbox.mails.length;
    const unknownPage = pageReply(await post("acme.localhost", "/auth/reset", { email: "nobody@acme.test" }));
    const unknownApi = (
      await api(server, "acme.localhost", "POST", "auth/reset/request", { body: { email: "nobody@acme.test" }, headers: from() })
    ).json();
    expect(unknownApi.payload.message).toBe(SPEC_ANSWER);

    // 15 requests, the page and the call in turn, each from another address.
    for (let i = 0; i < 15; i++) {
      if (i % 2 === 0) {
        expect(pageReply(await post("acme.localhost", "/auth/reset", { email: EMAIL }))).toEqual(unknownPage);
      } else {
        const res = await api(server, "acme.localhost", "POST", "auth/reset/request", { body: { email: EMAIL }, headers: from() });
        expect(res.json()).toEqual(unknownApi);
      }
    }
    const mails = await mailsTo(EMAIL, start, 5);
    expect(mails.length).toBe(5);
    expect(mails.every((m) => m.subject === "Reset your password for Acme Academy")).toBe(true);
  });

  it("holds for super-admins on the platform too", async () => {
    const EMAIL = "super@lectern.test";
    const start = mailbox.mails.length;
    for (let i = 0; i < 8; i++) {
      const res = await api(server, "localhost", "POST", "auth/reset/request", { body: { email: EMAIL }, headers: from() });
      expect(res.json().payload.message).toBe(SPEC_ANSWER);
    }
    expect((await mailsTo(EMAIL, start, 5)).length).toBe(5);
  });

  it("sends at most 5 sign-in links an hour to one account; the answer never changes", async () => {
    const EMAIL = "admin@acme.test";
    const start = mailbox.mails.length;
    const unknown = pageReply(await post("acme.localhost", "/auth/magic", { email: "nobody@acme.test" }));
    expect(unknown.location).toBe("/auth/magic");
    for (let i = 0; i < 15; i++) {
      expect(pageReply(await post("acme.localhost", "/auth/magic", { email: EMAIL }))).toEqual(unknown);
    }
    const mails = await mailsTo(EMAIL, start, 5);
    expect(mails.length).toBe(5);
    expect(mails.every((m) => m.subject === "Your sign-in link for Acme Academy")).toBe(true);
    const shown = await get("acme.localhost", "/auth/magic", unknown.flash);
    expect(shown.body).toContain(SPEC_ANSWER);
  });
});

describe("API tokens live 30 days at most", () => {
  const THIRTY_DAYS_S = 2_592_000;
  const storedLifetimes = (name: string) => {
    const db = tenantDb(server, 1);
    try {
      return db.prepare("select expires_at - created_at from api_tokens where name = ?").pluck().all(name) as number[];
    } finally {
      db.close();
    }
  };

  it("on the super-admin's organization API screen: 365 days is refused with a message; 30 is made", async () => {
    const cookie = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
    const screen = "/admin/organizations/1/api";
    const create = (name: string, days: string) =>
      post("localhost", screen, { intent: "create", name, capabilities: "read:course", days }, cookie);

    const long = await create("year-long", "365");
    expect(long.status).toBe(400);
    expect(long.body).toContain("Choose a lifetime from 1 to 30 days.");
    expect(long.body).not.toContain('data-testid="new-token"');
    expect(storedLifetimes("year-long")).toEqual([]);

    const month = await create("month-long", "30");
    expect(month.status).toBe(200);
    expect(month.body).toContain('data-testid="new-token"');
    expect(storedLifetimes("month-long")).toEqual([THIRTY_DAYS_S]);
  });

  it("through POST /api/api/tokens: 365 days is refused in the envelope", async () => {
    const admin = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const res = await api(server, "acme.localhost", "POST", "api/tokens", {
      token: admin,
      body: { name: "api-year", capabilities: ["read:course"], expires_in_days: 365 },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      error: true,
      status: 422,
      payload: { code: "invalid", fields: { expires_in_days: ["The value must be at most 30."] } },
    });
    expect(storedLifetimes("api-year")).toEqual([]);
  });

  it("in the model: any longer lifetime asked for is cut to 30 days", () => {
    const file = path.join(tempDir(), "org-9", "db.sqlite");
    createTenantDatabase(file);
    const db = openTenantDatabase(file);
    try {
      const now = new Date("2026-05-04T09:30:00Z");
      const made = createApiToken(db, { userId: null, name: "direct", capabilities: [], ceiling: new Set(), days: 365, now });
      if ("error" in made) throw new Error(made.error);
      expect(made.apiToken.expiresAt.getTime() - now.getTime()).toBe(THIRTY_DAYS_S * 1000);
    } finally {
      db.$client.close();
    }
  });

  it("tokens made before the cap are cut back to 30 days from their creation by the upgrade", () => {
    const file = path.join(tempDir(), "org-9", "db.sqlite");
    createTenantDatabase(file);
    const sqlite = openTenantDatabase(file).$client;
    try {
      // The database as it was before migration 0019 (without its indexes), with a year-long token and a short one.
      sqlite.exec("drop index magic_links_user_created_idx; drop index password_resets_user_created_idx");
      const created = Math.floor(Date.now() / 1000) - 86_400;
      const insert = sqlite.prepare(
        "insert into api_tokens (name, token_hash, capabilities, created_at, expires_at) values (?, ?, '[]', ?, ?)",
      );
      insert.run("old-year", "hash-1", created, created + 365 * 86_400);
      insert.run("old-week", "hash-2", created, created + 7 * 86_400);
      const migration = fs.readFileSync(path.join(ROOT, "migrations", "tenant", "0019_auth_hardening.sql"), "utf8");
      for (const statement of migration.split("--> statement-breakpoint")) sqlite.exec(statement);
      const rows = sqlite.prepare("select name, expires_at - created_at as lifetime from api_tokens order by name").all();
      expect(rows).toEqual([
        { name: "old-week", lifetime: 7 * 86_400 },
        { name: "old-year", lifetime: THIRTY_DAYS_S },
      ]);
    } finally {
      sqlite.close();
    }
  });
});
