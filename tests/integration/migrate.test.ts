import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeDataDir, ROOT, startServer } from "../helpers/server";

const migrate = (dataDir: string) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: "utf8",
  });

describe("npm run db:migrate", () => {
  it("migrates every organization, and reports a damaged one without recreating it", async () => {
    const dataDir = makeDataDir();
    await (await startServer({ dataDir })).stop();

    const ok = migrate(dataDir);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/ok\s+1 Acme Academy/);
    expect(ok.stdout).toMatch(/ok\s+2 Nordlys Akademi/);

    const file = path.join(dataDir, "org-2", "db.sqlite");
    fs.truncateSync(file, 0);
    const failed = migrate(dataDir);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/FAILED\s+2 Nordlys Akademi/);
    expect(fs.statSync(file).size).toBe(0);
  });
});
