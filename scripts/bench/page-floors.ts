import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import type { LearnerBenchData } from "./learner";
import { loaderFloor } from "./loader-floor";
import { ratio, run, type Load, type Measured } from "./measure";
import { stopProcess } from "./processes";
import { getPage, renderFloor } from "./render-floor";
import { start } from "./servers";
import { atLeast, type Report } from "./table";

/**
 * The floors printed beside the signed-in pages' rows and the heartbeat's (docs/decisions/014-speed.md, "How
 * it is measured"): what React alone, bare Remix and the page's loaders alone cost for the same page, and
 * the least a heartbeat can cost on this stack.
 */

/** React alone rendering the page's markup (scripts/bench/render-floor.ts), and the cpu ratio it leaves. */
async function reportRenderFloor({ json }: Report, what: string, html: string, baseline: Measured) {
  // What React alone costs to render this page's markup (scripts/bench/render-floor.ts): with the
  // baseline's whole request, it bounds the ratio the row could reach here.
  const f = await renderFloor(html);
  const bound = ratio(baseline.cpuPerRequest, baseline.cpuPerRequest + f.ms);
  console.log(
    `  floor of the ${what} row, React alone: renderToString of the same markup (${f.elements} elements, ${f.kib} KiB) as plain elements, in a hot loop: ${f.ms} ms; with the baseline's ${baseline.cpuPerRequest} ms, cpu ratio at most ${bound}`,
  );
  ((json.render_floors ??= {}) as Record<string, unknown>)[what] = { ...f, cpuRatioAtMost: bound };
}

/** Bare Express and Lectern's lane into Remix serving the same page (scripts/bench/baseline-page.ts), under the row's load. */
async function remixFloor(load: Load, html: string) {
  const pageFile = path.join(os.tmpdir(), `lectern-bench-page-${process.pid}.html`);
  try {
    fs.writeFileSync(pageFile, html);
    const floor = await start("scripts/bench/baseline-page.ts", { PAGE_FILE: pageFile });
    try {
      return await run({ ...load, port: floor.port, pid: floor.child.pid });
    } finally {
      await stopProcess(floor);
    }
  } finally {
    fs.rmSync(pageFile, { force: true });
  }
}

/**
 * The floors of a signed-in page's row (the learner home or the course page), measured after the row `r`,
 * and the row of that page against bare Remix serving it.
 */
export async function reportPageFloors(report: Report, what: string, load: Load, r: Measured, baseline: Measured, big: LearnerBenchData) {
  const { table, json } = report;
  const base = baseline.rps;
  const sample = load.vary!();
  const html = await getPage(load.port, sample.path ?? load.path, { ...(sample.headers ?? {}), host: big.host });
  await reportRenderFloor(report, what, html, baseline);
  // What a Remix app costs to serve this page (scripts/bench/baseline-page.ts): bare Express and
  // Lectern's lane into Remix, the page's markup and its kept loader data, under the row's load.
  const p = await remixFloor(load, html);
  console.log(
    `  floor of the ${what} row, bare Express + Remix serving the same page (kept data, markup as plain elements): ${p.rps} req/s, ${p.cpuPerRequest} CPU ms per request, p95 ${p.p95} ms; ratio ${ratio(p.rps, base)} (cpu ratio ${ratio(baseline.cpuPerRequest, p.cpuPerRequest)})`,
  );
  // Issue 33: the page at 0.8 of what bare Remix serving it manages in the same run.
  table.push({
    what: `${what} vs bare Remix serving the same page (${r.rps} vs ${p.rps} req/s)`,
    rps: r.rps,
    p95: r.p95,
    cpu: r.cpuPerRequest,
    cpuRatio: ratio(p.cpuPerRequest, r.cpuPerRequest),
    ...atLeast(ratio(r.rps, p.rps), 0.8),
  });
  if (what === "learner home (signed in)") {
    // The row above mostly answers from kept pages (server/learner-page-cache.ts): each of its learners
    // asks for an unchanged home many times. The same load with every page rendered, as for a learner's
    // first visit or one after a change: a query string no page was kept for.
    const rendered = await run({
      ...load,
      vary: () => ({ ...load.vary!(), path: `/?visit=${Math.random().toString(36).slice(2)}` }),
    });
    console.log(
      `  the ${what} row with every page rendered (nothing kept for it): ${rendered.rps} req/s, ${rendered.cpuPerRequest} CPU ms per request, p95 ${rendered.p95} ms; ${ratio(rendered.rps, p.rps)} of bare Remix serving the same page`,
    );
    json.learner_home_rendered = { ...rendered, ofBareRemix: ratio(rendered.rps, p.rps) };
  }
  // And what its data costs alone (scripts/bench/loader-floor.ts): both loaders called in a hot loop.
  const data = await loaderFloor({ dataDir: big.dataDir, host: big.host, vary: load.vary! });
  const both = ratio(baseline.cpuPerRequest, p.cpuPerRequest + data.ms);
  console.log(
    `  floor of the ${what} row, its two loaders alone (session, progress, cards; called in a hot loop, no HTTP or Remix): ${data.ms} ms; with the Remix floor's ${p.cpuPerRequest} ms, cpu ratio at most ${both}`,
  );
  ((json.page_floors ??= {}) as Record<string, unknown>)[what] = {
    ...p,
    ratio: ratio(p.rps, base),
    cpuRatio: ratio(baseline.cpuPerRequest, p.cpuPerRequest),
    loadersMs: data.ms,
    cpuRatioWithLoadersAtMost: both,
  };
}

/** The floor of the heartbeat row: the least a heartbeat can do on this stack (scripts/bench/baseline-heartbeat.ts). */
export async function reportHeartbeatFloor({ json }: Report, load: Load, baseline: Measured, big: LearnerBenchData) {
  const bare = await start("scripts/bench/baseline-heartbeat.ts", {
    TENANT_FILE: tenantDatabaseFile(big.dataDir, big.organizationId),
  });
  const f = await run({ ...load, port: bare.port, pid: bare.child.pid });
  await stopProcess(bare);
  console.log(
    `  floor of the heartbeat row, bare Express + better-sqlite3 (token, lesson, one upsert): ${f.rps} req/s, ${f.cpuPerRequest} CPU ms per request, p95 ${f.p95} ms; ratio ${ratio(f.rps, baseline.rps)} (cpu ratio ${ratio(baseline.cpuPerRequest, f.cpuPerRequest)})`,
  );
  json.heartbeat_floor = { ...f, ratio: ratio(f.rps, baseline.rps), cpuRatio: ratio(baseline.cpuPerRequest, f.cpuPerRequest) };
}
