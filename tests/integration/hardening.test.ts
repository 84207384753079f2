import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm } from "../helpers/auth";
import { form, multipart, request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Issue 30's probe, row by row (docs/security.md "Input and content", "Authentication", "Authorization"): each test
 * here failed on the main it was found on.
 */
const ACME = "acme.localhost";
const NORDLYS = "nordlys.localhost";
const MiB = 1024 * 1024;

let server: RunningServer;
let adminCookie: string;
let learnerCookie: string;
let adminToken: string;
beforeAll(async () => {
  server = await startServer();
  adminCookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  learnerCookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
  adminToken = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
});
afterAll(() => server?.stop());

/** The server's resident memory, in bytes (Linux). */
function rss(pid: number) {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  return Number(line![1]) * 1024;
}

/**
 * Sends `bytes` of body without waiting to be asked, as an attacker would: with a declared length, or chunked
 * (no length, so the server must count as it reads). Resolves with the reply's status and body; the server
 * may close the connection before the body is all sent.
 */
function sendHuge(
  path: string,
  { host = ACME, bytes, chunked, headers = {} }: { host?: string; bytes: number; chunked: boolean; headers?: Record<string, string> },
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = false;
    const block = Buffer.alloc(MiB, 0x61);
    const req = http.request({
      host: "127.0.0.1",
      port: server.port,
      path,
      method: "POST",
      setHost: false,
      agent: false,
      headers: { Host: host, Origin: `http://${host}`, ...(chunked ? {} : { "Content-Length": String(bytes) }), ...headers },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        done = true;
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), sent });
      });
    });
    req.on("error", (error) => {
      if (!done)
        setTimeout(
          () =>
            done ? undefined : reject(new Error(`${path} (${chunked ? "chunked" : "declared"}), ${sent} bytes sent: ${error.message}`)),
          2_000,
        );
    });
    const pump = () => {
      while (!done && sent < bytes) {
        sent += block.length;
        if (!req.write(block)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

describe("row 1: bodies are bounded by route and by who asks, before anything is buffered", () => {
  it("answers 300 MB bodies to five paths, signed out and signed in, with a 4xx, and the server's memory stays flat", async () => {
    const before = rss(server.process.pid!);
    const cases = [
      // Signed out: the sign-in call and pages take 64 KiB.
      sendHuge("/api/auth/login", { bytes: 300 * MiB, chunked: false, headers: { "Content-Type": "multipart/form-data; boundary=x" } }),
      sendHuge("/auth/login", { bytes: 300 * MiB, chunked: true, headers: { "Content-Type": "multipart/form-data; boundary=x" } }),
      sendHuge("/theme", { bytes: 300 * MiB, chunked: true, headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      // Signed in: 1 MiB for forms and JSON; an upload route only for those who may upload there.
      sendHuge("/api/bookmarks", { bytes: 300 * MiB, chunked: true, headers: { "Content-Type": "application/json", Cookie: adminCookie } }),
      sendHuge("/api/files", {
        bytes: 300 * MiB,
        chunked: true,
        headers: { "Content-Type": "multipart/form-data; boundary=x", Cookie: learnerCookie },
      }),
    ];
    const replies = await Promise.all(cases);
    const after = rss(server.process.pid!);
    // 413 where the body passed its limit; the learner's upload is refused (403) before its body is read.
    expect(replies.map((r) => r.status)).toEqual([413, 413, 413, 413, 403]);
    for (const reply of replies) {
      expect(reply.sent).toBeLessThan(64 * MiB);
    }
    expect(after - before).toBeLessThan(64 * MiB);
  });

  it("names the limit that was passed, in the envelope on /api and on a page otherwise", async () => {
    const anonymous = await sendHuge("/api/auth/login", { bytes: 2 * MiB, chunked: true, headers: { "Content-Type": "application/json" } });
    expect(anonymous.status).toBe(413);
    expect(JSON.parse(anonymous.body)).toMatchObject({
      error: true,
      status: 413,
      payload: { code: "too_large", message: "The request is too large: the limit is 64 KB." },
    });
    const signedIn = await sendHuge("/api/bookmarks", {
      bytes: 2 * MiB,
      chunked: false,
      headers: { "Content-Type": "application/json", Cookie: adminCookie },
    });
    expect(JSON.parse(signedIn.body).payload.message).toBe("The request is too large: the limit is 1 MB.");
    const page = await sendHuge("/auth/login", {
      bytes: 2 * MiB,
      chunked: false,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(page.status).toBe(413);
    expect(page.body).toContain("the limit is 64 KB");
  });

  it("still takes what a route is for: a sign-in form, a signed-in JSON call, an admin's upload", async () => {
    const login = await postForm(server, NORDLYS, "/auth/login", { email: "learner@nordlys.test", password: "demo1234" });
    expect(login.status).toBe(302);
    const bookmark = await request(server.port, ACME, "/api/bookmarks", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ course_id: 1, padding: "x".repeat(200 * 1024) }),
    });
    expect(bookmark.status, bookmark.body).toBeLessThan(300);
    const file = multipart(
      {},
      {
        file: { name: "notes.pdf", type: "application/pdf", data: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(2 * MiB, 0x20)]) },
      },
    );
    const upload = await request(server.port, ACME, "/api/files", {
      method: "POST",
      headers: { "Content-Type": file.contentType, Authorization: `Bearer ${adminToken}` },
      body: file.body,
    });
    expect(upload.status, upload.body).toBe(201);
  });
});

describe("row 3: no redirect leaves the site", () => {
  const bypasses = ["/.//evil.example", "/%2e//evil.example", "/a/..//evil.example", "//evil.example", "/\\evil.example"];
  const offSite = (location: string | undefined) =>
    !location || /^(?:[a-z]+:)?\/\/|^\/\\/i.test(location) || location.includes("evil.example");

  it.each(bypasses)("GET /auth/login?redirectTo=%s signed in stays here", async (value) => {
    const res = await request(server.port, ACME, `/auth/login?${new URLSearchParams({ redirectTo: value })}`, {
      headers: { Cookie: adminCookie },
    });
    expect(res.status).toBe(302);
    expect(offSite(res.headers.location), res.headers.location).toBe(false);
  });

  it.each(bypasses)("the sign-in post, /theme and /language with redirectTo=%s stay here", async (value) => {
    const signIn = await postForm(server, NORDLYS, "/auth/login", {
      email: "learner@nordlys.test",
      password: "demo1234",
      redirectTo: value,
    });
    const theme = await postForm(server, ACME, "/theme", { theme: "dark", redirectTo: value });
    const language = await postForm(server, ACME, "/language", { language: "pl", redirectTo: value });
    for (const res of [signIn, theme, language]) {
      expect(res.status).toBeGreaterThanOrEqual(300);
      expect(offSite(res.headers.location), res.headers.location).toBe(false);
    }
  });
});

describe("row 4: the cross-site check follows how the request is authenticated", () => {
  const basic = "Basic Zm9vOmJhcg==";

  it("refuses a cookie-authenticated post from another site that carries HTTP Basic credentials (403, envelope)", async () => {
    const res = await api(server, ACME, "POST", "users", {
      body: { email: "planted@evil.example", first_name: "Planted", last_name: "Admin", role: "admin" },
      headers: { Cookie: adminCookie, Authorization: basic, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: true, payload: { code: "cross_site" } });
    const users = await api(server, ACME, "GET", "users/search?q=planted", { token: adminToken });
    expect(JSON.stringify(users.json())).not.toContain("planted@evil.example");
  });

  it("answers a page action posted cross-site with Basic credentials with 403, not 500", async () => {
    const res = await request(server.port, ACME, "/dashboard/users/create", {
      ...form({ email: "planted@evil.example", firstName: "P", lastName: "A", role: "admin" }),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: adminCookie,
        Authorization: basic,
        Origin: "https://evil.example",
      },
    });
    expect(res.status).toBe(403);
  });

  it("lets the same site post with Basic credentials (an install behind a password-protected proxy)", async () => {
    const res = await request(server.port, ACME, "/api/bookmarks", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Cookie: adminCookie,
        Authorization: basic,
        Origin: `http://${ACME}`,
        "Sec-Fetch-Site": "same-origin",
      },
      body: JSON.stringify({ course_id: 2 }),
    });
    expect(res.status, res.body).toBeLessThan(300);
  });

  it("a bearer token is the only credential: its request's cookie is not read", async () => {
    const res = await request(server.port, ACME, "/api/auth/user", {
      method: "POST",
      headers: { Cookie: adminCookie, Authorization: "Bearer not-a-token", Origin: "https://evil.example" },
    });
    expect(res.status).toBe(401);
  });
});

