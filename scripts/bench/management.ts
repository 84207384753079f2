import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOrganization } from "../../app/models/organization.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { benchBulk } from "./management-bulk";
import { stopProcess, timeOneByOne } from "./processes";
import { start } from "./servers";

/**
 * Issue 50: the management lists of an organization of 100,000 people, 2,000 courses, 500 groups and 2,000,000
 * progress rows (written straight into its database), one request at a time as an admin's screen asks: each list's
 * first page, a filtered page and a sorted page. Target: p95 ≤ 100 ms each. Then a bulk action over 50,000 of them
 * (scripts/bench/management-bulk.ts).
 */
const TARGET_MS = 100;
const LANGS = ["en", "pl", "da", "no", "sv"];
const WORDS = ["safety", "finance", "history", "design", "leadership", "coding", "privacy", "sales", "service", "health"];

function seed({ people, courses, groups, progressRows }: { people: number; courses: number; groups: number; progressRows: number }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-management-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  const organization = createOrganization(platform.db, { dataDir }, { name: "Big Org", urlPrefix: "big", language: "en" });
  const web = crypto.randomBytes(32).toString("base64url");
  platform.tenants.withTenant(organization.id, (db) => {
    const sqlite = db.$client;
    const now = Math.floor(Date.now() / 1000);
    sqlite.transaction(() => {
      const category = sqlite.prepare("insert into categories (name, position) values (?, ?)");
      for (let c = 1; c <= 20; c++) category.run(`${WORDS[c % WORDS.length]} ${c}`, c);
      const course = sqlite.prepare(
        "insert into courses (title, description, type, published, position, category_id, created_at, updated_at) values (?, '', ?, ?, ?, ?, ?, ?)",
      );
      for (let i = 1; i <= courses; i++)
        course.run(
          `${WORDS[i % WORDS.length]} course ${i}`,
          i % 4 ? "series" : "movie",
          i % 10 ? 1 : 0,
          i,
          (i % 20) + 1,
          now - i * 600,
          now - i * 60,
        );
      const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, position) values (?, ?, 'text', ?)");
      for (let i = 0; i < courses * 5; i++) lesson.run((i % courses) + 1, `Lesson ${i + 1}`, Math.floor(i / courses));
      const user = sqlite.prepare(
        "insert into users (email, first_name, last_name, role, language, disabled_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)",
      );
      user.run("admin@big.test", "Ada", "Admin", "admin", null, null, now, now);
      for (let i = 1; i <= people; i++)
        user.run(
          `person${i}@big.test`,
          WORDS[i % WORDS.length],
          `${WORDS[(i * 7) % WORDS.length]}${i}`,
          i % 100 ? "learner" : "admin",
          i % 3 ? LANGS[i % LANGS.length] : null,
          i % 50 ? null : now,
          now - i * 30,
          now - i * 30,
        );
      const group = sqlite.prepare("insert into groups (name) values (?)");
      for (let g = 1; g <= groups; g++) group.run(`Team ${g}`);
      sqlite.prepare("insert into group_members (group_id, user_id) select ((id - 2) % ?) + 1, id from users where id > 1").run(groups);
      // Last active (issue 50): nine in ten people, spread over 200 days.
      sqlite
        .prepare(
          "insert into user_activity (user_id, last_active_at) select id, ? - ((id * 37) % 200) * 86400 - id % 86400 from users where id % 10 != 0",
        )
        .run(now);
    })();
    // Progress: each person a spread of lessons, in chunks of people.
    const perPerson = Math.ceil(progressRows / people);
    const progress = sqlite.prepare(
      "insert or ignore into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, completed_at, created_at, updated_at) values (?, ?, ?, 0, 60, ?, ?, ?)",
    );
    const lessons = courses * 5;
    let written = 0;
    for (let u = 2; u <= people + 1 && written < progressRows; u += 5_000)
      sqlite.transaction(() => {
        for (let userId = u; userId < u + 5_000 && userId <= people + 1; userId++)
          for (let k = 0; k < perPerson && written < progressRows; k++, written++) {
            const lessonId = ((userId * 13 + k * 101) % lessons) + 1;
            progress.run(userId, lessonId, ((lessonId - 1) % courses) + 1, k % 2 ? now : null, now, now);
          }
      })();
    sqlite
      .prepare(
        "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, 'web', 'bench', '127.0.0.1', ?, ?, ?, 0, 1)",
      )
      .run(crypto.createHash("sha256").update(web).digest("hex"), now, now, now + 86_400);
    sqlite.exec("analyze");
  });
  platform.close();
  const cookie = `lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(web)).toString("base64"))}`;
  return { dataDir, organizationId: organization.id, host: "big.localhost", cookie };
}

export async function benchManagement({
  people = Number(process.env.BENCH_MANAGEMENT_PEOPLE ?? 100_000),
  courses = 2_000,
  groups = 500,
  progressRows = Number(process.env.BENCH_MANAGEMENT_PROGRESS ?? 2_000_000),
  requests = Number(process.env.BENCH_MANAGEMENT_REQUESTS ?? 100),
} = {}) {
  const seededAt = Date.now();
  const org = seed({ people, courses, groups, progressRows });
  const seedSeconds = (Date.now() - seededAt) / 1000;
  const server = await start("server/index.ts", { DATA_DIR: org.dataDir, PLATFORM_DOMAIN: "localhost" });
  const users = "/dashboard/users";
  const list = `/dashboard/organizations/${org.organizationId}/courses`;
  const rows: Array<[string, string]> = [
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
  ];
  const results: Array<{ label: string; p50: number; p95: number; cpu: number; target: number }> = [];
  let bulk: Awaited<ReturnType<typeof benchBulk>> | null = null;
  try {
    for (const [label, url] of rows) {
      const timed = await timeOneByOne(
        { port: server.port, host: org.host, url, headers: { cookie: org.cookie }, pid: server.child.pid },
        { requests, warm: 10 },
      );
      results.push({ label, ...timed, cpu: timed.cpu ?? 0, target: TARGET_MS });
    }
    // Last: it adds 50,000 people to a group (scripts/bench/management-bulk.ts).
    bulk = await benchBulk({
      port: server.port,
      host: org.host,
      dataDir: org.dataDir,
      organizationId: org.organizationId,
      cookie: org.cookie,
    });
  } finally {
    await stopProcess(server);
    fs.rmSync(org.dataDir, { recursive: true, force: true });
  }
  return { people, courses, groups, progressRows, seedSeconds: Math.round(seedSeconds * 10) / 10, results, bulk };
}
