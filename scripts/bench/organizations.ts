import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCourse } from "../../app/models/course.server";
import { createOrganization } from "../../app/models/organization.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { seedDemo } from "../demo";
import { measure, ratio, run, type Measured } from "./measure";
import { stopProcess } from "./processes";
import { peakRssMiB, start } from "./servers";
import { ORGANIZATIONS, POOL_SIZE, DURATION } from "./settings";
import { atLeast, atMost, type Report } from "./table";

/** The bench's parts 1 and 2: the bare baseline, then a visitor's requests to one organization and spread over many. */

function makeDataDir(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lectern-bench-${name}-`));
  return dir;
}

/** An install with `count` organizations of five published courses each, like the demo's. */
function seedOrganizations(dataDir: string, count: number) {
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir, TENANT_POOL_SIZE: 4 });
  try {
    for (let i = 1; i <= count; i++) {
      const organization = createOrganization(
        platform.db,
        { dataDir },
        { name: `Organization ${i}`, urlPrefix: `org${i}`, language: "en" },
      );
      platform.tenants.withTenant(organization.id, (db) =>
        db.transaction((tx) => {
          for (let c = 1; c <= 5; c++) {
            createCourse(tx, {
              title: `Course ${c} of organization ${i}`,
              description: "A course.",
              type: "series",
              published: true,
              position: c,
            });
          }
        }),
      );
    }
  } finally {
    platform.close();
  }
}

/**
 * 1. One organization: Lectern against the bare baseline, same data: the demo, seeded here as `npm run
 * seed` does (the server itself never seeds; every other part seeds its own data). Returns the baseline,
 * which every row of the run is measured against.
 */
export async function benchOneOrganization(report: Report, only: (part: string) => boolean): Promise<Measured> {
  const { table, json, rssPeaks } = report;
  const demoDir = makeDataDir("demo");
  const setup = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: demoDir });
  await seedDemo(setup);
  setup.close();

  const baseline = await start("scripts/bench/baseline.ts", { DATA_DIR: demoDir });
  const baselineResolve = await run({
    port: baseline.port,
    pid: baseline.child.pid,
    path: "/api/resolve?domain=acme.localhost",
    hosts: ["acme.localhost"],
  });
  await stopProcess(baseline);
  const base = baselineResolve.rps;
  console.log(
    `${String(base).padStart(10)} req/s   baseline: Express + better-sqlite3, GET /api/resolve (${baselineResolve.cpuPerRequest} CPU ms per request)`,
  );
  json.baseline_rps = base;

  if (only("resolve") || only("home")) {
    const lectern = await start("server/index.ts", { DATA_DIR: demoDir });
    if (only("resolve")) {
      const r = await run({
        port: lectern.port,
        pid: lectern.child.pid,
        path: "/api/resolve?domain=acme.localhost",
        hosts: ["acme.localhost"],
      });
      table.push({
        what: "GET /api/resolve",
        rps: r.rps,
        p95: r.p95,
        cpu: r.cpuPerRequest,
        cpuRatio: ratio(baselineResolve.cpuPerRequest, r.cpuPerRequest),
        ...atLeast(ratio(r.rps, base), 0.6),
      });
    }
    if (only("home")) {
      const r = await run({ port: lectern.port, pid: lectern.child.pid, path: "/", hosts: ["acme.localhost"] });
      table.push({
        what: "GET / home, one organization",
        rps: r.rps,
        p95: r.p95,
        cpu: r.cpuPerRequest,
        cpuRatio: ratio(baselineResolve.cpuPerRequest, r.cpuPerRequest),
        ...atLeast(ratio(r.rps, base), 0.2),
      });
    }
    rssPeaks.push(peakRssMiB(lectern.child.pid!));
    await stopProcess(lectern);
  }
  fs.rmSync(demoDir, { recursive: true, force: true });
  return baselineResolve;
}

/**
 * 2. The same home page load spread over many organizations, with fewer open handles than organizations
 * when BENCH_POOL_SIZE says so (by default the pool is sized by the server itself).
 */
export async function benchSpread({ table, json }: Report) {
  const manyDir = makeDataDir("many");
  const seedStarted = Date.now();
  seedOrganizations(manyDir, ORGANIZATIONS);
  json.seconds_to_create_organizations = (Date.now() - seedStarted) / 1000;
  const many = await start("server/index.ts", {
    DATA_DIR: manyDir,
    ...(POOL_SIZE ? { TENANT_POOL_SIZE: String(POOL_SIZE) } : {}),
  });
  const hosts = Array.from({ length: ORGANIZATIONS }, (_, i) => `org${i + 1}.localhost`);
  // "1,000 active organizations": each is visited once before anything is measured, as the pool and
  // the visitors' page cache would have them on a server that has been up a while. That first round
  // (each visit opens a database and renders) is reported on its own.
  const firstVisits = await measure({ port: many.port, pid: many.child.pid, path: "/", hosts }, DURATION, hosts.length);
  console.log(
    `  first visit of each of ${ORGANIZATIONS} organizations (opens its database, renders its home): ${firstVisits.rps} req/s, ${firstVisits.cpuPerRequest} CPU ms per request, p95 ${firstVisits.p95} ms`,
  );
  json.first_visits = firstVisits;
  const oneOfMany = await run({ port: many.port, pid: many.child.pid, path: "/", hosts: ["org1.localhost"] });
  const spread = await run({ port: many.port, pid: many.child.pid, path: "/", hosts });
  const manyRss = peakRssMiB(many.child.pid!);
  await stopProcess(many);
  fs.rmSync(manyDir, { recursive: true, force: true });
  table.push({
    what: `home spread over ${ORGANIZATIONS} organizations vs one (${spread.rps} vs ${oneOfMany.rps} req/s${POOL_SIZE ? `, pool ${POOL_SIZE}` : ""})`,
    rps: spread.rps,
    p95: spread.p95,
    cpu: spread.cpuPerRequest,
    cpuRatio: ratio(oneOfMany.cpuPerRequest, spread.cpuPerRequest),
    ...atLeast(ratio(spread.rps, oneOfMany.rps), 0.9),
  });
  table.push({ what: `peak RSS with ${ORGANIZATIONS} organizations (MiB)`, ...atMost(manyRss, 200) });
}
