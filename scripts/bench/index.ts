import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { createCourse } from "../../app/models/course.server";
import { createOrganization } from "../../app/models/organization.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { seedDemo } from "../demo";
import { benchClone } from "./clone";
import { reportCertificates } from "./certificates";
import { seedLearnerBench } from "./learner";
import { benchQuizzes } from "./quizzes";

/**
 * `npm run bench`: throughput of Lectern against a bare Express + better-sqlite3 baseline measured in the
 * same run, the cost of spreading load over many organizations, and the server's peak memory.
 * Figures, not pass/fail: goals live here rather than in timed tests (DEVELOPERS.md).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ORGANIZATIONS = Number(process.env.BENCH_ORGANIZATIONS ?? 1000);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 100);

interface Server {
  port: number;
  child: ChildProcess;
}

async function start(script: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/"msg":"listening","port":(\d+)/);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
  return { port, child };
}

async function stop(server: Server) {
  await new Promise<void>((resolve) => {
    server.child.once("exit", () => resolve());
    server.child.kill("SIGTERM");
  });
}

/** Peak resident memory of a process so far (VmHWM), in MiB. */
function peakRssMiB(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmHWM:\s+(\d+)\s+kB/)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

interface Load {
  port: number;
  path: string;
  hosts: string[];
  /** Per request: a different path, method, body or headers (signed-in learners, heartbeats). */
  vary?: () => { path?: string; method?: string; body?: string; headers?: Record<string, string> };
}

