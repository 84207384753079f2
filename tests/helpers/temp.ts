import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Temporary folders for tests. Every folder made here is removed when its test file ends (the `afterAll`
 * in tests/setup/cleanup.ts), so a run leaves nothing behind; tests/setup/global.ts fails the run when a
 * `lectern-*` folder is left in the run's temporary directory anyway.
 */
const made = new Set<string>();

export function tempDir(prefix = "lectern-test-") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs() {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  made.clear();
}
