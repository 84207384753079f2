import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { DEFAULT_LAYOUT } from "../../app/models/certificate-templates.server";
import { HANDLE_CACHE_KIB } from "../../db/open";
import { createOrganization } from "../../app/models/organization.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

/**
 * The organization of issue 50's management bench (scripts/bench/management.ts), written straight into its SQLite
 * file: 100,000 people, 2,000 courses, 500 groups of 200 and one of 50,000, 2,000,000 progress rows, and beside them
 * what every management list reads at that size: 1,000 quizzes with 10,000 questions and 200,000 attempts, 30
 * certificate templates and 200,000 issued certificates (each with its completion), assignments with 70,000 people (one course assigned to the
 * big group: a course with about 50,000 learners), 3,000 imports, 2,000 API tokens, 200,000 LRS credentials for
 * launches beside 60 made by admins, 300,000 audit entries; and in the platform's database 1,000 more organizations
 * (only their rows: the organizations list reads no organization's own file) and a super-admin's session.
 */
const LANGS = ["en", "pl", "da", "no", "sv"];
export const WORDS = ["safety", "finance", "history", "design", "leadership", "coding", "privacy", "sales", "service", "health"];

/** The big group (50,000 people: the second half), the course assigned to it, and the ids the bench's rows ask for. */
export const BIG_GROUP = 501;
export const BIG_COURSE = 1;

type Sqlite = Database.Database;
const DAY = 86_400;

/** A session row and the cookie a browser would send for it. */
function session(sqlite: Sqlite, table: "sessions" | "platform_sessions", userId: number, now: number) {
  const token = crypto.randomBytes(32).toString("base64url");
  sqlite
    .prepare(
      `insert into ${table} (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, 'web', 'bench', '127.0.0.1', ?, ?, ?, 0, ?)`,
    )
    .run(crypto.createHash("sha256").update(token).digest("hex"), now, now, now + DAY, userId);
  return `lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`;
}

/** `count` rows of numbers 1..count to insert from (a recursive CTE, far faster than a statement a row). */
const numbers = (count: number) => `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})`;