async function measure({ port, path: urlPath, hosts, vary }: Load, duration = DURATION) {
  let next = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: "GET",
        path: urlPath,
        // A new Host on every request spreads the load over the organizations round-robin.
        setupRequest: (req: any) => {
          const extra = vary?.() ?? {};
          return {
            ...req,
            ...(extra.path ? { path: extra.path } : {}),
            ...(extra.method ? { method: extra.method } : {}),
            ...(extra.body ? { body: extra.body } : {}),
            headers: { ...req.headers, ...(extra.headers ?? {}), host: hosts[next++ % hosts.length] },
          };
        },
      },
    ],
  });
  (instance as unknown as NodeJS.EventEmitter).on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  const result = await instance;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${bad} failed requests against ${urlPath}`);
  latencies.sort((a, b) => a - b);
  const p95 = latencies.length ? Math.round(latencies[Math.floor(latencies.length * 0.95)] * 10) / 10 : 0;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p95,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

async function run(load: Load) {
  await measure(load, 2); // warm up: JIT, caches, open handles
  return measure(load);
}

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
      const lease = platform.tenants.acquire(organization.id);
    const db = lease.db;
      db.transaction((tx) => {
        for (let c = 1; c <= 5; c++) {
          createCourse(tx, { title: `Course ${c} of organization ${i}`, description: "A course.", type: "series", published: true, position: c });
        }
      });
      platform.tenants.release(lease);
    }
  } finally {
    platform.close();
  }
}

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;

/** The JavaScript a learner's browser loads for the home page (entry, root and home route), gzipped. */
function learnerHomeJs() {
  const manifestFile = fs.readdirSync(path.join(ROOT, "public", "build")).find((f) => f.startsWith("manifest-"));
  const text = fs.readFileSync(path.join(ROOT, "public", "build", manifestFile!), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ["root", "routes/_index"]) {
    files.add(manifest.routes[id].module);
    for (const f of manifest.routes[id].imports ?? []) files.add(f);
  }
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(ROOT, "public", file));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.size, rawKiB: Math.round(raw / 102.4) / 10, gzipKiB: Math.round(gzip / 102.4) / 10 };
}

async function main() {
  console.log(`Lectern bench: ${DURATION}s per run, ${CONNECTIONS} connections, ${os.cpus().length} cores\n`);

  // 1. One organization: Lectern against the bare baseline, same data.
  const demoDir = makeDataDir("demo");
  const setup = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: demoDir });
  await seedDemo(setup);
  setup.close();

  const baseline = await start("scripts/bench/baseline.ts", { DATA_DIR: demoDir });
  const baselineResolve = await run({ port: baseline.port, path: "/api/resolve?domain=acme.localhost", hosts: ["acme.localhost"] });
  await stop(baseline);

  const lectern = await start("server/index.ts", { DATA_DIR: demoDir, SEED_DEMO: "false" });
  const resolve = await run({ port: lectern.port, path: "/api/resolve?domain=acme.localhost", hosts: ["acme.localhost"] });
  const home = await run({ port: lectern.port, path: "/", hosts: ["acme.localhost"] });
  const singleRss = peakRssMiB(lectern.child.pid!);
  await stop(lectern);

  // 2. The same home page load spread over many organizations, with fewer open handles than organizations.
  const manyDir = makeDataDir("many");
  const seedStarted = Date.now();
  seedOrganizations(manyDir, ORGANIZATIONS);
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const many = await start("server/index.ts", {
    DATA_DIR: manyDir,
    SEED_DEMO: "false",
    TENANT_POOL_SIZE: String(POOL_SIZE),
  });
  const oneOfMany = await run({ port: many.port, path: "/", hosts: ["org1.localhost"] });
  const hosts = Array.from({ length: ORGANIZATIONS }, (_, i) => `org${i + 1}.localhost`);
  const spread = await run({ port: many.port, path: "/", hosts });
  const manyRss = peakRssMiB(many.child.pid!);
  await stop(many);

  fs.rmSync(demoDir, { recursive: true, force: true });
  fs.rmSync(manyDir, { recursive: true, force: true });

  const rows = [
    ["baseline: Express + better-sqlite3, GET /api/resolve", baselineResolve],
    ["Lectern GET /api/resolve (one organization)", resolve],
    ["Lectern GET / home page (one organization)", home],
    [`Lectern GET / home, organization 1 of ${ORGANIZATIONS}`, oneOfMany],
    [`Lectern GET / home, spread over ${ORGANIZATIONS} organizations (pool ${POOL_SIZE})`, spread],
  ] as const;
  console.log("requests/s    p50 ms   p99 ms   what");
  for (const [label, r] of rows) {
    console.log(`${String(r.rps).padStart(10)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)}   ${label}`);
  }
  const figures = {
    resolve_vs_baseline: ratio(resolve.rps, baselineResolve.rps),
    home_vs_baseline: ratio(home.rps, baselineResolve.rps),
    spread_vs_single_organization: ratio(spread.rps, oneOfMany.rps),
    peak_rss_mib_one_organization: singleRss,
    peak_rss_mib_many_organizations: manyRss,
    seconds_to_create_organizations: seedSeconds,
  };
  console.log("\nratios and figures");
  console.log(`  /api/resolve vs baseline:                ${figures.resolve_vs_baseline}`);
  console.log(`  home page vs baseline:                   ${figures.home_vs_baseline}`);
  console.log(`  spread over ${ORGANIZATIONS} vs one organization:   ${figures.spread_vs_single_organization}`);
  console.log(`  peak RSS, one organization:              ${singleRss} MiB`);
  console.log(`  peak RSS, ${ORGANIZATIONS} organizations:            ${manyRss} MiB`);
  console.log(`  creating ${ORGANIZATIONS} organizations took:        ${seedSeconds.toFixed(1)} s`);
  // 3. The learner's side at the size of a large organization.
  const big = await seedLearnerBench({
    courses: Number(process.env.BENCH_COURSES ?? 1_000),
    lessons: Number(process.env.BENCH_LESSONS ?? 20_000),
    learners: Number(process.env.BENCH_LEARNERS ?? 10_000),
    progressRows: Number(process.env.BENCH_PROGRESS_ROWS ?? 1_000_000),
  });
  const learnerServer = await start("server/index.ts", { DATA_DIR: big.dataDir, SEED_DEMO: "false", RATE_LIMIT_MUTATIONS: "100000000" });
  const pick = <T,>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const words = ["river", "mountain", "safety", "finance", "history", "design"];
  const learnerRuns = {
    home: await run({ port: learnerServer.port, path: "/", hosts: [big.host], vary: () => ({ headers: { cookie: pick(big.cookies) } }) }),
    course: await run({
      port: learnerServer.port,
      path: "/",
      hosts: [big.host],
      vary: () => ({ path: `/courses/${pick(big.courseIds)}`, headers: { cookie: pick(big.cookies) } }),
    }),
    search: await run({
      port: learnerServer.port,
      path: "/",
      hosts: [big.host],
      vary: () => ({ path: `/api/search?q=${pick(words)}`, headers: { authorization: `Bearer ${pick(big.tokens)}` } }),
    }),
    heartbeat: await run({
      port: learnerServer.port,
      path: "/api/lesson-progresses",
      hosts: [big.host],
      vary: () => ({
        method: "POST",
        body: JSON.stringify({ lesson_id: pick(big.lessonIds), position_seconds: 30, watched_seconds: 15 }),
        headers: { authorization: `Bearer ${pick(big.tokens)}`, "content-type": "application/json" },
      }),
    }),
  };
  await benchQuizzes(big, learnerServer.port, run, baselineResolve.rps);
  const learnerRss = peakRssMiB(learnerServer.child.pid!);
  await stop(learnerServer);
  fs.rmSync(big.dataDir, { recursive: true, force: true });
  console.log(
    `\nlearner side: ${big.counts.courses} courses, ${big.counts.lessons} lessons, ${big.counts.learners} learners, ${big.counts.progressRows} progress rows (seeded in ${big.seedSeconds.toFixed(1)} s)`,
  );
  console.log("requests/s   p50 ms   p95 ms   vs baseline   what");
  for (const [label, r] of Object.entries(learnerRuns)) {
    console.log(`${String(r.rps).padStart(10)} ${String(r.p50).padStart(8)} ${String(r.p95).padStart(8)} ${String(ratio(r.rps, baselineResolve.rps)).padStart(13)}   ${label}`);
  }
  const js = learnerHomeJs();
  console.log(`  learner home JavaScript: ${js.gzipKiB} KiB gzipped (${js.rawKiB} KiB raw, ${js.files} files); peak RSS ${learnerRss} MiB`);

  // 4. Copying a large course in the background (spec §4: "up to about 10 minutes").
  const clone = await benchClone({
    lessonCount: Number(process.env.BENCH_CLONE_LESSONS ?? 500),
    totalBytes: Number(process.env.BENCH_CLONE_BYTES ?? 1024 ** 3),
  });
  console.log(`  clone of ${clone.lessonCount} lessons and ${clone.totalMiB} MiB in ${clone.fileCount} files: ${clone.seconds} s`);
  await reportCertificates();
  console.log(
    `\n${JSON.stringify({
      bench: "lectern",
      ...figures,
      learner: Object.fromEntries(Object.entries(learnerRuns).map(([k, r]) => [k, { rps: r.rps, p95_ms: r.p95, vs_baseline: ratio(r.rps, baselineResolve.rps) }])),
      learner_home_js_gzip_kib: js.gzipKiB,
      clone_seconds: clone.seconds,
      clone_lessons: clone.lessonCount,
      clone_mib: clone.totalMiB,
    })}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
