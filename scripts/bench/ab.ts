// `node --import tsx scripts/bench/ab.ts`: an A/B comparison of two server builds or settings on the same
// learner data, alternating them so that a busy machine's drift falls on both alike. Each variant is a
// directory holding a build (`AB_A`, `AB_B`, default: this checkout) and extra environment
// (`AB_ENV_A`, `AB_ENV_B`: "NAME=value NAME=value") and Node flags (`AB_FLAGS_A`, `AB_FLAGS_B`: instead of
// server/node-flags.ts). `AB_ROWS=home,course,resolve,search,heartbeat`, `AB_ROUNDS`,
// `AB_SECONDS`. Prints CPU ms per request and requests/s for each run and the medians.
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { SEARCH_WORDS, seedLearnerBench } from "./learner";
import { cpuMs, startProcess, stopProcess } from "./processes";
import { NODE_FLAGS } from "../../server/node-flags";

const ROOT = path.resolve(import.meta.dirname, "../..");
const rounds = Number(process.env.AB_ROUNDS ?? 3);
const seconds = Number(process.env.AB_SECONDS ?? 5);
const rows = (process.env.AB_ROWS ?? "home,course").split(",");
const envOf = (s?: string) =>
  Object.fromEntries(
    (s ?? "")
      .split(" ")
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );

const flagsOf = (s?: string) => (s === undefined ? NODE_FLAGS : s.split(" ").filter(Boolean));

const start = (dir: string, flags: string[], env: Record<string, string>, dataDir: string) =>
  startProcess([...flags, path.join(dir, "build/server.js")], { DATA_DIR: dataDir, RATE_LIMIT_MUTATIONS: "100000000", ...env }, dir);

async function main() {
  const data = await seedLearnerBench({ sessions: 200 });
  const pick = <T>(l: T[]) => l[Math.floor(Math.random() * l.length)];
  const loads: Record<string, () => { path: string; method?: string; body?: string; headers: Record<string, string> }> = {
    home: () => ({ path: "/", headers: { cookie: pick(data.cookies) } }),
    course: () => ({ path: `/courses/${pick(data.courseIds)}`, headers: { cookie: pick(data.cookies) } }),
    resolve: () => ({ path: `/api/resolve?domain=${data.host}`, headers: {} }),
    search: () => ({ path: `/api/search?q=${pick(SEARCH_WORDS)}`, headers: { authorization: `Bearer ${pick(data.tokens)}` } }),
    heartbeat: () => ({
      path: "/api/lesson-progresses",
      method: "POST",
      body: JSON.stringify({ lesson_id: pick(data.lessonIds), position_seconds: 30, watched_seconds: 15 }),
      headers: { authorization: `Bearer ${pick(data.tokens)}`, "content-type": "application/json" },
    }),
  };
  const variants = [
    { name: "A", dir: path.resolve(process.env.AB_A ?? ROOT), env: envOf(process.env.AB_ENV_A), flags: flagsOf(process.env.AB_FLAGS_A) },
    { name: "B", dir: path.resolve(process.env.AB_B ?? ROOT), env: envOf(process.env.AB_ENV_B), flags: flagsOf(process.env.AB_FLAGS_B) },
  ];
  const results: Record<string, Record<string, number[]>> = {};
  for (let round = 0; round < rounds; round++) {
    for (const v of round % 2 ? [...variants].reverse() : variants) {
      const server = await start(v.dir, v.flags, v.env, data.dataDir);
      for (const row of rows) {
        const vary = loads[row];
        // Warm-up, then the measured run.
        for (const measured of [false, true]) {
          const before = cpuMs(server.child.pid!);
          const r = await autocannon({
            url: `http://127.0.0.1:${server.port}`,
            connections: 10,
            duration: measured ? seconds : 3,
            requests: [
              {
                method: "GET",
                path: "/",
                setupRequest: (req: autocannon.Request) => {
                  const x = vary();
                  return { ...req, ...x, headers: { ...req.headers, ...x.headers, host: data.host } } as autocannon.Request;
                },
              },
            ],
          });
          if (!measured) continue;
          const cpu = (cpuMs(server.child.pid!) - before) / r.requests.total;
          if (r.non2xx || r.errors) throw new Error(`${v.name} ${row}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          ((results[row] ??= {})[v.name] ??= []).push(cpu);
          console.log(
            `round ${round + 1} ${v.name} ${row.padEnd(9)} ${cpu.toFixed(3)} CPU ms/req  ${Math.round(r.requests.average)} req/s  p95~${r.latency.p97_5} ms`,
          );
        }
      }
      await stopProcess(server);
    }
  }
  const median = (l: number[]) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)];
  for (const row of rows)
    console.log(
      `${row}: A ${median(results[row].A).toFixed(3)}  B ${median(results[row].B).toFixed(3)} CPU ms/req (B/A ${(median(results[row].B) / median(results[row].A)).toFixed(3)})`,
    );
  fs.rmSync(data.dataDir, { recursive: true, force: true });
}

void main();
