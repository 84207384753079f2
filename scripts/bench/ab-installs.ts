// `node --import tsx scripts/bench/ab-installs.ts`: the bench's request rows against several checkouts or
// install states at once (AB_VARIANTS="name=dir,name=dir": each dir a whole tree with its own build/ and
// node_modules/, e.g. a copy with one library changed; docs/decisions/041-stock-remix.md). Every variant's
// server, and its bare-Remix page floors (scripts/bench/baseline-page.ts), runs for the whole run; each round
// measures every row on every variant for AB_SECONDS, the variants' order rotating, so the machine's drift
// falls on all alike. Prints server CPU ms per request for each run, and the medians with the cpu ratio
// against the bare baseline (scripts/bench/baseline.ts). AB_ROUNDS (8), AB_SECONDS (3), AB_ROWS.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { SEARCH_WORDS, seedLearnerBench } from "./learner";
import { cpuMs, startProcess, stopProcess, type Server } from "./processes";
import { getPage } from "./render-floor";
import { NODE_FLAGS } from "../../server/node-flags";

const rounds = Number(process.env.AB_ROUNDS ?? 8);
const seconds = Number(process.env.AB_SECONDS ?? 3);
const variants = process.env
  .AB_VARIANTS!.split(",")
  .map((s) => s.split("="))
  .map(([name, dir]) => ({ name, dir: path.resolve(dir) }));

type Vary = () => { path: string; method?: string; body?: string; headers: Record<string, string> };
type Result = { cpu: number; rps: number; p95: number };

async function measure(server: Server, host: string, vary: Vary, secs: number): Promise<Result> {
  const pid = server.child.pid!;
  const before = cpuMs(pid);
  const latencies: number[] = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: 10,
    duration: secs,
    requests: [
      {
        method: "GET",
        path: "/",
        setupRequest: (req: autocannon.Request) => {
          const x = vary();
          return { ...req, ...x, headers: { ...req.headers, ...x.headers, host } } as autocannon.Request;
        },
      },
    ],
  });
  (instance as unknown as NodeJS.EventEmitter).on("response", (_c: unknown, _s: number, _b: number, t: number) => latencies.push(t));
  const r = await instance;
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  latencies.sort((a, b) => a - b);
  return {
    cpu: (cpuMs(pid) - before) / r.requests.total,
    rps: r.requests.average,
    p95: latencies[Math.floor(latencies.length * 0.95)] ?? NaN,
  };
}

async function main() {
  const data = await seedLearnerBench({ sessions: 200 });
  const pick = <T>(l: T[]) => l[Math.floor(Math.random() * l.length)];
  const cookie = () => ({ cookie: pick(data.cookies) });
  const loads: Record<string, Vary> = {
    resolve: () => ({ path: `/api/resolve?domain=${data.host}`, headers: {} }),
    visitor: () => ({ path: "/", headers: {} }),
    home: () => ({ path: "/", headers: cookie() }),
    rendered: () => ({ path: `/?visit=${Math.random().toString(36).slice(2)}`, headers: cookie() }),
    course: () => ({ path: `/courses/${pick(data.courseIds)}`, headers: cookie() }),
    leaderboard: () => ({ path: "/leaderboard", headers: cookie() }),
    search: () => ({ path: `/api/search?q=${pick(SEARCH_WORDS)}`, headers: { authorization: `Bearer ${pick(data.tokens)}` } }),
    heartbeat: () => ({
      path: "/api/lesson-progresses",
      method: "POST",
      body: JSON.stringify({ lesson_id: pick(data.lessonIds), position_seconds: 30, watched_seconds: 15 }),
      headers: { authorization: `Bearer ${pick(data.tokens)}`, "content-type": "application/json" },
    }),
  };
  const rows = process.env.AB_ROWS?.split(",") ?? [...Object.keys(loads), "floor-home", "floor-course"];
  const env = { DATA_DIR: data.dataDir, RATE_LIMIT_MUTATIONS: "100000000" };
  const servers: Record<string, Record<string, Server>> = {};
  const files: string[] = [];
  const base = await startProcess(["--import", "tsx", "scripts/bench/baseline.ts"], env, variants[0].dir);
  try {
    for (const v of variants) {
      const server = await startProcess([...NODE_FLAGS, path.join(v.dir, "build/server.js")], env, v.dir);
      servers[v.name] = { app: server };
      for (const page of ["home", "course"]) {
        if (!rows.includes(`floor-${page}`)) continue;
        const sample = loads[page]();
        const file = path.join(os.tmpdir(), `ab-installs-${process.pid}-${v.name}-${page}.html`);
        fs.writeFileSync(file, await getPage(server.port, sample.path, { ...sample.headers, host: data.host }));
        files.push(file);
        servers[v.name][`floor-${page}`] = await startProcess(
          [...NODE_FLAGS, "--import", "tsx", "scripts/bench/baseline-page.ts"],
          { PAGE_FILE: file },
          v.dir,
        );
      }
    }
    const serverFor = (v: string, row: string) => servers[v][row.startsWith("floor-") ? row : "app"];
    const loadFor = (row: string) => loads[row.replace(/^floor-/, "")];
    // Warm-up: every row on every variant (the learner pages are kept from a learner's second visit on).
    for (const row of rows)
      for (const v of variants) await measure(serverFor(v.name, row), data.host, loadFor(row), row === "home" ? 10 : 3);
    const results: Record<string, Record<string, Result[]>> = {};
    const note = (row: string, name: string, r: Result) => {
      ((results[row] ??= {})[name] ??= []).push(r);
      console.log(
        `${name.padEnd(10)} ${row.padEnd(13)} ${r.cpu.toFixed(3)} CPU ms/req  ${Math.round(r.rps)} req/s  p95 ${r.p95.toFixed(1)} ms`,
      );
    };
    for (let round = 0; round < rounds; round++) {
      console.log(`--- round ${round + 1}`);
      note("baseline", "-", await measure(base, data.host, loads.resolve, seconds));
      for (const row of rows) {
        const order = [...variants.slice(round % variants.length), ...variants.slice(0, round % variants.length)];
        for (const v of round % 2 ? order.reverse() : order)
          note(row, v.name, await measure(serverFor(v.name, row), data.host, loadFor(row), seconds));
      }
    }
    const median = (l: number[]) => {
      const s = [...l].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const baseCpu = median(results.baseline["-"].map((r) => r.cpu));
    console.log(`\nbaseline: ${baseCpu.toFixed(3)} CPU ms/req (median of ${rounds})`);
    console.log(`row          ${variants.map((v) => v.name.padStart(24)).join("")}`);
    console.log(`             ${variants.map(() => "cpu ms (cpu ratio) p95".padStart(24)).join("")}`);
    for (const row of rows) {
      const cells = variants.map((v) => {
        const list = results[row][v.name];
        const cpu = median(list.map((r) => r.cpu));
        return `${cpu.toFixed(3)} (${(baseCpu / cpu).toFixed(3)}) ${median(list.map((r) => r.p95)).toFixed(0)}`.padStart(24);
      });
      console.log(`${row.padEnd(13)}${cells.join("")}`);
    }
    console.log(`\n${JSON.stringify({ baseCpu, results })}`);
  } finally {
    await stopProcess(base);
    for (const byRow of Object.values(servers)) for (const s of Object.values(byRow)) await stopProcess(s);
    for (const f of files) fs.rmSync(f, { force: true });
    fs.rmSync(data.dataDir, { recursive: true, force: true });
  }
}

void main();
