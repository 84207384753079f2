import fs from "node:fs";
import { benchAnalytics } from "./analytics";
import { benchCompliance } from "./compliance";
import { benchPathReport } from "./path-report";
import { SEARCH_WORDS, seedLearnerBench, type LearnerBenchData } from "./learner";
import { ratio, run, type Load, type Measured } from "./measure";
import { reportHeartbeatFloor, reportPageFloors } from "./page-floors";
import { stopProcess } from "./processes";
import { benchQuizzes } from "./quizzes";
import { peakRssMiB, start } from "./servers";
import { atLeast, atMost, type Report } from "./table";

/** The learner rows: what, the load, the target ratio against the baseline and the target p95 in ms. */
function learnerRows(big: LearnerBenchData, port: number, pid: number | undefined): Array<[string, Load, number, number]> {
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  return [
    [
      "learner home (signed in)",
      { port, pid, path: "/", hosts: [big.host], vary: () => ({ headers: { cookie: pick(big.cookies) } }) },
      0.15,
      50,
    ],
    [
      "course page",
      {
        port,
        pid,
        path: "/",
        hosts: [big.host],
        vary: () => ({ path: `/courses/${pick(big.courseIds)}`, headers: { cookie: pick(big.cookies) } }),
      },
      0.15,
      50,
    ],
    // Issue 49: a learner on three learning paths: their home ("Your paths") and a path's page.
    [
      "learner home with 3 paths (signed in)",
      { port, pid, path: "/", hosts: [big.host], vary: () => ({ headers: { cookie: pick(big.pathCookies) } }) },
      0.15,
      50,
    ],
    [
      "path page",
      {
        port,
        pid,
        path: "/",
        hosts: [big.host],
        vary: () => ({ path: `/paths/${pick(big.pathIds)}`, headers: { cookie: pick(big.pathCookies) } }),
      },
      0.15,
      50,
    ],
    [
      "search (/api/search)",
      {
        port,
        pid,
        path: "/",
        hosts: [big.host],
        vary: () => ({ path: `/api/search?q=${pick(SEARCH_WORDS)}`, headers: { authorization: `Bearer ${pick(big.tokens)}` } }),
      },
      0.1,
      60,
    ],
    [
      "progress heartbeat",
      {
        port,
        pid,
        path: "/api/lesson-progresses",
        hosts: [big.host],
        vary: () => ({
          method: "POST",
          body: JSON.stringify({ lesson_id: pick(big.lessonIds), position_seconds: 30, watched_seconds: 15 }),
          headers: { authorization: `Bearer ${pick(big.tokens)}`, "content-type": "application/json" },
        }),
      },
      0.5,
      10,
    ],
  ];
}

/** Issue 34: the compliance report over 10,000 learners × 20 assigned courses (scripts/bench/compliance.ts). */
async function reportCompliance({ table, json }: Report, big: LearnerBenchData, port: number, pid: number | undefined) {
  const c = await benchCompliance({ port, host: big.host, dataDir: big.dataDir, pid });
  for (const r of c.results.filter((r) => r.target !== null))
    table.push({
      what: `compliance report, ${c.learners.toLocaleString("en")} learners × ${c.coursesPerLearner} assigned courses: ${r.label}, p95 ms`,
      p95: r.p95,
      cpu: r.cpu ?? undefined,
      ...atMost(r.p95, r.target!),
    });
  json.compliance = c;
}

/** Issue 49: a learning path's assignment report over every learner (scripts/bench/path-report.ts). */
async function reportPathReport({ table, json }: Report, big: LearnerBenchData, port: number, pid: number | undefined) {
  const r = await benchPathReport({ port, host: big.host, dataDir: big.dataDir, pid, pathId: big.pathIds[0] });
  for (const row of r.results) {
    console.log(`  ${row.label}: p50 ${row.p50} ms, p95 ${row.p95} ms, ${row.cpu} CPU ms/request`);
    if (row.target !== null)
      table.push({
        what: `path report, ${r.people.toLocaleString("en")} people: ${row.label}, p95 ms`,
        p95: row.p95,
        cpu: row.cpu ?? undefined,
        ...atMost(row.p95, row.target),
      });
  }
  json.path_report = r;
}

/** 3. The learner's side at the size of a large organization. */
export async function benchLearnerSide(report: Report, baseline: Measured, only: (part: string) => boolean) {
  const { table, rssPeaks } = report;
  const big = await seedLearnerBench({
    courses: Number(process.env.BENCH_COURSES ?? 1_000),
    lessons: Number(process.env.BENCH_LESSONS ?? 20_000),
    learners: Number(process.env.BENCH_LEARNERS ?? 10_000),
    progressRows: Number(process.env.BENCH_PROGRESS_ROWS ?? 1_000_000),
  });
  console.log(
    `learner side: ${big.counts.courses} courses, ${big.counts.lessons} lessons, ${big.counts.learners} learners, ${big.counts.progressRows} progress rows (seeded in ${big.seedSeconds.toFixed(1)} s)`,
  );
  const learnerServer = await start("server/index.ts", { DATA_DIR: big.dataDir, RATE_LIMIT_MUTATIONS: "100000000" });
  const { port } = learnerServer;
  const { pid } = learnerServer.child;
  // `BENCH_ROWS=heartbeat,search`: only the learner rows whose name contains one of these words.
  const rowFilter = process.env.BENCH_ROWS?.split(",")
    .map((w) => w.trim())
    .filter(Boolean);
  for (const [what, load, ratioTarget, p95Target] of learnerRows(big, port, pid)) {
    if (rowFilter && !rowFilter.some((w) => what.includes(w))) continue;
    const r = await run(load);
    table.push({
      what,
      rps: r.rps,
      p95: r.p95,
      cpu: r.cpuPerRequest,
      cpuRatio: ratio(baseline.cpuPerRequest, r.cpuPerRequest),
      ...atLeast(ratio(r.rps, baseline.rps), ratioTarget),
    });
    table.push({ what: `${what}: p95 ms`, ...atMost(r.p95, p95Target) });
    if (["learner home (signed in)", "course page", "learner home with 3 paths (signed in)", "path page"].includes(what))
      await reportPageFloors(report, what, load, r, baseline, big);
    if (what === "progress heartbeat") await reportHeartbeatFloor(report, load, baseline, big);
  }
  if (only("quizzes")) await benchQuizzes(big, port, run, baseline.rps);
  if (only("analytics")) await benchAnalytics({ port, host: big.host, dataDir: big.dataDir, pid });
  if (only("compliance")) await reportCompliance(report, big, port, pid);
  if (only("paths")) await reportPathReport(report, big, port, pid);
  rssPeaks.push(peakRssMiB(pid!));
  await stopProcess(learnerServer);
  fs.rmSync(big.dataDir, { recursive: true, force: true });
}