function seedPeopleAndCourses(
  sqlite: Sqlite,
  { people, courses, groups }: { people: number; courses: number; groups: number },
  now: number,
) {
  const category = sqlite.prepare("insert into categories (name, position) values (?, ?)");
  for (let c = 1; c <= 20; c++) category.run(`${WORDS[c % WORDS.length]} ${c}`, c);
  const course = sqlite.prepare(
    "insert into courses (title, description, type, published, position, category_id, allow_certificates, created_at, updated_at) values (?, '', ?, ?, ?, ?, ?, ?, ?)",
  );
  for (let i = 1; i <= courses; i++)
    course.run(
      `${WORDS[i % WORDS.length]} course ${i}`,
      i % 4 ? "series" : "movie",
      i % 10 ? 1 : 0,
      i,
      (i % 20) + 1,
      i % 2 ? 0 : 1,
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
  const group = sqlite.prepare("insert into groups (name, created_at) values (?, ?)");
  for (let g = 1; g <= groups; g++) group.run(`Team ${g}`, now - g * DAY);
  sqlite.prepare("insert into group_members (group_id, user_id) select ((id - 2) % ?) + 1, id from users where id > 1").run(groups);
  // The big group: the second half of the people (the bulk action's are the first half), its admins one in 1,000.
  group.run("Everyone in sales", now);
  sqlite
    .prepare("insert into group_members (group_id, user_id, is_admin) select ?, id, id % 1000 = 0 from users where id > ?")
    .run(BIG_GROUP, Math.floor(people / 2) + 1);
  // Last active (issue 50): nine in ten people, spread over 200 days.
  sqlite
    .prepare(
      "insert into user_activity (user_id, last_active_at) select id, ? - ((id * 37) % 200) * 86400 - id % 86400 from users where id % 10 != 0",
    )
    .run(now);
}

/** Progress: each person a spread of lessons; then the big course's own learners. */
function seedProgress(
  sqlite: Sqlite,
  { people, courses, progressRows }: { people: number; courses: number; progressRows: number },
  now: number,
) {
  const perPerson = Math.ceil(progressRows / people);
  const lessons = courses * 5;
  sqlite
    .prepare(
      `with recursive u(id) as (select 2 union all select id + 1 from u where id < ?), k(k) as (select 0 union all select k + 1 from k where k < ?),
         p(user_id, lesson, k) as (select u.id, (u.id * 13 + k.k * 101) % ?, k.k from u, k order by u.id, k.k limit ?)
       insert or ignore into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, completed_at, created_at, updated_at)
       select user_id, lesson + 1, lesson % ? + 1, 0, 60, case when k % 2 then ? end, ?, ? from p`,
    )
    .run(people + 1, perPerson - 1, lessons, progressRows, courses, now, now, now);
  // The big course (its lessons 1, 2,001, …): a fifth of the people (of the big group) started it, half of them completed it.
  const first = Math.floor(people / 2) + 2;
  const started = Math.floor(people / 5);
  sqlite
    .prepare(
      `${numbers(started)} insert or ignore into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, completed_at, created_at, updated_at)
         select ? + i - 1, 1 + (i % 5) * ?, ?, 0, 60, case when i <= ? then ? end, ? - i * 60, ? - i * 60 from n`,
    )
    .run(first, courses, BIG_COURSE, Math.floor(started / 2), now, now, now);
  sqlite
    .prepare(
      `${numbers(Math.floor(started / 2))} insert into course_completions (user_id, course_id, completed_at) select ? + i - 1, ?, ? - i * 60 from n`,
    )
    .run(first, BIG_COURSE, now);
}

/** The big course assigned to the big group, and one course to every fifth group: their people, some done, some overdue. */
function seedAssignments(sqlite: Sqlite, { groups }: { groups: number }, now: number) {
  const day = (offset: number) => new Date((now + offset * DAY) * 1000).toISOString().slice(0, 10);
  const assignment = sqlite.prepare(
    "insert into assignments (course_id, target, group_id, due_kind, due_date, due_days, created_by, created_at) values (?, 'group', ?, ?, ?, ?, 1, ?)",
  );
  const big = Number(assignment.run(BIG_COURSE, BIG_GROUP, "date", day(30), null, now - 60 * DAY).lastInsertRowid);
  // Its people: due in 30 days, or (one in three, assigned by joining later) 20 days ago; those who completed done.
  sqlite
    .prepare(
      `insert into assignment_people (assignment_id, user_id, assigned_at, due_on, completed_at)
       select ?, gm.user_id, ?, case when gm.user_id % 3 = 0 then ? else ? end, cc.completed_at
       from group_members gm left join course_completions cc on cc.user_id = gm.user_id and cc.course_id = ?
       where gm.group_id = ?`,
    )
    .run(big, now - 60 * DAY, day(-20), day(30), BIG_COURSE, BIG_GROUP);
  const byGroup = new Map<number, number>();
  for (let g = 5; g <= groups; g += 5) {
    const due = g % 10 ? { kind: "date", date: day((g % 60) - 30), days: null } : { kind: "days", date: null, days: 30 };
    const id = Number(assignment.run((g % 50) + 2, g, due.kind, due.date, due.days, now - g * DAY).lastInsertRowid);
    byGroup.set(g, id);
    sqlite
      .prepare(
        `insert into assignment_people (assignment_id, user_id, assigned_at, due_on, completed_at)
         select ?, user_id, ?, ?, case when user_id % 4 = 0 then ? end from group_members where group_id = ?`,
      )
      .run(id, now - g * DAY, due.date ?? day(30 - (g % 40)), now - DAY, g);
  }
  return { big, byGroup };
}

/** 1,000 quizzes of 10 questions, 600 of them used in a lesson of their own, and two finished attempts a person. */
function seedQuizzes(sqlite: Sqlite, { people, courses }: { people: number; courses: number }, now: number) {
  sqlite
    .prepare(
      `${numbers(1_000)} insert into quizzes (title, description, deadline, pass_min, max_attempts, created_at, updated_at)
       select 'Quiz ' || (select value from json_each(?) where key = i % 10) || ' ' || i, '',
         case i % 3 when 0 then null when 1 then ? - i * 3600 else ? + i * 3600 end, 60, case when i % 2 then 3 end, ? - i * 3600, ? - i * 60 from n`,
    )
    .run(JSON.stringify(WORDS), now, now, now, now);
  sqlite
    .prepare(
      `${numbers(10_000)} insert into quiz_questions (quiz_id, type, prompt, options, accepted, position)
       select (i - 1) / 10 + 1, 'single', 'Question ' || i, '["a","b","c"]', '[0]', (i - 1) % 10 from n`,
    )
    .run();
  const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, position) values (?, ?, 'quiz', 5)");
  const used = sqlite.prepare("insert into quiz_lessons (lesson_id, quiz_id) values (?, ?)");
  for (let q = 1; q <= 600; q++) used.run(lesson.run(((q * 3) % courses) + 1, `Quiz ${q}`).lastInsertRowid, q);
  sqlite
    .prepare(
      `${numbers(people * 2)} insert into quiz_attempts (quiz_id, user_id, attempt_number, questions, pass_min, current, started_at, ended_at, score, correct_count, passed)
       select ((i + 1) / 2 * 13 + (i % 2) * 500) % 1000 + 1, (i + 1) / 2 + 1, 1, '[]', 60, 10, ? - i * 30,
         case when i % 20 then ? - i * 30 + 600 end, case when i % 20 then i % 101 end, case when i % 20 then i % 11 end,
         case when i % 20 then i % 101 >= 60 end from n`,
    )
    .run(now, now);
}

