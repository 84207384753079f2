import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";
import { execTenant } from "../helpers/sessions";

/**
 * A visitor's kept page is served without opening the organization's database while its files show no
 * change (server/page-cache.ts `serveUnchanged`, db/file-state.ts), so visitors of a thousand
 * organizations need no open handle each; and a change made while the database is closed, by any
 * process, is on the next page all the same.
 *
 * The pool holds one database here: visiting Nordlys closes Acme's. Which databases the server has open
 * is read from its file descriptors.
 */
let server: RunningServer;
const ACME = "acme.localhost";
const NORDLYS = "nordlys.localhost";

beforeAll(async () => {
  server = await startServer({ env: { TENANT_POOL_SIZE: "1" } });
});
afterAll(() => server?.stop());

const acmeFile = () => fs.realpathSync(path.join(server.dataDir, "org-1", "db.sqlite"));
function openDatabases() {
  const dir = `/proc/${server.process.pid}/fd`;
  return fs.readdirSync(dir).flatMap((fd) => {
    try {
      return [fs.readlinkSync(path.join(dir, fd))];
    } catch {
      return []; // closed meanwhile
    }
  });
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Acme's home, answered while Acme's database is closed. The files' state is trusted once they have not
 * changed for two seconds (db/file-state.ts), so the first rounds go through the database.
 */
async function homeWithAcmeClosed() {
  for (let round = 0; round < 30; round++) {
    // Any request of Nordlys's that is not a kept page takes the pool's only handle: Acme's is closed.
    expect((await request(server.port, NORDLYS, "/no-such-page")).status).toBe(404);
    expect(openDatabases()).not.toContain(acmeFile());
    const home = await request(server.port, ACME, "/");
    expect(home.status).toBe(200);
    if (home.headers["x-page-cache"] === "hit" && !openDatabases().includes(acmeFile())) return home;
    await sleep(300);
  }
  throw new Error("Acme's kept home was never served with its database closed");
}

describe("a visitor's kept page, with the organization's database closed", () => {
  it("is served without opening the database, and is the page", async () => {
    const home = await homeWithAcmeClosed();
    expect(home.body).toContain("Acme");
    expect(home.body).toContain(`nonce="`);
  });

  it("shows a change another process made while the database was closed", async () => {
    await homeWithAcmeClosed();
    execTenant(server, 1, "update courses set title = 'Renamed while closed' where id = (select min(id) from courses where published = 1)");
    const after = await request(server.port, ACME, "/");
    expect(after.headers["x-page-cache"]).toBe("miss");
    expect(after.body).toContain("Renamed while closed");
  });
});
