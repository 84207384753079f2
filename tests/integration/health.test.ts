import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * `/healthz` and `/readyz` for proxies and orchestrators (issue 19 "Operations"), on one server that logs
 * its requests. The checks below break the server's data one way each and mend it where the next needs it.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { LOG_REQUESTS: "true" } });
});
afterAll(() => server?.stop());

describe("health checks", () => {
  it("answer on any host, without a session, and are not logged", async () => {
    for (const host of ["localhost", "acme.localhost", "no-such-organization.example"]) {
      const live = await request(server.port, host, "/healthz");
      expect(live.status).toBe(200);
      expect(live.json()).toEqual({ status: "ok" });
      expect(live.headers["cache-control"]).toBe("no-store");
      const ready = await request(server.port, host, "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", storage: "ok" } });
    }
    // An ordinary request is logged; the probes are not.
    await request(server.port, "acme.localhost", "/auth/login");
    await new Promise((r) => setTimeout(r, 200));
    expect(server.output()).toContain('"path":"/auth/login"');
    expect(server.output()).not.toContain('"path":"/healthz"');
    expect(server.output()).not.toContain('"path":"/readyz"');
  });

  it("/readyz fails (503) when the data directory is gone, and /healthz still answers", async () => {
    const { dataDir } = server;
    expect((await request(server.port, "localhost", "/readyz")).status).toBe(200);
    const moved = `${dataDir}-moved`;
    fs.renameSync(dataDir, moved);
    try {
      const ready = await request(server.port, "localhost", "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.json()).toMatchObject({ status: "unavailable", checks: { storage: "failed", database: "ok" } });
      expect((await request(server.port, "localhost", "/healthz")).status).toBe(200);
    } finally {
      fs.renameSync(moved, dataDir);
    }
    expect((await request(server.port, "localhost", "/readyz")).status).toBe(200);
  });

  it("/readyz fails (503) while the platform database lacks a migration", async () => {
    expect((await request(server.port, "localhost", "/readyz")).status).toBe(200);
    const db = new Database(path.join(server.dataDir, "platform.sqlite"));
    try {
      db.prepare("delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)").run();
    } finally {
      db.close();
    }
    const ready = await request(server.port, "localhost", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.json().checks).toEqual({ database: "ok", migrations: "failed", storage: "ok" });
  });
});
