import fs from "node:fs";
import { benchBulk } from "./management-bulk";
import { BIG_COURSE, BIG_GROUP, seedManagement, type BenchOrganization } from "./management-seed";
import { stopProcess, timeOneByOne } from "./processes";
import { start } from "./servers";

/**
 * Issue 50: the management lists of an organization of 100,000 people, 2,000 courses, 500 groups and 2,000,000
 * progress rows, with what every other list reads at that size (scripts/bench/management-seed.ts writes it straight
 * into its database), one request at a time as an admin's screen asks: each list's first page, a filtered page and a
 * sorted page. Target: p95 ≤ 100 ms each. Then a bulk action over 50,000 of them (scripts/bench/management-bulk.ts).
 * `BENCH_MANAGEMENT_KEEP=1` keeps the data directory (its path printed) to look at its queries afterwards.
 */
const TARGET_MS = 100;

/** Each list's rows: [label, address, on the platform host as a super-admin]. */
function rowsOf(org: BenchOrganization): Array<[string, string, boolean?]> {
  const users = "/dashboard/users";
  const base = `/dashboard/organizations/${org.organizationId}`;
  const list = `${base}/courses`;
  const group = 250;
  const bigAssignment = `${base}/courses/${BIG_COURSE}/assignments?assignment=${org.assignments.big}`;
  const groupAssignment = `${base}/groups/${group}/assignments?assignment=${org.assignments.byGroup.get(group)}`;
  const learners = `${base}/courses/${BIG_COURSE}/learners`;
  const api = `/admin/organizations/${org.organizationId}/api`;
  return [
    ["people, first page", users],
    ["people, filtered (learners of one group, active)", `${users}?role=learner&group=250&status=active`],
    ["people, sorted (e-mail, descending)", `${users}?sort=email&dir=desc`],
    ["people, searched (part of a name)", `${users}?q=design123`],
    ["people, filtered (not active for 90 days)", `${users}?seen=over_90d`],
    ["people, sorted (last active)", `${users}?sort=seen`],
    ["people, page 2,000 of 25", `${users}?page=2000`],
    ["courses, first page", list],
    ["courses, filtered (a category's drafts)", `${list}?category=5&state=draft`],
    ["courses, sorted (last changed)", `${list}?sort=updated`],
    // A person, whole: one of the 100,000, with their 20 lessons' progress among the 2,000,000 rows.
    ["a person's page", `${users}/50000/overview`],
    ["groups, first page", `${base}/groups`],
    ["groups, filtered (kept by hand, searched)", `${base}/groups?kind=manual&q=Team%2012`],
    ["groups, sorted (members)", `${base}/groups?sort=members`],
    ["a group of 200's members, first page", `${base}/groups/${group}`],
    ["a group of 200's members, filtered (active)", `${base}/groups/${group}?status=active`],
    ["a group of 200's members, sorted (e-mail)", `${base}/groups/${group}?sort=email`],
    ["a group of 50,000's members, first page", `${base}/groups/${BIG_GROUP}`],
    ["a group of 50,000's members, filtered (deactivated)", `${base}/groups/${BIG_GROUP}?status=disabled`],
    ["a group of 50,000's members, sorted (e-mail, descending)", `${base}/groups/${BIG_GROUP}?sort=email&dir=desc`],
    ["quizzes, first page", `${base}/quizzes`],
    ["quizzes, filtered (used, deadline to come)", `${base}/quizzes?use=used&deadline=open`],
    ["quizzes, sorted (attempts)", `${base}/quizzes?sort=attempts`],
    ["certificate templates, first page", `${base}/certificate-templates`],
    ["certificate templates, filtered (used)", `${base}/certificate-templates?use=used`],
    ["certificate templates, sorted (courses)", `${base}/certificate-templates?sort=courses`],
    ["issued certificates, first page", `${base}/certificates`],
    ["issued certificates, filtered (a course's valid ones)", `${base}/certificates?course=17&state=valid`],
    ["issued certificates, sorted (person)", `${base}/certificates?sort=person`],
    ["a course's assignment of 50,000, first page", bigAssignment],
    ["a course's assignment of 50,000, filtered (overdue)", `${bigAssignment}&state=overdue`],
    ["a course's assignment of 50,000, sorted (due, descending)", `${bigAssignment}&sort=due&dir=desc`],
    ["a group's assignment, first page", groupAssignment],
    ["a group's assignment, filtered (not started)", `${groupAssignment}&state=not_started`],
    ["a group's assignment, sorted (state)", `${groupAssignment}&sort=state`],
    ["a course's 50,000 learners, first page", learners],
    ["a course's 50,000 learners, filtered (completed)", `${learners}?state=completed`],
    ["a course's 50,000 learners, sorted (progress)", `${learners}?sort=progress`],
    ["imports, first page", `${users}/import`],
    ["imports, filtered (failed)", `${users}/import?status=failed`],
    ["imports, sorted (rows)", `${users}/import?sort=rows`],
    ["API tokens, first page", api, true],
    ["API tokens, filtered (live, reading people)", `${api}?state=active&capability=read:user`, true],
    ["API tokens, sorted (last used)", `${api}?sort=lastUsed`, true],
    ["LRS credentials, first page", `${base}/lrs`],
    ["LRS credentials, filtered (revoked)", `${base}/lrs?state=revoked`],
    ["LRS credentials, sorted (name)", `${base}/lrs?sort=name`],
    ["organizations, first page", "/admin/organizations", true],
    ["organizations, filtered (Polish, sign-in code)", "/admin/organizations?language=pl&twoFactor=required", true],
    ["organizations, sorted (people)", "/admin/organizations?sort=people", true],
    ["the audit, first page", `${users}/audit`],
    ["the audit, filtered (members added through /api)", `${users}/audit?action=member_added&via=api`],
    ["the audit, sorted (oldest first)", `${users}/audit?dir=asc`],
  ];
}

