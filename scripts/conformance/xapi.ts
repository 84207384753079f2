/**
 * `npm run conformance:xapi`: ADL's LRS conformance suite (github adlnet/lrs-conformance-test-suite, a copy in
 * ../shared/tools/xapi-lrs-conformance, or XAPI_SUITE) against Lectern's LRS, for xAPI 2.0.0 and then 1.0.3
 * (docs/decisions/043-learning-record-store.md). For each version: a fresh data directory with one
 * organization on host 127.0.0.1 and one credential that may read and write all, the built server on a free
 * port, the suite's console runner; then its log is read and `N passed, N failed` printed, with every failure.
 * Exits 1 when any test failed (or the suite did not run). XAPI_VERSIONS=2.0.0 narrows it; XAPI_GREP passes
 * `-g` to the suite.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createOrganization } from "../../app/models/organization.server";
import { createXapiCredential } from "../../app/models/xapi/credentials.server";
import type { XapiVersion } from "../../app/models/xapi/statements.server";
import { openTenantDatabase } from "../../db/open";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { ROOT, startServer } from "../../tests/helpers/server";
import { tempDir } from "../../tests/helpers/temp";
import { countResults, type SuiteLog } from "./suite-log";
import { runConformance } from "./run";

const VERSIONS = (process.env.XAPI_VERSIONS ?? "2.0.0,1.0.3").split(",") as XapiVersion[];
const SOURCE = path.resolve(ROOT, process.env.XAPI_SUITE ?? "../shared/tools/xapi-lrs-conformance");
const SUITE = path.join(ROOT, "node_modules", ".cache", "xapi-lrs-conformance");

/** The suite copied where it may write (its logs), with its own dependencies installed once per copy of its package.json. */
function prepareSuite() {
  if (!fs.existsSync(path.join(SOURCE, "package.json"))) throw new Error(`ADL's suite is not at ${SOURCE} (set XAPI_SUITE).`);
  const stamp = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(SOURCE, "package.json")))
    .digest("hex");
  const stampFile = path.join(SUITE, ".installed");
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp) {
    fs.cpSync(SOURCE, SUITE, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
    return;
  }
  fs.rmSync(SUITE, { recursive: true, force: true });
  fs.cpSync(SOURCE, SUITE, { recursive: true });
  fs.chmodSync(SUITE, 0o755);
  console.log("--- installing the suite's dependencies");
  const installed = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: SUITE, stdio: "inherit" });
  if (installed.status !== 0) throw new Error("npm install of the suite failed");
  fs.writeFileSync(stampFile, stamp);
}

/**
 * A data directory with one organization on 127.0.0.1 and a credential of scope `all`, set up for the
 * version under test (the one its replies name when a request names none, as the suite's versioning checks ask).
 */
function prepareData(version: XapiVersion) {
  const dataDir = tempDir("lectern-xapi-conformance-");
  const platform = new Platform(readConfig({ ...process.env, DATA_DIR: dataDir, PLATFORM_DOMAIN: "localhost" }));
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "xAPI conformance", domain: "127.0.0.1" });
    const db = openTenantDatabase(tenantDatabaseFile(dataDir, organization.id));
    const made = createXapiCredential(db, { name: "ADL conformance suite", scope: "all", userId: null, version });
    db.$client.close();
    if ("error" in made) throw new Error(made.error);
    return { dataDir, key: made.key, secret: made.secret };
  } finally {
    platform.close();
  }
}

function runSuite(version: string, endpoint: string, key: string, secret: string): Promise<SuiteLog> {
  const args = ["bin/console_runner.js", "-e", endpoint, "-a", "-u", key, "-p", secret, "-x", version];
  if (process.env.XAPI_GREP) args.push("-g", process.env.XAPI_GREP);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: SUITE, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", () => {
      const written = /Full run log written to (\S+)/.exec(output);
      if (!written) return reject(new Error(`the suite wrote no log:\n${output.slice(-4000)}`));
      const log = JSON.parse(fs.readFileSync(written[1], "utf8")) as SuiteLog;
      // Each log holds every request and reply (about 50 MB): read, then removed.
      fs.rmSync(written[1], { force: true });
      resolve(log);
    });
  });
}

await runConformance(async () => {
  prepareSuite();
  let failed = 0;
  for (const version of VERSIONS) {
    const { dataDir, key, secret } = prepareData(version);
    const server = await startServer({ dataDir, env: { LOG_REQUESTS: "false" } });
    try {
      const started = Date.now();
      const log = await runSuite(version, `http://127.0.0.1:${server.port}/xapi`, key, secret);
      const { passed, failures } = countResults(log);
      const total = log.summary?.total ?? 0;
      if (passed + failures.length !== total) failures.push(`the suite counted ${total} tests; its log holds ${passed + failures.length}`);
      console.log(`xAPI ${version}: ${passed} passed, ${failures.length} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      for (const failure of failures) console.log(`  ✗ ${failure}`);
      failed += failures.length + (passed === 0 ? 1 : 0);
    } finally {
      await server.stop();
    }
  }
  return failed;
});
