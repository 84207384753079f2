import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { dayIn, DEFAULT_TIME_ZONE } from "../../app/utils/calendar";
import { cpuMs, get } from "./processes";

/**
 * The compliance report (issue 34) on the bench's large learner organization: every learner in an "All
 * staff" group and one of ten departments; ten courses assigned to all staff by fixed days (some past, some
 * ahead) and ten to each department 30 days after each person's assignment, so 10,000 learners × 20 assigned
 * courses = 200,000 assignment rows, 40% done, written in SQL as the app writes them (the triggers of
 * migration `compliance_triggers` keep the report's counters as they go); the learners' progress rows make
 * some of the rest started. Then the report page and /api call one request at a time, as an admin's
 * dashboard makes them. Target: p95 ≤ 50 ms for both (docs/decisions/037-compliance-report.md); the people
 * lists and a group admin's report are figures.
 */
export async function benchCompliance({
  port,
  host,
  dataDir,
  pid,
  requests = Number(process.env.BENCH_COMPLIANCE_REQUESTS ?? 200),
  coursesPerLearner = 20,
}: {
  port: number;
  host: string;
  dataDir: string;
  pid?: number;
  requests?: number;
  coursesPerLearner?: number;
}) {
  const folder = fs.readdirSync(dataDir).find((f) => /^org-\d+$/.test(f));
  if (!folder) throw new Error(`no organization in ${dataDir}`);
  const started = Date.now();
  const seeded = seedAssignments(path.join(dataDir, folder, "db.sqlite"), coursesPerLearner);
  const seedSeconds = (Date.now() - started) / 1000;
  const cookie = (token: string) => `lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`;
  const admin = { authorization: `Bearer ${seeded.tokens.adminApi}` };
  const page = { cookie: cookie(seeded.tokens.adminWeb) };
  const oneGroup = { authorization: `Bearer ${seeded.tokens.groupAdminApi}` };
  const twoGroups = { authorization: `Bearer ${seeded.tokens.twoGroupAdminApi}` };
  const course = seeded.courseIds[0];
  // [label, url, headers, p95 target in ms (null: a figure only)]
  const calls: Array<[string, string, Record<string, string>, number | null]> = [
    ["compliance report page (/dashboard/compliance)", "/dashboard/compliance", page, TARGET_MS],
    ["GET /api/compliance", "/api/compliance", admin, TARGET_MS],
    ["GET /api/compliance?group_id= (a department)", `/api/compliance?group_id=${seeded.departmentIds[0]}`, admin, null],
    ["dashboard overview page (with analytics, 30 days)", "/dashboard", page, null],
    ["for comparison: a dashboard page of a form (/dashboard/users/settings)", "/dashboard/users/settings", page, null],
    [
      "a course's assignments screen (all staff, 10,000 people, and a department)",
      `/dashboard/organizations/${folder.slice(4)}/courses/${course}/assignments`,
      page,
      null,
    ],
    ["people page, one course, overdue", `/dashboard/compliance/people?course_id=${course}&state=overdue`, page, null],
    ["GET /api/compliance/people?state=overdue (every course)", "/api/compliance/people?state=overdue", admin, null],
    ["GET /api/compliance/people?q= (a name)", "/api/compliance/people?q=learner123", admin, null],
    ["GET /api/compliance/people, page 100", "/api/compliance/people?per_page=100&page=100", admin, null],
    ["GET /api/compliance as a group admin of one department", "/api/compliance", oneGroup, null],
    ["GET /api/compliance as a group admin of two departments", "/api/compliance", twoGroups, null],
  ];
  console.log(
    `\ncompliance: ${seeded.learners} learners × ${coursesPerLearner} assigned courses, ${seeded.rows} assignment rows (seeded through the triggers in ${seedSeconds.toFixed(1)} s); one request at a time, ${requests} timed requests per row`,
  );
  console.log("  p50 ms   p95 ms  cpu ms/req   target     what");
  const results: Array<{ label: string; p50: number; p95: number; cpu: number | null; target: number | null; ok: boolean | null }> = [];
  for (const [label, url, headers, target] of calls) {
    // Warm up (the first row may be the server's first pages since it started: BENCH_ROWS can skip the learner rows).
    for (let i = 0; i < 50; i++) await get(port, host, url, headers);
    const times: number[] = [];
    const cpuBefore = pid ? cpuMs(pid) : 0;
    for (let i = 0; i < requests; i++) times.push(await get(port, host, url, headers));
    const cpu = pid ? Math.round(((cpuMs(pid) - cpuBefore) / requests) * 100) / 100 : null;
    times.sort((a, b) => a - b);
    const p = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * q))] * 10) / 10;
    const ok = target === null ? null : p(0.95) <= target;
    results.push({ label, p50: p(0.5), p95: p(0.95), cpu, target, ok });
    console.log(
      `${String(p(0.5)).padStart(8)} ${String(p(0.95)).padStart(8)} ${String(cpu ?? "").padStart(11)}   ${(target === null ? "" : `<= ${target}`).padEnd(7)}${ok === null ? "     " : ok ? " ok  " : " MISS"}  ${label}`,
    );
  }
  return { learners: seeded.learners, coursesPerLearner, rows: seeded.rows, seedSeconds, results };
}

