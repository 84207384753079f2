import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Where the run's directory goes: Linux's shared-memory tmpfs (/dev/shm) when it is there, writable and has
 * room, else the system's temporary directory. Each test file copies the demo (about 400 files and folders)
 * and writes SQLite files: on this machine's ext4 a copy costs 0.25 CPU-s of the kernel's against 0.015 on
 * tmpfs, and an fsync is a journal commit. Integration 203 → 178 CPU-s, e2e 315 → 299 (cgroup, one run each,
 * docs/decisions/006-testing.md). What the tests check is the same on both: a kill -9 loses what it would
 * lose on disk (the page cache survives a process either way), and no test needs a power cut.
 */
export function runParent(): string {
  const shm = "/dev/shm";
  try {
    const stats = fs.statfsSync(shm);
    fs.accessSync(shm, fs.constants.W_OK);
    if (stats.bavail * stats.bsize >= 2 * 1024 ** 3) return shm;
  } catch {
    // No /dev/shm (not Linux, a container without it): the system's temporary directory.
  }
  return os.tmpdir();
}

/**
 * One temporary directory per `vitest` run (TMPDIR, inherited by test workers, servers and Chromium), so
 * runs side by side do not see each other's files. At the end, any `lectern-*` entry still in it is a test
 * that did not clean up: the run fails and names it. The directory itself is removed either way.
 *
 * Every project lists this file first among its global setups (vitest.config.ts), and vitest runs only the
 * setups of the projects that have files in the run: the first to run makes the directory, the last to be
 * torn down removes it. Each project loads its own copy of this module, so the count lives on globalThis.
 */
const RUN = Symbol.for("lectern.test-run");
interface Run {
  root: string;
  previous: string | undefined;
  users: number;
}
const shared = globalThis as typeof globalThis & { [RUN]?: Run };

export default function setup() {
  if (!shared[RUN]) {
    const previous = process.env.TMPDIR;
    const root = fs.mkdtempSync(path.join(runParent(), "lectern-run-"));
    process.env.TMPDIR = root;
    shared[RUN] = { root, previous, users: 0 };
  }
  const run = shared[RUN];
  run.users++;
  return () => {
    if (--run.users > 0) return;
    delete shared[RUN];
    // Each with what is in it (the first few files), which says whose it is.
    const left = fs
      .readdirSync(run.root)
      .filter((name) => name.startsWith("lectern-"))
      .map((name) => {
        const entry = path.join(run.root, name);
        if (!fs.statSync(entry).isDirectory()) return name;
        const files = fs.readdirSync(entry, { recursive: true }).map(String);
        return `${name} (${files.slice(0, 8).join(", ")}${files.length > 8 ? ", …" : ""})`;
      });
    if (run.previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = run.previous;
    fs.rmSync(run.root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length) {
      // An error thrown here is printed but does not change vitest's exit code; this does.
      console.error(`\nFAIL tests left temporary folders behind: ${left.join(", ")}\n`);
      process.exitCode = 1;
    }
  };
}
