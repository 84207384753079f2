import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { makeDataDir, startServer, type RunningServer } from "../helpers/server";

/**
 * A damaged tenant fails closed: that organization answers 503 and its file is left as it is (never
 * replaced by an empty database), while every other organization keeps working.
 */
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Seeds a data directory (by starting and stopping a server), damages Acme's file, starts again. */
async function serverWithDamagedAcme(damage: (file: string) => void) {
  const dataDir = makeDataDir();
  const seeding = await startServer({ dataDir });
  await seeding.stop();
  const file = path.join(dataDir, "org-1", "db.sqlite");
  damage(file);
  server = await startServer({ dataDir });
  return { file };
}

describe("a damaged tenant database", () => {
  it("answers 503 for a corrupted file while the other organization answers 200", async () => {
    const { file } = await serverWithDamagedAcme((f) => {
      const fd = fs.openSync(f, "r+");
      fs.writeSync(fd, Buffer.from("this is not a database at all, just garbage bytes"), 0, 49, 0);
      fs.closeSync(fd);
    });
    const acme = await request(server!.port, "acme.localhost", "/");
    expect(acme.status).toBe(503);
    expect(acme.body).toContain("This organization is temporarily unavailable");
    const nordlys = await request(server!.port, "nordlys.localhost", "/");
    expect(nordlys.status).toBe(200);
    expect(nordlys.body).toContain("Nordlys Akademi");
    expect(fs.readFileSync(file).subarray(0, 4).toString()).toBe("this");
  });

  it("answers 503 in the envelope on /api", async () => {
    await serverWithDamagedAcme((f) => fs.writeFileSync(f, "garbage".repeat(200)));
    const res = await request(server!.port, "acme.localhost", "/api/resolve?domain=acme.localhost");
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ error: true, status: 503, payload: { code: "unavailable" } });
  });

  it("never recreates a file truncated to nothing as an empty database", async () => {
    const { file } = await serverWithDamagedAcme((f) => fs.truncateSync(f, 0));
    expect((await request(server!.port, "acme.localhost", "/")).status).toBe(503);
    expect((await request(server!.port, "acme.localhost", "/")).status).toBe(503);
    expect(fs.statSync(file).size).toBe(0);
    expect((await request(server!.port, "nordlys.localhost", "/")).status).toBe(200);
  });

  it("detects a file cut short in the middle", async () => {
    const { file } = await serverWithDamagedAcme((f) => fs.truncateSync(f, 4096));
    expect((await request(server!.port, "acme.localhost", "/")).status).toBe(503);
    expect(fs.statSync(file).size).toBe(4096);
  });

  it("never creates a missing file", async () => {
    const { file } = await serverWithDamagedAcme((f) => fs.rmSync(f));
    expect((await request(server!.port, "acme.localhost", "/")).status).toBe(503);
    expect(fs.existsSync(file)).toBe(false);
    expect((await request(server!.port, "nordlys.localhost", "/")).status).toBe(200);
  });
});

describe("the bounded pool of open tenant databases", () => {
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
