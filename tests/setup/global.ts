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
  return () => {
    const left = fs.readdirSync(root).filter((name) => name.startsWith("lectern-"));
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