describe("row 9: /api replies stay in the envelope", () => {
  it.each([
    ["GET", "/api/courses?_data=root", 400],
    ["GET", "/api/courses?_data=x", 400],
    ["GET", "/API/courses?_data=root", 400],
    ["TRACE", "/api/courses", 405],
    ["PROPFIND", "/api/courses", 405],
    ["DELETE", "/api/resolve", 405],
    ["GET", "/api/no-such-call", 404],
  ])("%s %s → %i in the envelope, never a loader's data", async (method, path, status) => {
    const res = await request(server.port, ACME, path, { method, headers: { Cookie: adminCookie } });
    expect(res.status).toBe(status);
    const body = res.json();
    expect(body).toMatchObject({ error: true, status });
    expect(res.body).not.toContain("capabilities");
    if (status === 405) expect(res.headers.allow).toBeTruthy();
  });

  it("a page path refuses TRACE and PROPFIND with a 405 page", async () => {
    for (const method of ["TRACE", "PROPFIND"]) {
      const res = await request(server.port, ACME, "/", { method });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toContain("GET");
    }
  });
});

describe("row 10: bad percent-encoding is a 400, never a 500", () => {
  it.each(["/courses/%ZZ", "/dashboard/%ZZ", "/images/%ZZ", "/certificates/verify/%ZZ", "/api/courses/%ZZ"])("%s", async (path) => {
    const res = await request(server.port, ACME, path, { headers: { Cookie: adminCookie } });
    expect(res.status).toBe(400);
    if (path.startsWith("/api/")) expect(res.json()).toMatchObject({ error: true, status: 400 });
    else expect(res.body).toContain("This address is not valid.");
  });
});

