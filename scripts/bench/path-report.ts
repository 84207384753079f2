import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { timeOneByOne } from "./processes";

/**
 * Issue 49: a learning path's assignment report over 10,000 people, each with their due state and every step's
 * state (app/models/paths/path-report.server.ts), one request at a time as an admin's screen asks for it: /api's
 * people of the assignment (first page, a page in the middle) and the path editor showing the report. Target: p95
 * ≤ 50 ms for the first page; the others are figures. The same 10,000 people in the organization's compliance
 * report (app/models/compliance-paths.server.ts): its per-path table read from the assignments, and the first page
 * of the path's overdue people; target p95 ≤ 50 ms each.
 */
const TARGET_MS = 50;

/** Every learner in one group the path is assigned to (due 10 days ago: overdue unless done), and an admin's sessions. */
function seed(file: string, pathId: number) {
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  const now = Math.floor(Date.now() / 1000);
  const due = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  const web = crypto.randomBytes(32).toString("base64url");
  const api = crypto.randomBytes(32).toString("base64url");
  let assignmentId = 0;
  let people = 0;
  db.transaction(() => {
    const admin = Number(
      db.prepare("insert into users (email, first_name, last_name, role) values ('path-admin@bench.test', 'Path', 'Admin', 'admin')").run()
        .lastInsertRowid,
    );
    const session = db.prepare(
      "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, ?, 'bench', '127.0.0.1', ?, ?, ?, 0, ?)",
    );
    for (const [token, kind] of [
      [web, "web"],
      [api, "api"],
    ])
      session.run(crypto.createHash("sha256").update(token).digest("hex"), kind, now, now, now + 86_400, admin);
    const group = Number(db.prepare("insert into groups (name) values ('Path cohort')").run().lastInsertRowid);
    db.prepare("insert into group_members (group_id, user_id) select ?, id from users where role = 'learner'").run(group);
    assignmentId = Number(
      db
        .prepare("insert into path_assignments (path_id, target, group_id, due_kind, due_date) values (?, 'group', ?, 'date', ?)")
        .run(pathId, group, due).lastInsertRowid,
    );
    people = db
      .prepare(
        "insert into path_assignment_people (assignment_id, user_id, assigned_at, due_on) select ?, user_id, ?, ? from group_members where group_id = ?",
      )
      .run(assignmentId, now - 20 * 86_400, due, group).changes;
    db.prepare(
      "insert into path_enrolments (path_id, user_id, source, enrolled_at) select ?, user_id, 'assigned', ? from group_members where group_id = ? on conflict do nothing",
    ).run(pathId, now - 20 * 86_400, group);
  })();
  db.close();
  const cookie = `lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(web)).toString("base64"))}`;
  return { assignmentId, people, api, cookie };
}

export async function benchPathReport({
  port,
  host,
  dataDir,
  pid,
  pathId,
  requests = Number(process.env.BENCH_PATH_REPORT_REQUESTS ?? 200),
}: {
  port: number;
  host: string;
  dataDir: string;
  pid?: number;
  pathId: number;
  requests?: number;
}) {
  const folder = fs.readdirSync(dataDir).find((f) => /^org-\d+$/.test(f));
  if (!folder) throw new Error(`no organization in ${dataDir}`);
  const seeded = seed(path.join(dataDir, folder, "db.sqlite"), pathId);
  const api = { authorization: `Bearer ${seeded.api}` };
  const calls: Array<[string, string, Record<string, string>, number | null]> = [
    [
      `GET /api/learning-path-assignments/{id}/people, first page`,
      `/api/learning-path-assignments/${seeded.assignmentId}/people`,
      api,
      TARGET_MS,
    ],
    [
      "GET /api/learning-path-assignments/{id}/people, page 100 of 50",
      `/api/learning-path-assignments/${seeded.assignmentId}/people?per_page=50&page=100`,
      api,
      null,
    ],
    ["GET /api/compliance (per course, per path of 10,000 people, per group)", "/api/compliance", api, TARGET_MS],
    [
      "GET /api/compliance/people?path_id=…&state=overdue, first page",
      `/api/compliance/people?path_id=${pathId}&state=overdue`,
      api,
      TARGET_MS,
    ],
    [
      "the path editor (its assignments, no report)",
      `/dashboard/organizations/${folder.slice(4)}/paths/${pathId}`,
      { cookie: seeded.cookie },
      null,
    ],
    [
      "the path's analytics and people page (every enrolment's progress, a page of the report)",
      `/dashboard/organizations/${folder.slice(4)}/paths/${pathId}/report?assignment=${seeded.assignmentId}`,
      { cookie: seeded.cookie },
      null,
    ],
  ];
  const results: Array<{ label: string; p50: number; p95: number; cpu: number | null; target: number | null }> = [];
  for (const [label, url, headers, target] of calls)
    results.push({ label, ...(await timeOneByOne({ port, host, url, headers, pid }, { requests, warm: 30 })), target });
  return { people: seeded.people, results };
}