/** 30 templates (the first the default; a third of the courses name one), two certificates a person. */
function seedCertificates(sqlite: Sqlite, { people, courses }: { people: number; courses: number }, now: number) {
  const layout = JSON.stringify(DEFAULT_LAYOUT);
  const template = sqlite.prepare("insert into certificate_templates (name, is_default, layout, created_at) values (?, ?, ?, ?)");
  for (let t = 1; t <= 30; t++)
    template.run(t === 1 ? "Default" : `${WORDS[t % WORDS.length]} certificate ${t}`, t === 1 ? 1 : 0, layout, now - t * DAY);
  sqlite
    .prepare("insert into course_certificate_templates (course_id, template_id) select id, id % 29 + 2 from courses where id % 3 = 0")
    .run();
  // Person p (2 …) gets courses (p * 7) % N + 1 and the one N / 2 further; a certificate keeps its layout, as issuing does.
  sqlite
    .prepare(
      `${numbers(people * 2)}, c(i, user_id, course_id) as (select i, (i + 1) / 2 + 1, (((i + 1) / 2 + 1) * 7 + (i % 2) * ?) % ? + 1 from n)
       insert into certificates (public_id, user_id, course_id, issued_for_course_id, template_id, learner_name, course_title, locale,
         layout, issued_at, revoked_at, revoked_reason, expires_on)
       select printf('B%03X-%04X-%04X', i / 65536 / 65536, (i / 65536) % 65536, i % 65536), c.user_id, c.course_id, c.course_id,
         coalesce(cct.template_id, 1), u.first_name || ' ' || u.last_name, co.title, 'en', ?, ? - (i * 97 % 730) * 86400,
         case when i % 100 = 0 then ? end, case when i % 100 = 0 then 'Issued by mistake' end,
         case when i % 4 = 0 then date(? - (i * 97 % 730) * 86400 + 365 * 86400, 'unixepoch') end
       from c join users u on u.id = c.user_id join courses co on co.id = c.course_id
       left join course_certificate_templates cct on cct.course_id = c.course_id`,
    )
    .run(Math.floor(courses / 2), courses, layout, now, now, now);
  // A certificate is issued on a completion: each its course's completion (the big course's are there already).
  sqlite
    .prepare(
      "insert or ignore into course_completions (user_id, course_id, completed_at, expires_on) select user_id, issued_for_course_id, issued_at, expires_on from certificates",
    )
    .run();
}

