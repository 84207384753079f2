import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backupOrganization } from "../../scripts/backup";
import { restoreOrganization } from "../../scripts/restore";
import { api, loginPage } from "../helpers/auth";
import { makeDataDir, ROOT, startServer, type RunningServer } from "../helpers/server";
import { insertSession } from "../helpers/sessions";

/**
 * One data directory for the file (a copy of the demo): the kill -9 rounds are made on it, and the server
 * started after the last of them answers the tests that follow, until the backup test (the last) stops it
 * to restore and starts it again. Each test gets that server through `serverOnData`, which starts one if
 * none runs, so a test run alone still has its server.
 */
const dataDir = makeDataDir();
let server: RunningServer | undefined;
async function serverOnData() {
  server ??= await startServer({ dataDir });
  return server;
}
afterAll(async () => {
  await server?.stop();
  server = undefined;
});

const ORG = "nordlys.localhost";
const dbFile = (dir: string) => path.join(dir, "org-2", "db.sqlite");

function integrity(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true });
  } finally {
    db.close();
  }
}

function categoryIds(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return new Set(db.prepare("select id from categories").pluck().all() as number[]);
  } finally {
    db.close();
  }
}

describe("kill -9 during a burst of writes (docs/security.md 'Durability')", () => {
  it("keeps every acknowledged write, and the file stays intact, again and again", async () => {
    await server?.stop();
    server = undefined;
    for (let round = 0; round < 3; round++) {
      server = await startServer({ dataDir });
      const token = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
      const acknowledged: number[] = [];
      let stop = false;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await api(server!, ORG, "POST", "courses/categories", { token, body: { name: `r${round}-w${n}-${i}` } });
            if (res.status === 201) acknowledged.push(res.json().payload.id);
          } catch {
            return; // the server died under us: that request was never acknowledged
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, n) => writer(n));
      // Kill mid-burst: once writes are landing (however slow the machine), a little later each round.
      while (acknowledged.length < 5) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, round * 150));
      server.process.kill("SIGKILL");
      stop = true;
      await Promise.all(writers);
      const child = server.process;
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
      server = undefined;
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(integrity(dbFile(dataDir))).toBe("ok");
      const stored = categoryIds(dbFile(dataDir));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    }
    // Up and answering after the last round too (and serving the tests below).
    expect((await api(await serverOnData(), ORG, "GET", "courses/categories")).status).toBe(401);
    // Four server starts: 5 s here, up to 10 s each on a machine as busy as a full run makes it.
  }, 90_000);
});

describe("npm run super-admin", () => {
  it("creates a super-admin who can sign in on the platform host, and refuses a short password", async () => {
    // Beside the running server, as an operator runs it. Each run is a TypeScript start-up (2 s of CPU):
    // the refused one and the first real one at once.
    const running = await serverOnData();
    const run = (email: string, password: string) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/create-super-admin.ts", email], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, SUPER_ADMIN_PASSWORD: password },
        encoding: "utf8",
      }).then(
        ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
        (error: { code?: number; stdout: string; stderr: string }) => ({
          status: error.code ?? -1,
          stdout: error.stdout,
          stderr: error.stderr,
        }),
      );
    const [short, made] = await Promise.all([run("ops@lectern.test", "short"), run("ops@lectern.test", "a-long-password")]);
    expect(short.status).toBe(2);
    expect(made.status, made.stderr).toBe(0);
    expect((await run("ops@lectern.test", "a-long-password")).stderr).toContain("already exists");
    const { cookie } = await loginPage(running, "localhost", "ops@lectern.test", "a-long-password");
    expect(cookie).not.toBeNull();
    // Two TypeScript start-ups one after the other: 4 s here, 15 s on a busy machine.
  }, 60_000);
});

