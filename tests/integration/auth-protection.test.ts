import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, cookieFrom, loginPage } from "../helpers/auth";
import { form, request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";

describe("cross-site posts (SameSite is not enough between sibling sub-domains)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  async function signedIn() {
    const { cookie } = await loginPage(server, "nordlys.localhost", "admin@nordlys.test");
    return cookie!;
  }
  const change = (cookie: string, headers: Record<string, string>) =>
    request(server.port, "nordlys.localhost", "/auth/password", {
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
    expect((await loginPage(server, "nordlys.localhost", "admin@nordlys.test")).cookie).not.toBeNull();
  });

  it("lets the same origin post", async () => {
    const cookie = await signedIn();
    const res = await change(cookie, { Origin: "http://nordlys.localhost", "Sec-Fetch-Site": "same-origin" });
    expect(res.status).toBe(302);
    const back = await request(server.port, "nordlys.localhost", "/auth/password", {
      ...form({ currentPassword: "hijacked1", password: "demo1234", passwordConfirmation: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(back.status).toBe(302);
  });

  it("accepts a same-origin form post that carries `Origin: null` (browsers do so under no-referrer)", async () => {
    const res = await request(server.port, "nordlys.localhost", "/auth/login", {
      ...form({ email: "learner@nordlys.test", password: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null", "Sec-Fetch-Site": "same-origin" },
    });
    expect(res.status).toBe(302);
    const forged = await request(server.port, "nordlys.localhost", "/auth/login", {
      ...form({ email: "learner@nordlys.test", password: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null", "Sec-Fetch-Site": "cross-site", Cookie: "theme=x" },
    });
    expect(forged.status).toBe(403);
  });

  it("refuses a cross-site sign-in post even from a browser without cookies (login CSRF)", async () => {
    const res = await request(server.port, "nordlys.localhost", "/auth/login", {
      ...form({ email: "learner@nordlys.test", password: "demo1234" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://evil.localhost", "Sec-Fetch-Site": "same-site" },
    });
    expect(res.status).toBe(403);
    expect(cookieFrom(res, "lectern_session")).toBeNull();
  });

  it("does not hand a browser's session token out through /api/auth/refresh", async () => {
    const cookie = await signedIn();
    const res = await request(server.port, "nordlys.localhost", "/api/auth/refresh", {
      method: "POST",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(res.status).toBe(405);
    expect(res.body).not.toMatch(/"token"/);
  });

  it("answers /api in the envelope", async () => {
    const cookie = await signedIn();
    const res = await request(server.port, "nordlys.localhost", "/api/auth/logout", {
      method: "POST",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: true, status: 403, payload: { code: "cross_site" } });
  });
});

describe("rate limits and throttling", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_AUTH: "5" } });
  });
  afterAll(() => server?.stop());

  it("limits auth posts per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await api(server, "nordlys.localhost", "POST", "auth/reset/request", { body: { email: `x${i}@nordlys.test` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await api(server, "nordlys.localhost", "POST", "auth/login", { body: { email: "a@b.c", password: "x" } });
    expect(limited.json()).toMatchObject({ error: true, status: 429, payload: { code: "too_many_requests" } });
    // API users see the limit and when to come back (IETF RateLimit headers, draft 7, and Retry-After).
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit-policy"]).toBe("5;w=60");
    expect(limited.headers.ratelimit).toMatch(/^limit=5, remaining=0, reset=\d+$/);
  });
});

describe("per-account throttling", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("stops checking passwords after 100 failures in an hour, from any address, then lets the owner back in", async () => {
    const body = { email: "learner@nordlys.test", password: "wrong-guess" };
    for (let i = 0; i < 100; i++) {
      const res = await api(server, "nordlys.localhost", "POST", "auth/login", { body });
      expect(res.status).toBe(401);
    }
    const blocked = await api(server, "nordlys.localhost", "POST", "auth/login", { body: { ...body, password: "demo1234" } });
    expect(blocked.status).toBe(429);
    expect(blocked.json().payload.code).toBe("throttled");
    // Other accounts are not affected.
    const other = await api(server, "nordlys.localhost", "POST", "auth/login", {
      body: { email: "admin@nordlys.test", password: "demo1234" },
    });
    expect(other.status).toBe(200);
    // An hour later the window has moved on: no permanent lock-out.
    const { agePast } = await import("../helpers/auth");
    agePast(server, 2, "update login_failures set created_at = created_at - 3601");
    const back = await api(server, "nordlys.localhost", "POST", "auth/login", { body: { ...body, password: "demo1234" } });
    expect(back.status).toBe(200);
  });
});

describe("mail without SMTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("writes each message as an .eml file under <DATA_DIR>/outbox", async () => {
    const { res } = await loginPage(server, "acme.localhost", "learner@acme.test");
    expect(cookieFrom(res, "lectern_session")).not.toBeNull();
    const outbox = path.join(server.dataDir, "outbox");
    const files = fs.readdirSync(outbox);
    expect(files.filter((f) => f.endsWith(".eml"))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith(".tmp"))).toHaveLength(0);
    const eml = fs.readFileSync(path.join(outbox, files[0]), "utf8");
    expect(eml).toMatch(/^To: learner@acme\.test$/m);
    expect(eml).toMatch(/^Subject: Your sign-in code for Acme Academy$/m);
    expect(eml).toMatch(/\b\d{6}\b/);
  });
});