/** Past imports, API tokens, LRS credentials (launches' and admins'), the audit. */
function seedSettingsLists(sqlite: Sqlite, { people }: { people: number }, now: number) {
  const csv = ["email,first_name,last_name", ...Array.from({ length: 20 }, (_, i) => `new${i}@big.test,New,Person ${i}`)].join("\n");
  sqlite
    .prepare(
      `${numbers(3_000)} insert into user_imports (status, file_name, content, row_count, group_id, send_invitations, created_by, created_at, updated_at)
       select (select value from json_each('["done","done","done","failed","preview"]') where key = i % 5),
         'people-' || (select value from json_each(?) where key = i % 10) || '-' || i || '.csv', ?, 20 + i % 500, case when i % 2 then i % 500 + 1 end, 1, 1,
         ? - (3000 - i) * 3600, ? - (3000 - i) * 3600 from n`,
    )
    .run(JSON.stringify(WORDS), csv, now, now);
  sqlite
    .prepare(
      `${numbers(2_000)} insert into api_tokens (user_id, name, token_hash, capabilities, created_at, expires_at, last_used_at)
       select case when i % 4 then (i % ?) * 100 + 1 end, (select value from json_each(?) where key = i % 10) || ' integration ' || i,
         lower(hex(randomblob(32))), (select value from json_each('[["read:user"],["read:user","write:user"],["read:course","read:quiz"],["write:group","read:user","read:course"]]') where key = i % 4),
         ? - i * 3600, ? + (i % 2 * 2 - 1) * i * 600, case when i % 3 then ? - i * 60 end from n`,
    )
    .run(Math.floor(people / 100), JSON.stringify(WORDS), now, now, now);
  sqlite
    .prepare(
      `${numbers(200_000)} insert into xapi_credentials (name, key, secret_hash, scope, actor, actor_key, registration, user_id, created_at, expires_at, last_used_at, purpose)
       select 'launch', 'launch-' || lower(hex(randomblob(12))), lower(hex(randomblob(32))), 'actor', '{"mbox":"mailto:person' || i || '@big.test"}',
         'mbox::mailto:person' || i || '@big.test', lower(hex(randomblob(16))), i % ? + 2, ? - (200000 - i) * 60, ? - (200000 - i) * 60 + 86400, ? - (200000 - i) * 60, 'launch' from n`,
    )
    .run(people, now, now, now);
  sqlite
    .prepare(
      `${numbers(60)} insert into xapi_credentials (name, key, secret_hash, scope, version, created_at, expires_at, revoked_at, last_used_at, purpose)
       select (select value from json_each(?) where key = i % 10) || ' reporting ' || i, 'client-' || lower(hex(randomblob(12))), lower(hex(randomblob(32))),
         case when i % 2 then 'all' else 'write' end, case when i % 3 then '2.0.0' else '1.0.3' end, ? - i * 86400, ? + (i % 4 * 2 - 3) * i * 86400,
         case when i % 7 = 0 then ? - i * 3600 end, case when i % 2 then ? - i * 600 end, 'client' from n`,
    )
    .run(JSON.stringify(WORDS), now, now, now, now);
  sqlite
    .prepare(
      `${numbers(300_000)} insert into admin_audit (at, action, actor_id, actor_email, actor_role, via, actor_token, subject_id, subject_email, group_id, group_name, detail, subject_kind, ip)
       select ? - (300000 - i) * 60, (select value from json_each('["member_added","member_added","member_removed","course_assigned","deactivated","role_changed"]') where key = i % 6),
         1, 'admin@big.test', 'admin', case when i % 3 then 'page' else 'api' end, case when i % 3 = 0 then 'sync ' || i % 5 end,
         i % ? + 2, 'person' || (i % ? + 1) || '@big.test', case when i % 6 < 3 then i % 500 + 1 end, case when i % 6 < 3 then 'Team ' || (i % 500 + 1) end,
         case when i % 6 = 3 then 'course ' || i % 2000 || ' due 2026-12-31' end, 'person', '10.0.' || (i % 200) || '.' || (i % 250) from n`,
    )
    .run(now, people, people);
}

