import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * One temporary directory per `vitest` run (TMPDIR, inherited by test workers, servers and Chromium), so
 * runs side by side do not see each other's files. At the end, any `lectern-*` entry still in it is a test
 * that did not clean up: the run fails and names it. The directory itself is removed either way.
 */
export default function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-run-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  // The demo is seeded once per run; each server's data directory starts as a copy (tests/helpers/server.ts).
  // Its moment is passed on, so tests/integration/demo.test.ts can seed again as of it and compare.
  const template = path.join(root, "demo-template");
  const templateNow = new Date().toISOString();
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed.ts"], {
    cwd: path.resolve(__dirname, "..", ".."),
    env: { ...process.env, DATA_DIR: template, DEMO_NOW: templateNow },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`seeding the demo template failed:\n${seeded.stdout}${seeded.stderr}`);
  process.env.LECTERN_TEST_TEMPLATE = template;
  process.env.LECTERN_TEST_TEMPLATE_NOW = templateNow;
  return () => {
    const left = fs.readdirSync(root).filter((name) => name.startsWith("lectern-"));
    delete process.env.LECTERN_TEST_TEMPLATE;
    delete process.env.LECTERN_TEST_TEMPLATE_NOW;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length) {
      // An error thrown here is printed but does not change vitest's exit code; this does.
      console.error(`\nFAIL tests left temporary folders behind: ${left.join(", ")}\n`);
      process.exitCode = 1;
    }
  };
}
