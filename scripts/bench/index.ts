import os from "node:os";
import { reportBackground } from "./background";
import { reportJs } from "./js";
import { benchLearnerSide } from "./learner-side";
import { benchLeaderboard } from "./leaderboard";
import { benchConcurrentProgress } from "./load";
import { run } from "./measure";
import { benchOneOrganization, benchSpread } from "./organizations";
import { stopProcess } from "./processes";
import { reportReminders } from "./reminder-rows";
import { start } from "./servers";
import { CONNECTIONS, DURATION, only } from "./settings";
import { atMost, printTable, type Report } from "./table";
import { reportXapi } from "./xapi";
import { reportPackages } from "./packages";
import { benchManagement } from "./management";
import { BULK_TARGET_S, SLICE_TARGET_MS } from "./management-bulk";

/**
 * `npm run bench`: throughput of Lectern against a bare Express + better-sqlite3 baseline measured in the
 * same run, the cost of spreading load over many organizations, and the server's peak memory.
 * Figures, not pass/fail: goals live here rather than in timed tests (DEVELOPERS.md).
 * Each part is a module of its own; their rows go into one table, printed before the background work.
 */
async function main() {
  console.log(`Lectern bench: ${DURATION}s per run, ${CONNECTIONS} connections, ${os.cpus().length} cores\n`);
  const report: Report = { table: [], json: { bench: "lectern" }, rssPeaks: [] };
  const { table, json, rssPeaks } = report;

  // 1. and 2.: the baseline and a visitor's requests, to one organization and spread over many (organizations.ts).
  const baseline = await benchOneOrganization(report, only);
  if (only("spread")) await benchSpread(report);
  // 3. The learner's side at the size of a large organization (learner-side.ts).
  if (only("learner")) await benchLearnerSide(report, baseline, only);

  // 4. docs/security.md's load row: 1,000 learners across 20 organizations posting progress at once.
  if (only("load")) {
    const load = await benchConcurrentProgress({
      start,
      stop: stopProcess,
      connections: Number(process.env.BENCH_LOAD_CONNECTIONS ?? 1000),
    });
    table.push({
      what: `${load.learners} learners in ${load.organizations} organizations posting progress at once: ${load.rowsExpected} posts, ${load.rows} rows written, ${load.failures} 5xx, ${load.non2xx} other non-2xx, ${load.clientTimeouts} client timeouts, ${load.rps} req/s, p95 ${load.p95} ms`,
      value: load.failures + load.lostWrites,
      target: "0 5xx, 0 lost writes",
      ok: load.failures === 0 && load.lostWrites === 0,
    });
    json.load = load;
  }

  if (only("js")) reportJs(report);
  // The leaderboard's servers run before the table is printed, so its rows are in it (issue 33: p95 <= 30 ms).
  if (only("leaderboard")) {
    for (const r of await benchLeaderboard({ start, stop: stopProcess, run })) {
      table.push({ what: `/leaderboard page, ${r.learners} learners: p95 ms`, ...atMost(r.page.p95, 30) });
    }
  }
  if (only("reminders")) await reportReminders(report);
  // Management lists at 100,000 people (issue 50, management.ts): each list's first, filtered and sorted page.
  if (only("management")) {
    const m = await benchManagement();
    console.log(
      `  management: ${m.people} people, ${m.courses} courses, ${m.groups} groups, ${m.progressRows} progress rows (seeded in ${m.seedSeconds} s)`,
    );
    for (const r of m.results) {
      console.log(`    ${r.label}: p50 ${r.p50} ms, p95 ${r.p95} ms, ${r.cpu} CPU ms/request`);
      table.push({
        what: `management, ${m.people.toLocaleString("en")} people: ${r.label}, p95 ms`,
        p95: r.p95,
        cpu: r.cpu,
        ...atMost(r.p95, r.target),
      });
    }
    if (m.bulk) {
      const b = m.bulk;
      console.log(
        `    bulk: ${b.done} of ${b.people} people added to a group in ${b.seconds} s, longest slice ${b.longestSliceMs} ms; meanwhile ${b.others.requests} list pages, p95 ${b.others.p95} ms, slowest ${b.others.slowest} ms`,
      );
      table.push({
        what: `management: a bulk action over ${b.people.toLocaleString("en")} people, seconds`,
        ...atMost(b.seconds, BULK_TARGET_S),
      });
      table.push({ what: "management: its longest write-lock slice, ms", ...atMost(b.longestSliceMs, SLICE_TARGET_MS) });
      table.push({ what: "management: a list page while it runs, p95 ms", ...atMost(b.others.p95, SLICE_TARGET_MS + 100) });
      console.log(`    then removed from it: ${b.removal.done} in ${b.removal.seconds} s, longest slice ${b.removal.longestSliceMs} ms`);
      table.push({ what: "management: the same people removed again, seconds", ...atMost(b.removal.seconds, BULK_TARGET_S) });
      table.push({ what: "management: the removal's longest write-lock slice, ms", ...atMost(b.removal.longestSliceMs, SLICE_TARGET_MS) });
    }
    json.management = m;
  }
  // The Learning Record Store (issue 47): ingest, a filtered GET among 1,000,000 statements, `more` paging (xapi.ts).
  if (only("xapi")) reportXapi(report);
  // xAPI and cmi5 packages (issue 48): an AU's statements through its launch's rules, launches (packages.ts).
  if (only("packages")) reportPackages(report);

  if (rssPeaks.length) table.push({ what: "peak RSS of the other servers (MiB)", ...atMost(Math.max(...rssPeaks), 200) });
  printTable(table);
  json.rows = table;

  // 5. Work in the background and off the request path: copying a course, certificates, SCORM, captions, groups.
  await reportBackground(json, only);
  console.log(`\n${JSON.stringify(json)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
