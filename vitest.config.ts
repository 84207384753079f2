import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(__dirname, "app") };
/**
 * The built app (build/index.js) and the server's parts (build/in-process.js) are loaded by Node as the
 * server loads them (tests/helpers/built-app.ts), not compiled again by vitest.
 */
const server = { deps: { external: [/[\\/]build[\\/](index|in-process)\.js$/] } };

/**
 * Three projects, all run by `npm test`: unit (pure functions and components), integration (a real server
 * on a random port over HTTP, real SQLite files) and e2e (Debian's Chromium through puppeteer).
 *
 * Three test files run at a time, from all three projects together (e2e first, longest first): vitest's own
 * default on a two-core machine is one (cores - 1), and a file spends much of its time waiting on its server
 * or browser; a fourth only adds contention (9% more CPU for the same run). Every file has its own ports, data
 * directories and browser contexts, so files do not see each other; a worker runs file after file with the
 * modules it has loaded (`isolate: false`), which each project sets below (docs/decisions/006-testing.md, with
 * the figures).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
    maxWorkers: 3,
    // `npm run test:changed` (vitest's --changed) runs every file when one of these changed.
    forceRerunTriggers: ["**/package.json/**", "**/vitest.config.*/**", "**/tests/setup/**"],
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          // Files in worker threads rather than processes, and a thread runs file after file with the modules it
          // has loaded (`isolate: false`): 47 against 77 CPU-s for the project (cgroup, one run each;
          // docs/decisions/006-testing.md). A file that needs a module afresh imports it after vi.resetModules().
          // The server's tests keep processes (their env).
          pool: "threads",
          isolate: false,
          globalSetup: ["./tests/setup/global.ts"],
          setupFiles: ["./tests/setup/cleanup.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          server,
          // A worker process runs file after file (not a new process a file): the build, the helpers and a warm
          // JIT are loaded once per worker, and each file starts its own server on its own data
          // (tests/helpers/in-process.ts). 270 against 342 CPU-s for the project (docs/decisions/006-testing.md).
          isolate: false,
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          // The app runs in these files' own processes too (tests/helpers/in-process.ts), as the server runs
          // it: React, React Router and Express choose their production code from NODE_ENV when first loaded.
          env: { NODE_ENV: "production" },
          globalSetup: ["./tests/setup/global.ts", "./tests/setup/demo-template.ts"],
          setupFiles: ["./tests/setup/cleanup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          server,
          // As the integration files: the build, puppeteer and the helpers loaded once per worker.
          isolate: false,
          // LECTERN_TEST_SHARED_RENDERS: the files' image renders drawn once a run (tests/helpers/server.ts).
          env: { NODE_ENV: "production", LECTERN_TEST_SHARED_RENDERS: "1" },
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./tests/setup/global.ts", "./tests/setup/demo-template.ts", "./tests/setup/chromium.ts"],
          setupFiles: ["./tests/setup/cleanup.ts"],
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