export async function benchManagement({
  people = Number(process.env.BENCH_MANAGEMENT_PEOPLE ?? 100_000),
  courses = 2_000,
  groups = 500,
  progressRows = Number(process.env.BENCH_MANAGEMENT_PROGRESS ?? 2_000_000),
  requests = Number(process.env.BENCH_MANAGEMENT_REQUESTS ?? 100),
} = {}) {
  const seededAt = Date.now();
  const org = seedManagement({ people, courses, groups, progressRows });
  const seedSeconds = (Date.now() - seededAt) / 1000;
  const kept = process.env.BENCH_MANAGEMENT_KEEP ? `, kept in ${org.dataDir}` : "";
  console.log(`  management: seeded in ${seedSeconds} s (${JSON.stringify(org.timings)})${kept}`);
  const server = await start("server/index.ts", { DATA_DIR: org.dataDir, PLATFORM_DOMAIN: "localhost" });
  // `BENCH_MANAGEMENT_ROWS=<part of a label>`: only those rows, and no bulk action.
  const only = process.env.BENCH_MANAGEMENT_ROWS;
  const rows = rowsOf(org).filter(([label]) => !only || label.includes(only));
  const results: Array<{ label: string; p50: number; p95: number; cpu: number; target: number }> = [];
  let bulk: Awaited<ReturnType<typeof benchBulk>> | null = null;
  try {
    for (const [label, url, platform] of rows) {
      const as = platform ? { host: "localhost", cookie: org.platformCookie } : { host: org.host, cookie: org.cookie };
      // A row that does not answer 200 (a list not built yet) is a miss of its own rather than the end of the bench.
      const timed = await timeOneByOne(
        { port: server.port, host: as.host, url, headers: { cookie: as.cookie }, pid: server.child.pid },
        { requests, warm: 10 },
      ).catch((error: Error) => {
        console.log(`    ${label}: ${error.message}`);
        return { p50: Infinity, p95: Infinity, cpu: 0 };
      });
      results.push({ label, ...timed, cpu: timed.cpu ?? 0, target: TARGET_MS });
    }
    // Last: it adds 50,000 people to a group (scripts/bench/management-bulk.ts).
    if (!only)
      bulk = await benchBulk({
        port: server.port,
        host: org.host,
        dataDir: org.dataDir,
        organizationId: org.organizationId,
        cookie: org.cookie,
      });
  } finally {
    await stopProcess(server);
    if (!process.env.BENCH_MANAGEMENT_KEEP) fs.rmSync(org.dataDir, { recursive: true, force: true });
  }
  return { people, courses, groups, progressRows, seedSeconds: Math.round(seedSeconds * 10) / 10, results, bulk };
}
