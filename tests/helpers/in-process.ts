import fs from "node:fs";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { loadBuild, loadServerParts } from "./built-app";
import { claimSlot, freeSlot, holdSlot } from "./in-process-slot";
import { makeDataDir, ROOT, type ServerAddress } from "./server";

/**
 * The app in this test's own process: the built Remix app (build/index.js, the same file the server runs)
 * behind the server's own Express app (server/app.ts `createApp`), listening on a random port of 127.0.0.1,
 * so `request(server.port, host, path)` reaches it exactly as it reaches a server process. No process is
 * started: no Node start-up, no second load of the build, no copy of the server's bundle.
 *
 * For tests whose subject is what a page or call answers. The real process stays for what only it shows: its
 * start and stop, a crash, its log lines, another process's locks, its memory (`startServer`,
 * tests/helpers/server.ts).
 *
 * One at a time in a process. Each has its own Platform (its organizations' databases, page caches,
 * directory, jobs); what the app keeps process-wide is keyed by everything it is made from (docs/caching.md
 * "Kept per process"), so the test files a vitest worker runs one after another (`isolate: false`,
 * vitest.config.ts) load the build once and each start a server of their own on their own data.
 */
export interface InProcessServer extends ServerAddress {
  /** Stops listening, ends open connections, waits for background jobs, closes every database. */
  stop: () => Promise<void>;
}

/** The settings every test server gets (as tests/helpers/server.ts gives its processes). */
const TEST_ENV: Record<string, string> = {
  NODE_ENV: "production",
  PORT: "0",
  HOST: "127.0.0.1",
  PLATFORM_DOMAIN: "localhost",
  LOG_REQUESTS: "false",
  // A server process's log lines go to its own output, which a test reads or leaves; here they would go
  // to the test's. A test that reads log lines starts a server process.
  LOG_LEVEL: "silent",
  // Tests sign in far more often than people do; the limits have tests of their own.
  RATE_LIMIT_AUTH: "10000",
  RATE_LIMIT_MUTATIONS: "10000",
  // No reminders schedule: a demo copy's assignments would mail people the tests sign in as.
  REMINDERS_EVERY_MINUTES: "0",
};

// React, React Router and Express choose their production or development code from NODE_ENV when they are
// first loaded, and the build reads it as it loads (server/index.ts sets it before it loads the build). It
// is set as this file is imported, before anything of the test's loads them (tests/helpers/routes.ts's
// `builtRoutes` loads the same build).
process.env.NODE_ENV = "production";

export async function startInProcess({
  dataDir = makeDataDir(),
  env = {},
}: {
  dataDir?: string;
  env?: Record<string, string>;
} = {}): Promise<InProcessServer> {
  claimSlot();
  let server: InProcessServer | null = null;
  try {
    server = await start(dataDir, env);
    return server;
  } finally {
    holdSlot(server);
  }
}

async function start(dataDir: string, env: Record<string, string>): Promise<InProcessServer> {
  const buildFile = path.join(ROOT, "build", "index.js");
  if (!fs.existsSync(buildFile)) throw new Error("No build/index.js: run `npm run build` first.");
  const build = await loadBuild();
  // React's development code (run before NODE_ENV was set: a test importing a component first) would
  // render every page with its checks: slower, and not what the server sends. (Node lists both builds of a
  // package it imports from ESM, having read both to find their exports; only the one it ran is `loaded`.
  // The test's own imports of app modules are compiled by vitest with JSX's development runtime, which
  // renders nothing of the build's.)
  const development = Object.entries(createRequire(import.meta.url).cache)
    .filter(([file, module]) => module?.loaded && /[\\/]react(-dom)?[\\/]cjs[\\/].*\.development\.js$/.test(file))
    .filter(([file]) => !file.includes("jsx-dev-runtime"))
    .map(([file]) => file);
  if (development.length) throw new Error(`React was loaded in development mode: ${development.join(", ")}`);

  // The server's own modules, as server/index.ts wires them, compiled as the server is (server/in-process.ts).
  const {
    CONFIG_KEYS,
    readConfig,
    Platform,
    createApp,
    settleImageRenders,
    subscribeLearningEvents,
    SERVER_BUSY_TIMEOUT_MS,
    scheduleRecertification,
    scheduleAuditRetention,
    logger,
  } = await loadServerParts();
  // Settings are the server's own (server/config.ts); anything else a process would read from its
  // environment (COOKIE_SECURE, KEPT_MARKUP_KB) is this process's, shared with the test: such a test starts a process.
  const unknown = Object.keys(env).filter((key) => !CONFIG_KEYS.includes(key));
  if (unknown.length) throw new Error(`not a server setting: ${unknown.join(", ")}; start a server process for it (startServer)`);
  // The environment a server process would get (tests/helpers/server.ts): this one's, with the test settings.
  const config = readConfig({ ...process.env, ...TEST_ENV, DATA_DIR: dataDir, ...env });
  logger.level = config.LOG_LEVEL;
  subscribeLearningEvents();
  const platform = new Platform(config, { tenantOpen: { busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS } });
  const app = createApp(platform, build);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, config.HOST, () => resolve(listening));
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  platform.listeningPort = port;
  platform.jobs.resumeAll();
  platform.summaries.gatherMissing();
  const stopRecertification = scheduleRecertification(platform);
  const stopAuditRetention = scheduleAuditRetention(platform);
  // The start-up sweeps (jobs, recertification, the audit's retention) read the organizations list on the next turn of the event
  // loop, and from then on look at whether they were stopped: a test that stops the server at once must
  // not close the databases under that first read.
  await new Promise((resolve) => setImmediate(resolve));

  return {
    port,
    dataDir,
    stop: async () => {
      stopRecertification();
      stopAuditRetention();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // An image a closed page asked for may still be drawn; it would write into the data directory once
      // the file's clean-up had removed it (this process goes on to the worker's next file).
      await settleImageRenders();
      await platform.jobs.stop();
      await platform.renderer.close();
      platform.close();
      freeSlot();
    },
  };
}