describe("row 11: a refused file names the limit it passed", () => {
  it("a 6 MB image is refused with the image limit (5 MB), not the file limit", async () => {
    // A real PNG signature followed by 6 MB: the type is read from the bytes.
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(6 * MiB, 1)]);
    const file = multipart({}, { file: { name: "big.png", type: "image/png", data: png } });
    const res = await request(server.port, ACME, "/api/files", {
      method: "POST",
      headers: { "Content-Type": file.contentType, Authorization: `Bearer ${adminToken}` },
      body: file.body,
    });
    expect(res.status).toBe(413);
    expect(res.json().payload.message).toContain("5 MB");
    expect(res.json().payload.message).not.toContain("1 GB");
  });
});

describe("row 12: signed-in pages and the certificate verification page are never kept by a cache", () => {
  it("sends Cache-Control: no-store", async () => {
    const verify = await request(server.port, ACME, "/certificates/verify/unknown-id");
    expect(verify.headers["cache-control"]).toContain("no-store");
    for (const path of ["/", "/dashboard", "/profile"]) {
      const res = await request(server.port, ACME, path, { headers: { Cookie: path === "/dashboard" ? adminCookie : learnerCookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers["cache-control"], path).toContain("no-store");
    }
    const data = await request(server.port, ACME, "/profile?_data=root", { headers: { Cookie: learnerCookie } });
    expect(data.headers["cache-control"]).toContain("no-store");
  });
});