/** Issue 34: the compliance report for 10,000 learners × 20 assigned courses under 50 ms p95. */
const TARGET_MS = 50;

/** Groups, assignments and their people in SQL; the triggers fill compliance_people and compliance_counts. */
export function seedAssignments(file: string, coursesPerLearner: number) {
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  const now = Math.floor(Date.now() / 1000);
  const zone =
    (db.prepare("select time_zone as zone from leaderboard_settings where id = 1").get() as { zone: string } | undefined)?.zone ??
    DEFAULT_TIME_ZONE;
  const today = dayIn(zone, new Date());
  const learners = (db.prepare("select id from users where role = 'learner' order by id").all() as { id: number }[]).map((r) => r.id);
  const half = coursesPerLearner / 2;
  const courseIds = (db.prepare("select id from courses order by id limit ?").all(half * 3) as { id: number }[]).map((r) => r.id);
  const tokens = {
    adminWeb: crypto.randomBytes(32).toString("base64url"),
    adminApi: crypto.randomBytes(32).toString("base64url"),
    groupAdminApi: crypto.randomBytes(32).toString("base64url"),
    twoGroupAdminApi: crypto.randomBytes(32).toString("base64url"),
  };
  const insert = (sql: string, ...params: unknown[]) => Number(db.prepare(sql).run(...params).lastInsertRowid);
  let departmentIds: number[] = [];
  db.transaction(() => {
    const all = insert("insert into groups (name) values ('All staff')");
    departmentIds = Array.from({ length: 10 }, (_, i) => insert("insert into groups (name) values (?)", `Department ${i + 1}`));
    const ids = JSON.stringify(learners);
    db.prepare("insert into group_members (group_id, user_id) select ?, value from json_each(?)").run(all, ids);
    db.prepare(
      "insert into group_members (group_id, user_id) select json_extract(?, '$[' || (value % 10) || ']'), value from json_each(?)",
    ).run(JSON.stringify(departmentIds), ids);
    // All staff: the first courses by fixed days from 20 days ago to 25 days ahead.
    for (let i = 0; i < half; i++) {
      const due = new Date(Date.parse(`${today}T00:00:00Z`) + (i * 5 - 20) * 86_400_000).toISOString().slice(0, 10);
      insert(
        "insert into assignments (course_id, target, group_id, due_kind, due_date) values (?, 'group', ?, 'date', ?)",
        courseIds[i],
        all,
        due,
      );
    }
    // Each department: ten of the next twenty courses, due 30 days after each person's assignment.
    departmentIds.forEach((group, d) => {
      for (let k = 0; k < half; k++)
        insert(
          "insert into assignments (course_id, target, group_id, due_kind, due_days) values (?, 'group', ?, 'days', 30)",
          courseIds[half + ((d + k) % (half * 2))],
          group,
        );
    });
    // Assigned over the last 60 days; 40% done.
    db.prepare(
      `insert into assignment_people (assignment_id, user_id, assigned_at, due_on, completed_at)
       select a.id, m.user_id, @now - ((m.user_id * 7 + a.id) % 60) * 86400,
         coalesce(a.due_date, date(@today, '-' || ((m.user_id * 7 + a.id) % 60) || ' days', '+30 days')),
         case when (m.user_id * 13 + a.id * 7) % 10 < 4 then @now - ((m.user_id + a.id) % 200) * 86400 end
       from assignments a join group_members m on m.group_id = a.group_id`,
    ).run({ now, today });
    const person = (email: string, role: string) =>
      insert("insert into users (email, first_name, last_name, role) values (?, 'Bench', 'Compliance', ?)", email, role);
    const admin = person("compliance-admin@bench.test", "admin");
    const lead = person("compliance-lead@bench.test", "learner");
    const lead2 = person("compliance-lead2@bench.test", "learner");
    db.prepare("insert into group_members (group_id, user_id, is_admin) values (?, ?, 1)").run(departmentIds[0], lead);
    for (const g of departmentIds.slice(0, 2))
      db.prepare("insert into group_members (group_id, user_id, is_admin) values (?, ?, 1)").run(g, lead2);
    const session = db.prepare(
      "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, ?, 'bench', '127.0.0.1', ?, ?, ?, 0, ?)",
    );
    const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
    session.run(hash(tokens.adminWeb), "web", now, now, now + 2_592_000, admin);
    session.run(hash(tokens.adminApi), "api", now, now, now + 2_592_000, admin);
    session.run(hash(tokens.groupAdminApi), "api", now, now, now + 2_592_000, lead);
    session.run(hash(tokens.twoGroupAdminApi), "api", now, now, now + 2_592_000, lead2);
  })();
  const rows = (db.prepare("select count(*) as n from assignment_people").get() as { n: number }).n;
  db.pragma("optimize");
  db.close();
  return { tokens, learners: learners.length, rows, courseIds, departmentIds };
}
