/**
 * `npm run conformance:cmi5`: ADL's CATAPULT LMS test suite (github adlnet/CATAPULT, folder lts/; a copy in
 * ../shared/tools/cmi5-lms-test-suite/lts, or CMI5_SUITE) against Lectern as a cmi5 LMS
 * (docs/decisions/044-xapi-cmi5-packages.md): its 21 import and 33 runtime cases, the runtime ones played in
 * Debian's Chromium. A fresh data directory with one organization on 127.0.0.1, an admin and a learner with API
 * tokens, a published course and an LRS credential of scope `all`; the built server on a free port; the suite
 * through our adapter (scripts/conformance/cmi5-lms.cjs, which uses only /api); then its JUnit files read and
 * `N passed, N failed` printed, with every failure. Exits 1 when any test failed or skipped, or none ran.
 * CMI5_GREP passes `-t` to jest.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createCourse } from "../../app/models/course.server";
import { createOrganization } from "../../app/models/organization.server";
import { createXapiCredential } from "../../app/models/xapi/credentials.server";
import { openTenantDatabase } from "../../db/open";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { users } from "../../db/tenant";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { CHROMIUM } from "../../tests/helpers/browser";
import { ROOT, startServer } from "../../tests/helpers/server";
import { insertSession } from "../../tests/helpers/sessions";
import { tempDir } from "../../tests/helpers/temp";
import { readJunit } from "./junit";
import { runConformance } from "./run";

const SOURCE = path.resolve(ROOT, process.env.CMI5_SUITE ?? "../shared/tools/cmi5-lms-test-suite/lts");
// Not under node_modules: Jest finds no test file in a path that has node_modules in it.
const SUITE = path.join(ROOT, ".cache", "cmi5-lms-test-suite");

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const done = spawnSync(command, args, { stdio: "inherit", ...options, env: { ...process.env, ...options.env } });
  if (done.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${options.cwd}`);
}

/** The suite copied where it may write, its dependencies installed and its packages built once per copy of its lock file. */
function prepareSuite() {
  if (!fs.existsSync(path.join(SOURCE, "package.json"))) throw new Error(`ADL's CATAPULT suite is not at ${SOURCE} (set CMI5_SUITE).`);
  const stamp = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(SOURCE, "package-lock.json")))
    .update(fs.readFileSync(path.join(SOURCE, "pkg", "webpack.config.js")))
    .digest("hex");
  const stampFile = path.join(SUITE, ".installed");
  const installed = fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp;
  if (!installed) fs.rmSync(SUITE, { recursive: true, force: true });
  fs.cpSync(SOURCE, SUITE, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  fs.rmSync(path.join(SUITE, "var"), { recursive: true, force: true });
  if (installed) return;
  console.log("--- installing the suite's dependencies and building its packages");
  const env = { PUPPETEER_SKIP_DOWNLOAD: "1", PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: "1" };
  run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: SUITE, env });
  // Its webpack 5.45 hashes with MD4, which Node 17 and later keep behind the legacy provider.
  run("npx", ["webpack"], { cwd: path.join(SUITE, "pkg"), env: { NODE_OPTIONS: "--openssl-legacy-provider" } });
  fs.writeFileSync(stampFile, stamp);
}

/** One organization on 127.0.0.1 with an admin, a learner, a published course for the imports and an LRS credential. */
function prepareData() {
  const dataDir = tempDir("lectern-cmi5-conformance-");
  const platform = new Platform(readConfig({ ...process.env, DATA_DIR: dataDir, PLATFORM_DOMAIN: "localhost" }));
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "cmi5 conformance", domain: "127.0.0.1" });
    const db = openTenantDatabase(tenantDatabaseFile(dataDir, organization.id));
    try {
      db.insert(users)
        .values([
          { email: "admin@cmi5.test", firstName: "Ada", lastName: "Admin", role: "admin" },
          { email: "learner@cmi5.test", firstName: "Lee", lastName: "Learner", role: "learner" },
        ])
        .run();
      const course = createCourse(db, { title: "CATAPULT imports", description: "", type: "series", published: true, position: 0 });
      const made = createXapiCredential(db, { name: "CATAPULT's checks", scope: "all", userId: null, version: "1.0.3" });
      if ("error" in made) throw new Error(made.error);
      const address = { dataDir, port: 0 };
      return {
        dataDir,
        courseId: course.id,
        lrs: { key: made.key, secret: made.secret },
        admin: insertSession(address, { organizationId: organization.id }, { email: "admin@cmi5.test", kind: "api" }),
        learner: insertSession(address, { organizationId: organization.id }, { email: "learner@cmi5.test", kind: "api" }),
      };
    } finally {
      db.$client.close();
    }
  } finally {
    platform.close();
  }
}

/** The adapter, its settings and the browser the suite drives (Debian's Chromium; `*.localhost` resolves to this machine). */
function configureSuite(settings: Record<string, string>) {
  fs.copyFileSync(path.join(ROOT, "scripts", "conformance", "cmi5-lms.cjs"), path.join(SUITE, "lib", "lms.custom.js"));
  const env = { CATAPULT_LMS: "./lib/lms.custom.js", ...settings };
  fs.writeFileSync(
    path.join(SUITE, ".env"),
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(""),
  );
  const launch = { headless: true, executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] };
  fs.writeFileSync(path.join(SUITE, "jest-puppeteer.config.js"), `module.exports = { launch: ${JSON.stringify(launch)} };\n`);
}

await runConformance(async () => {
  prepareSuite();
  const data = prepareData();
  const server = await startServer({ dataDir: data.dataDir, env: { LOG_REQUESTS: "false" } });
  try {
    configureSuite({
      LECTERN_URL: `http://127.0.0.1:${server.port}`,
      LECTERN_ADMIN_TOKEN: data.admin,
      LECTERN_LEARNER_TOKEN: data.learner,
      LECTERN_COURSE_ID: String(data.courseId),
      LRS_KEY: data.lrs.key,
      LRS_SECRET: data.lrs.secret,
    });
    const started = Date.now();
    const args = ["jest", "--runInBand", ...(process.env.CMI5_GREP ? ["-t", process.env.CMI5_GREP] : [])];
    spawnSync("npx", args, { cwd: SUITE, stdio: "inherit" });
    const { passed, failures, skipped } = readJunit(path.join(SUITE, "var"));
    console.log(
      `cmi5 (CATAPULT): ${passed} passed, ${failures.length} failed, ${skipped} skipped (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    for (const failure of failures) console.log(`  ✗ ${failure}`);
    return failures.length + skipped + (passed === 0 ? 1 : 0);
  } finally {
    await server.stop();
  }
});
