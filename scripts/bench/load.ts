import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { createOrganization } from "../../app/models/organization.server";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import type { Server } from "./processes";

/**
 * docs/security.md's load row: `learners` learners spread over `organizations` organizations, each posting
 * progress heartbeats for `lessonsEach` lessons, all at once (one connection per learner). Every post
 * writes its own (learner, lesson) row, so counting the rows afterwards shows whether any write was lost.
 */
export async function benchConcurrentProgress({
  start,
  stop,
  organizations = 20,
  learners = 1_000,
  lessonsEach = 5,
  connections = learners,
}: {
  start: (script: string, env: Record<string, string>) => Promise<Server>;
  stop: (server: Server) => Promise<void>;
  organizations?: number;
  learners?: number;
  lessonsEach?: number;
  connections?: number;
}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-load-"));
  const perOrganization = Math.ceil(learners / organizations);
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  const people: Array<{ host: string; token: string }> = [];
  const organizationIds: number[] = [];
  const now = Math.floor(Date.now() / 1000);
  try {
    for (let o = 1; o <= organizations; o++) {
      const organization = createOrganization(platform.db, { dataDir }, { name: `Load ${o}`, urlPrefix: `load${o}`, language: "en" });
      organizationIds.push(organization.id);
      platform.tenants.withTenant(organization.id, (db) => {
        const sqlite = db.$client;
        sqlite.transaction(() => {
          const course = sqlite
            .prepare("insert into courses (title, description, type, published, position) values ('Load course', '', 'series', 1, 1)")
            .run();
          const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, body, position) values (?, ?, 'video', '', ?)");
          for (let l = 1; l <= lessonsEach; l++) lesson.run(course.lastInsertRowid, `Lesson ${l}`, l);
          const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, 'Learner', ?, 'learner')");
          const session = sqlite.prepare(
            "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, 'api', 'bench', '127.0.0.1', ?, ?, ?, 0, ?)",
          );
          for (let i = 1; i <= perOrganization && people.length < learners; i++) {
            const id = user.run(`learner${i}@load.test`, String(i)).lastInsertRowid;
            const token = crypto.randomBytes(32).toString("base64url");
            session.run(crypto.createHash("sha256").update(token).digest("hex"), now, now, now + 86_400, id);
            people.push({ host: `load${o}.localhost`, token });
          }
        })();
      });
    }
  } finally {
    platform.close();
  }

  const server = await start("server/index.ts", { DATA_DIR: dataDir, RATE_LIMIT_MUTATIONS: "100000000" });
  const total = people.length * lessonsEach;
  let next = 0;
  let serverErrors = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections,
    amount: total,
    timeout: 60,
    requests: [
      {
        method: "POST",
        path: "/api/lesson-progresses",
        setupRequest: (req: autocannon.Request) => {
          const n = next++;
          const person = people[n % people.length];
          const lessonId = Math.floor(n / people.length) + 1; // learner n's lessons, one post each
          return {
            ...req,
            body: JSON.stringify({ lesson_id: lessonId, position_seconds: 10, watched_seconds: 5 }),
            headers: { ...req.headers, host: person.host, authorization: `Bearer ${person.token}`, "content-type": "application/json" },
          };
        },
      },
    ],
  });
  const emitter = instance as unknown as NodeJS.EventEmitter;
  emitter.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 500) serverErrors += 1;
    latencies.push(ms);
  });
  const result = await instance;
  await stop(server);

  let rows = 0;
  for (const id of organizationIds) {
    const db = new Database(tenantDatabaseFile(dataDir, id), { readonly: true });
    rows += (db.prepare("select count(*) as n from lesson_progress").get() as { n: number }).n;
    db.close();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const p95 = latencies.length ? Math.round(latencies[Math.floor(latencies.length * 0.95)] * 10) / 10 : 0;
  // A 5xx is the server failing; errors and timeouts are the client giving up on a queued request (the
  // write may still have happened: the rows say), reported beside them.
  const failures = serverErrors;
  return {
    organizations,
    learners: people.length,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p95,
    non2xx: result.non2xx,
    failures,
    clientErrors: result.errors,
    clientTimeouts: result.timeouts,
    rowsExpected: total,
    rows,
    lostWrites: total - rows,
  };
}