describe("several processes writing one organization", () => {
  it("wait for each other instead of failing: no SQLITE_BUSY reaches a user", async () => {
    // The server waits for the lock on timers, not inside SQLite (docs/decisions/033-tenant-write-locks.md):
    // a write that meets it waits and goes through once the other process is done; one that was checked
    // just before the other process took the lock meets it inside its action and is refused with 503 and
    // Retry-After (nothing written). Never a 500.
    const running = await serverOnData();
    const token = insertSession(running, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    // Another process (a script, a backup) takes the write lock over and over, holding it a while each time.
    const script = `
      const Database = require("better-sqlite3");
      const db = new Database(${JSON.stringify(dbFile(dataDir))});
      db.pragma("busy_timeout = 5000");
      const end = Date.now() + 2500;
      while (Date.now() < end) {
        db.exec("BEGIN IMMEDIATE");
        db.prepare("insert into categories (name) values ('from a script')").run();
        const hold = Date.now() + 30; while (Date.now() < hold) {}
        db.exec("COMMIT");
      }`;
    const other = spawn(process.execPath, ["-e", script], { cwd: ROOT, stdio: "inherit" });
    const otherDone = new Promise((r) => other.once("exit", r));
    const statuses: number[] = [];
    const refusals: unknown[] = [];
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline) {
      const batch = await Promise.all(
        Array.from({ length: 4 }, (_, i) => api(running, ORG, "POST", "courses/categories", { token, body: { name: `api ${i}` } })),
      );
      statuses.push(...batch.map((r) => r.status));
      for (const r of batch) if (r.status === 503) refusals.push({ retryAfter: r.headers["retry-after"], code: r.json().payload.code });
    }
    await otherDone;
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    // Writes waited and went through while the script held the lock (how many depends on the machine's load).
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const refusal of refusals) expect(refusal).toEqual({ retryAfter: expect.stringMatching(/^\d+$/), code: "unavailable" });
    // Once the script is done, every write goes through.
    const after = await Promise.all(
      Array.from({ length: 4 }, (_, i) => api(running, ORG, "POST", "courses/categories", { token, body: { name: `after ${i}` } })),
    );
    expect(after.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(integrity(dbFile(dataDir))).toBe("ok");
  });
});

// Last: it stops the server to restore, and starts it again.
describe("backup and restore of one organization", () => {
  it("takes a consistent copy while the server writes, and puts it back with the same rows", async () => {
    const writing = await serverOnData();
    const token = insertSession(writing, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    let stop = false;
    let written = 0;
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        await api(writing, ORG, "POST", "courses/categories", { token, body: { name: `load ${i}` } });
        written += 1;
      }
    })();
    // The backup runs while writes go on, and after some have landed (on a slow machine 200 ms may see none).
    while (written < 3) await new Promise((r) => setTimeout(r, 50));
    const backup = backupOrganization(dataDir, 2);
    stop = true;
    await load;
    expect(integrity(path.join(backup, "db.sqlite"))).toBe("ok");
    const inBackup = categoryIds(path.join(backup, "db.sqlite"));
    expect(inBackup.size).toBeGreaterThan(3);
    await api(writing, ORG, "POST", "courses/categories", { token, body: { name: "after the backup" } });
    // Not while the server runs on the same data: nothing is touched.
    expect(() => restoreOrganization(dataDir, 2, backup)).toThrow(/a server is running on .* stop it first/);
    expect(categoryIds(dbFile(dataDir)).size).toBeGreaterThan(inBackup.size);
    await writing.stop();
    server = undefined;
    // A clean stop removes its process file; a file naming a process that is gone counts for nothing.
    expect(fs.existsSync(path.join(dataDir, "server.pid"))).toBe(false);
    fs.writeFileSync(path.join(dataDir, "server.pid"), "2147483646\n");

    restoreOrganization(dataDir, 2, backup);
    expect(integrity(dbFile(dataDir))).toBe("ok");
    expect(categoryIds(dbFile(dataDir))).toEqual(inBackup);
    const restored = await serverOnData();
    const admin = insertSession(restored, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    const listed = (await api(restored, ORG, "GET", "courses/categories?per_page=100", { token: admin })).json().payload.meta.total;
    expect(listed).toBe(inBackup.size);
  });
});
