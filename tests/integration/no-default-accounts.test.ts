import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, DEMO_PASSWORD, loginPage } from "../helpers/auth";
import { request } from "../helpers/http";
import { makeDataDir, ROOT, startServer, type RunningServer } from "../helpers/server";

/**
 * Issue 30, defect 2: a production server started on an empty data directory (`npm run serve`, the
 * container image) used to seed the demo, so `super@lectern.test` / `demo1234` ran the platform. It must
 * create no account and no organization: the demo comes only from `npm start` / `npm run seed`, the first
 * super-admin from `npm run super-admin` (README "Run in production").
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataDir: makeDataDir({ empty: true }), env: { NODE_ENV: "production" } });
});
afterAll(() => server?.stop());

/** Rows of the platform database, read beside the running server (WAL lets both work). */
function platformRows(table: "organizations" | "super_admins") {
  const db = new Database(path.join(server.dataDir, "platform.sqlite"), { readonly: true });
  try {
    return db.prepare(`select * from ${table}`).all();
  } finally {
    db.close();
  }
}

describe("a production server on an empty data directory", () => {
  it("does not let anyone sign in as the demo's super-admin on the platform host", async () => {
    const { res, cookie } = await loginPage(server, "localhost", "super@lectern.test", DEMO_PASSWORD);
    expect(res.status).toBe(400);
    expect(res.body).toContain("User not found, try again.");
    expect(cookie).toBeNull();

    const viaApi = await api(server, "localhost", "POST", "auth/login", { body: { email: "super@lectern.test", password: DEMO_PASSWORD } });
    expect(viaApi.status).toBe(401);
    expect(viaApi.json()).toMatchObject({ error: true, status: 401, payload: { code: "user_not_found" } });
  });

  it("holds no organization and no super-admin, and has no organization folder", () => {
    expect(platformRows("organizations")).toEqual([]);
    expect(platformRows("super_admins")).toEqual([]);
    expect(fs.readdirSync(server.dataDir).filter((name) => name.startsWith("org-"))).toEqual([]);
  });

  it("does not know the demo's hosts", async () => {
    expect((await request(server.port, "acme.localhost", "/")).status).toBe(404);
    expect((await request(server.port, "nordlys.localhost", "/")).status).toBe(404);
  });

  it("says how to create the first super-admin, and names no organization it does not hold", () => {
    const output = server.output();
    expect(output).toContain("no super-admin yet: create one with `SUPER_ADMIN_PASSWORD=… npm run super-admin -- you@example.com`");
    expect(output).toContain(`Platform   http://localhost:${server.port}/`);
    expect(output).toContain("No organizations yet");
    expect(output).not.toMatch(/acme\.localhost|nordlys\.localhost/);
  });

  it("gets its first super-admin from `npm run super-admin`, beside the running server", async () => {
    // Last in this file: it adds the one account the checks above must not find.
    const made = spawnSync(process.execPath, ["--import", "tsx", "scripts/create-super-admin.ts", "ops@example.test"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir, SUPER_ADMIN_PASSWORD: "a-long-passphrase" },
      encoding: "utf8",
    });
    expect(made.status, made.stderr).toBe(0);
    const { res, cookie } = await loginPage(server, "localhost", "ops@example.test", "a-long-passphrase");
    expect(res.status).toBe(302);
    expect(cookie).not.toBeNull();
    expect(platformRows("organizations")).toEqual([]);
  });
});

describe("the production server's build", () => {
  it("carries no demo seeding: nothing from scripts/, no demo account", () => {
    // build/server.js is server/index.ts and all it imports (scripts/build-server.mjs), each module marked
    // with its source path: the demo (scripts/demo.ts) must not be among them.
    const bundle = fs.readFileSync(path.join(ROOT, "build", "server.js"), "utf8");
    const fromScripts = bundle.match(/^\/\/ scripts\/.*$/gm) ?? [];
    expect(fromScripts).toEqual([]);
    expect(bundle.includes("super@lectern.test"), "the demo super-admin's address in build/server.js").toBe(false);
  });
});
