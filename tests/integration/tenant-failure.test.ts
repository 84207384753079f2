import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { makeDataDir, startServer, type RunningServer } from "../helpers/server";

/**
 * A damaged tenant fails closed: that organization answers 503 and its file is left as it is (never
 * replaced by an empty database), while every other organization keeps working. One server holds an
 * organization for each kind of damage beside the two healthy demo ones, each damaged before the server
 * starts (it looks through every organization's file as it starts).
 */
const DAMAGES = {
  corrupted: (file: string) => {
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, Buffer.from("this is not a database at all, just garbage bytes"), 0, 49, 0);
    fs.closeSync(fd);
  },
  garbage: (file: string) => fs.writeFileSync(file, "garbage".repeat(200)),
  empty: (file: string) => fs.truncateSync(file, 0),
  cut: (file: string) => fs.truncateSync(file, 4096),
  missing: (file: string) => fs.rmSync(file),
} as const;
type Damage = keyof typeof DAMAGES;

describe("a damaged tenant database", () => {
  let server: InProcessServer;
  /** Each damaged organization's host and database file. */
  const damaged = {} as Record<Damage, { host: string; file: string }>;

  beforeAll(async () => {
    const dataDir = makeDataDir();
    // A copy of Acme (English) for each kind of damage, registered as the super-admin's screens register one.
    const platform = new Database(path.join(dataDir, "platform.sqlite"));
    try {
      for (const [kind, damage] of Object.entries(DAMAGES) as Array<[Damage, (file: string) => void]>) {
        const { lastInsertRowid } = platform
          .prepare("insert into organizations (name, url_prefix, language) values (?, ?, 'en')")
          .run(`Damaged ${kind}`, `damaged-${kind}`);
        const file = path.join(dataDir, `org-${lastInsertRowid}`, "db.sqlite");
        fs.mkdirSync(path.dirname(file));
        fs.copyFileSync(path.join(dataDir, "org-1", "db.sqlite"), file);
        damage(file);
        damaged[kind] = { host: `damaged-${kind}.localhost`, file };
      }
    } finally {
      platform.close();
    }
    server = await startInProcess({ dataDir });
  });
  afterAll(() => server?.stop());

  const get = (host: string, p = "/") => request(server.port, host, p);

  it("answers 503 for a corrupted file while the other organizations answer 200", async () => {
    const { host, file } = damaged.corrupted;
    const res = await get(host);
    expect(res.status).toBe(503);
    expect(res.body).toContain("This organization is temporarily unavailable");
    const nordlys = await get("nordlys.localhost");
    expect(nordlys.status).toBe(200);
    expect(nordlys.body).toContain("Nordlys Akademi");
    const acme = await get("acme.localhost");
    expect(acme.status).toBe(200);
    expect(acme.body).toContain("Acme Academy");
    expect(fs.readFileSync(file).subarray(0, 4).toString()).toBe("this");
  });

  it("answers 503 in the envelope on /api", async () => {
    const { host } = damaged.garbage;
    const res = await get(host, `/api/resolve?domain=${host}`);
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ error: true, status: 503, payload: { code: "unavailable" } });
  });

  it("never recreates a file truncated to nothing as an empty database", async () => {
    const { host, file } = damaged.empty;
    expect((await get(host)).status).toBe(503);
    expect((await get(host)).status).toBe(503);
    expect(fs.statSync(file).size).toBe(0);
    expect((await get("nordlys.localhost")).status).toBe(200);
  });

  it("detects a file cut short in the middle", async () => {
    const { host, file } = damaged.cut;
    expect((await get(host)).status).toBe(503);
    expect(fs.statSync(file).size).toBe(4096);
  });

  it("never creates a missing file", async () => {
    const { host, file } = damaged.missing;
    expect((await get(host)).status).toBe(503);
    expect(fs.existsSync(file)).toBe(false);
    expect((await get("nordlys.localhost")).status).toBe(200);
  });
});

describe("the bounded pool of open tenant databases", () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.stop());

  it("keeps serving every organization when it holds fewer handles than there are organizations", async () => {
    server = await startServer({ env: { TENANT_POOL_SIZE: "1" } });
    for (let i = 0; i < 5; i++) {
      const acme = await request(server.port, "acme.localhost", "/");
      const nordlys = await request(server.port, "nordlys.localhost", "/");
      expect([acme.status, nordlys.status]).toEqual([200, 200]);
      expect(acme.body).toContain("Acme Academy");
      expect(nordlys.body).toContain("Nordlys Akademi");
    }
  });
});
