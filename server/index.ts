import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import { listOrganizations } from "../app/models/organization.server";
import { hasSuperAdmin } from "../app/models/user.server";
import { subscribeLearningEvents } from "../app/models/subscribers.server";
import { SERVER_BUSY_TIMEOUT_MS } from "../db/write-lock";
import { createApp } from "./app";
import { settleImageRenders } from "./images";
import { readConfig } from "./config";
import { Platform } from "./platform";
import { scheduleRecertification } from "./recertification";
import { scheduleAuditRetention } from "./audit-retention";
import { ReminderSchedule } from "./reminders";
import { logger } from "./logger";
import { removePidFile, writePidFile } from "./pid-file";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildPath = path.join(root, "build", "index.js");

async function main() {
  const config = readConfig();
  // React, React Router and Express pick their production or development code from process.env, and
  // `node build/server.js` (npm start) does not set it: without this line they ran their development
  // builds, several times slower, whenever NODE_ENV was unset. The app's build is imported below, after it.
  (process.env as Record<string, string | undefined>).NODE_ENV = config.NODE_ENV;
  logger.level = config.LOG_LEVEL;
  if (!fs.existsSync(buildPath)) {
    throw new Error("No build found: run `npm run build` first (npm start does it for you).");
  }
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  // This bundle's own models (its jobs use them) hear learning events as the app's do.
  subscribeLearningEvents();

  // The server never creates accounts or organizations: the demo comes only from `npm start` / `npm run
  // seed` (scripts/seed.ts), the first super-admin from `npm run super-admin` (docs/decisions/021-operations.md).
  // No SQLite busy wait on the event loop: a locked tenant file is waited for on timers (db/write-lock.ts).
  const platform = new Platform(config, { tenantOpen: { busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS } });
  if (!hasSuperAdmin(platform.db)) {
    logger.warn("no super-admin yet: create one with `SUPER_ADMIN_PASSWORD=… npm run super-admin -- you@example.com`");
  }

  const app = createApp(platform, build);
  let stopRecertification = () => {};
  let stopAuditRetention = () => {};
  const reminders = new ReminderSchedule(platform, config.REMINDERS_EVERY_MINUTES);
  const server = app.listen(config.PORT, config.HOST, () => {
    const { port } = server.address() as AddressInfo;
    platform.listeningPort = port;
    writePidFile(config.DATA_DIR);
    // One machine-readable line for scripts and tests, then the addresses for people.
    console.log(JSON.stringify({ level: "info", msg: "listening", port, dataDir: config.DATA_DIR }));
    console.log(`\n${addresses(platform).join("\n")}\n`);
    if (config.NODE_ENV === "development") broadcastDevReady(build);
    platform.jobs.resumeAll();
    reminders.start(); // reminders by e-mail and weekly digests (issue 34)
    platform.summaries.gatherMissing(); // organizations the platform has no summary of yet (server/tenant-summaries.ts)
    stopRecertification = scheduleRecertification(platform); // re-assign before completions expire (issue 34)
    stopAuditRetention = scheduleAuditRetention(platform); // delete the audit past its retention (issue 50)
  });
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    stopRecertification();
    stopAuditRetention();
    reminders.stop();
    server.close(() => {
      void settleImageRenders()
        .then(() => platform.jobs.stop())
        .then(() => platform.renderer.close())
        .finally(() => {
          platform.close();
          removePidFile(config.DATA_DIR);
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** How many organizations the start-up lines name; a platform with thousands names the first few. */
const NAMED_ORGANIZATIONS = 10;

/** The lines people read at start-up: the platform's address and those of the organizations it holds. */
function addresses(platform: Platform) {
  const organizations = listOrganizations(platform.db);
  const width = Math.max("Platform".length, ...organizations.slice(0, NAMED_ORGANIZATIONS).map((o) => o.name.length)) + 2;
  const line = (name: string, url: string) => `  ${name.padEnd(width)} ${url}/`;
  const lines = [`Lectern is running.`, line("Platform", platform.originFor(null))];
  for (const organization of organizations.slice(0, NAMED_ORGANIZATIONS)) {
    lines.push(line(organization.name, platform.originFor(organization)));
  }
  if (organizations.length > NAMED_ORGANIZATIONS) lines.push(`  … and ${organizations.length - NAMED_ORGANIZATIONS} more organizations`);
  if (organizations.length === 0) lines.push("  No organizations yet: a super-admin creates them at /admin.");
  return lines;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
