import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { listFiles, startServer, type RunningServer } from "../helpers/server";

// The app in this process; the proxied server below is a process of its own, with its own settings.
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess();
});
afterAll(() => server?.stop());

const get = (host: string, path = "/", headers: Record<string, string> = {}) => request(server.port, host, path, { headers });

describe("host → organization", () => {
  it("serves each demo organization on its own host, with its own courses only", async () => {
    const acme = await get("acme.localhost");
    expect(acme.status).toBe(200);
    expect(acme.body).toContain("<title>Acme Academy</title>");
    expect(acme.body).toContain("Workplace Safety Essentials");
    expect(acme.body).not.toContain("Førstehjælp");

    const nordlys = await get("nordlys.localhost");
    expect(nordlys.status).toBe(200);
    expect(nordlys.body).toContain("<title>Nordlys Akademi</title>");
    expect(nordlys.body).toContain("Førstehjælp på arbejdspladsen");
    expect(nordlys.body).not.toContain("Workplace Safety");
  });

  it("ignores the port in the Host header", async () => {
    const res = await get(`acme.localhost:${server.port}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain("Acme Academy");
  });

  it("never lists unpublished courses", async () => {
    const acme = await get("acme.localhost");
    expect(acme.body).not.toContain("Advanced Negotiation");
  });

  it.each([
    ["an unknown host", "nope.localhost", "/"],
    ["a trailing dot", "acme.localhost.", "/"],
    ["an IP literal", "127.0.0.1", "/"],
    ["an IPv6 literal", "[::1]", "/"],
    ["a path in the host", "acme.localhost/..%2f", "/"],
    ["an oversized host", `${"a".repeat(300)}.localhost`, "/"],
    ["a traversal path on an unknown host", "evil.localhost", "/..%2f..%2fplatform.sqlite"],
  ])("answers 404 to %s and creates no file", async (_label, host, path) => {
    const before = listFiles(server.dataDir);
    const res = await get(host, path);
    expect(res.status).toBe(404);
    expect(res.body).toContain("This page could not be found");
    expect(res.body).toContain('href="/"');
    expect(listFiles(server.dataDir)).toEqual(before);
  });

  it("answers an unknown host's /api calls with a 404 envelope", async () => {
    const res = await get("nope.localhost", "/api/resolve?domain=acme.localhost");
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ error: true, status: 404, payload: { code: "not_found" } });
  });

  it("ignores X-Forwarded-Host when no proxy is trusted", async () => {
    const res = await get("nordlys.localhost", "/", { "X-Forwarded-Host": "acme.localhost" });
    expect(res.body).toContain("Nordlys Akademi");
    expect(res.body).not.toContain("Acme Academy");
  });

  it("serves the platform host without an organization", async () => {
    const res = await get("localhost");
    expect(res.status).toBe(200);
    expect(res.body).toContain("This is the platform address of Lectern");
    expect(res.body).not.toContain("Acme Academy");
  });

  it("shows the 404 page for unknown paths on a known host", async () => {
    const res = await get("acme.localhost", "/no/such/page");
    expect(res.status).toBe(404);
    expect(res.body).toContain("This page could not be found");
    expect(res.body).toContain("Acme Academy"); // inside the organization's own frame
  });
});

describe("X-Forwarded-Host behind a trusted proxy", () => {
  let proxied: RunningServer;
  beforeAll(async () => {
    proxied = await startServer({ env: { TRUST_PROXY: "true" } });
  });
  afterAll(() => proxied?.stop());

  it("is honoured when TRUST_PROXY is set", async () => {
    const res = await request(proxied.port, "internal.proxy", "/", {
      headers: { "X-Forwarded-Host": "acme.localhost" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain("Acme Academy");
  });
});

describe("the data directory", () => {
  it("holds the platform registry and one folder with a database per organization", () => {
    const files = listFiles(server.dataDir);
    expect(files).toContain("platform.sqlite");
    expect(files).toContain(path.join("org-1", "db.sqlite"));
    expect(files).toContain(path.join("org-2", "db.sqlite"));
    expect(fs.existsSync(path.join(server.dataDir, "org-3"))).toBe(false);
  });
});