/** 1,000 more organizations on the platform (rows only, with the figures the platform keeps), and a super-admin. */
function seedPlatform(sqlite: Sqlite, now: number) {
  sqlite
    .prepare(
      `${numbers(1_000)} insert into organizations (name, url_prefix, domain, custom_domain, language, two_factor_required, created_at, updated_at)
       select (select value from json_each(?) where key = i % 10) || ' organization ' || i, case when i % 7 then 'org' || i end,
         case when i % 7 = 0 then 'org' || i || '.example.test' end, case when i % 11 = 0 then 'learn.org' || i || '.test' end,
         (select value from json_each(?) where key = i % 5), i % 3 = 0, ? - i * 86400, ? - i * 3600 from n`,
    )
    .run(JSON.stringify(WORDS), JSON.stringify(LANGS), now, now);
  sqlite
    .prepare(
      "insert or replace into organization_summaries (organization_id, users, courses, updated_at) select id, (id * 7919) % 100000, (id * 31) % 2000, ? from organizations where id % 10 != 0",
    )
    .run(now);
  const admin = sqlite
    .prepare("insert into super_admins (email, first_name, last_name) values ('root@platform.test', 'Root', 'Admin')")
    .run();
  return session(sqlite, "platform_sessions", Number(admin.lastInsertRowid), now);
}

export interface BenchOrganization {
  dataDir: string;
  organizationId: number;
  host: string;
  cookie: string;
  /** The super-admin's session on the platform host (`localhost`). */
  platformCookie: string;
  /** The big course's assignment to the big group, and a group's assignment by the group. */
  assignments: { big: number; byGroup: Map<number, number> };
  /** Seconds each part took. */
  timings: Record<string, number>;
}

export function seedManagement(sizes: { people: number; courses: number; groups: number; progressRows: number }): BenchOrganization {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-management-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  const organization = createOrganization(platform.db, { dataDir }, { name: "Big Org", urlPrefix: "big", language: "en" });
  const now = Math.floor(Date.now() / 1000);
  const timings: Record<string, number> = {};
  const timed = <T>(name: string, part: () => T): T => {
    const started = performance.now();
    const result = part();
    timings[name] = Math.round(performance.now() - started) / 1000;
    return result;
  };
  let cookie = "";
  let assignments: BenchOrganization["assignments"] = { big: 0, byGroup: new Map() };
  platform.tenants.withTenant(organization.id, (db) => {
    const sqlite = db.$client;
    // The seed's own page cache: with the server's 2 MiB a handle, the indexes of 2,000,000 rows are read back from
    // the file for every row written (two minutes of system time).
    sqlite.pragma("cache_size = -1048576");
    timed("people", () => sqlite.transaction(() => seedPeopleAndCourses(sqlite, sizes, now))());
    timed("progress", () => sqlite.transaction(() => seedProgress(sqlite, sizes, now))());
    assignments = timed("assignments", () => sqlite.transaction(() => seedAssignments(sqlite, sizes, now))());
    timed("quizzes", () => sqlite.transaction(() => seedQuizzes(sqlite, sizes, now))());
    timed("certificates", () => sqlite.transaction(() => seedCertificates(sqlite, sizes, now))());
    timed("settings", () => sqlite.transaction(() => seedSettingsLists(sqlite, sizes, now))());
    cookie = session(sqlite, "sessions", 1, now);
    timed("analyze", () => sqlite.exec("analyze"));
    sqlite.pragma(`cache_size = -${HANDLE_CACHE_KIB}`);
  });
  const platformCookie = timed("platform", () => seedPlatform(platform.db.$client, now));
  platform.close();
  return { dataDir, organizationId: organization.id, host: "big.localhost", cookie, platformCookie, assignments, timings };
}
