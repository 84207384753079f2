import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";

/**
 * A migrated organization database for each test of a file, for tests of models on real SQLite: migrated once
 * for the file, copied before each test (a copy costs far less than running every migration), closed and
 * removed after it. `current.db` is the test's own, from the file's `beforeEach` on, in organization 1 of the
 * data directory `current.dataDir`.
 */
export function tenantDatabasePerTest(prefix: string): { db: TenantDb; dataDir: string } {
  const current = {} as { db: TenantDb; dataDir: string };
  let template: string;
  let dir: string;
  beforeAll(() => {
    template = path.join(fs.mkdtempSync(path.join(os.tmpdir(), prefix)), "db.sqlite");
    createTenantDatabase(template);
  });
  afterAll(() => fs.rmSync(path.dirname(template), { recursive: true, force: true }));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const file = path.join(dir, "org-1", "db.sqlite");
    fs.mkdirSync(path.dirname(file));
    fs.copyFileSync(template, file);
    current.db = openTenantDatabase(file);
    current.dataDir = dir;
  });
  afterEach(() => {
    current.db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return current;
}
