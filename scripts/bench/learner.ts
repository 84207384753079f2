import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathSchema, pathStepsSchema } from "../../app/models/forms/paths";
import { createOrganization } from "../../app/models/organization.server";
import { createPath, setPathSteps } from "../../app/models/paths/paths.server";
import type { TenantDb } from "../../db/open";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

export interface LearnerBenchData {
  dataDir: string;
  organizationId: number;
  host: string;
  cookies: string[];
  tokens: string[];
  /** Issue 49: sessions of learners on three learning paths each (step one done, the next open), and the paths. */
  pathCookies: string[];
  pathIds: number[];
  courseIds: number[];
  lessonIds: number[];
  counts: { courses: number; lessons: number; learners: number; progressRows: number };
  seedSeconds: number;
}

/** What the search rows of the bench and of ab.ts look for: words the seeded titles carry. */
export const SEARCH_WORDS = ["river", "mountain", "safety", "finance", "history", "design"];
const WORDS = [
  "river",
  "mountain",
  "safety",
  "finance",
  "history",
  "design",
  "health",
  "language",
  "science",
  "music",
  "leadership",
  "coding",
];

/**
 * An organization the size of a large customer (learner issue, item 7): courses, lessons, learners and
 * progress rows written straight into its database, plus signed-in sessions for some of the learners.
 */
export async function seedLearnerBench({
  courses = 1_000,
  lessons = 20_000,
  learners = 10_000,
  progressRows = 1_000_000,
  sessions = 200,
} = {}): Promise<LearnerBenchData> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-learners-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  const organization = createOrganization(platform.db, { dataDir }, { name: "Bench University", urlPrefix: "bench", language: "en" });
  const { cookies, tokens, pathCookies, pathIds, counts } = platform.tenants.withTenant(organization.id, (db) => {
    const sqlite = db.$client;
    const now = Math.floor(Date.now() / 1000);
    const rand = (n: number) => Math.floor(Math.random() * n);
    sqlite.transaction(() => {
      const course = sqlite.prepare("insert into courses (title, description, type, published, position) values (?, ?, 'series', 1, ?)");
      for (let i = 1; i <= courses; i++)
        course.run(
          `${WORDS[i % WORDS.length]} course ${i}`,
          `<p>All about ${WORDS[(i * 7) % WORDS.length]} and ${WORDS[(i * 3) % WORDS.length]}.</p>`,
          i,
        );
      const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, body, position) values (?, ?, 'text', ?, ?)");
      for (let i = 0; i < lessons; i++)
        lesson.run(
          (i % courses) + 1,
          `Lesson ${i + 1} on ${WORDS[i % WORDS.length]}`,
          `<p>Notes about ${WORDS[(i * 5) % WORDS.length]}.</p>`,
          Math.floor(i / courses),
        );
      const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, 'Learner', ?, 'learner')");
      for (let i = 1; i <= learners; i++) user.run(`learner${i}@bench.test`, String(i));
    })();
    // A million progress rows: each learner has seen a spread of lessons.
    const progress = sqlite.prepare(
      "insert or ignore into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, completed_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const perLearner = Math.ceil(progressRows / learners);
    let written = 0;
    for (let u = 1; u <= learners && written < progressRows; u += 500) {
      sqlite.transaction(() => {
        for (let user = u; user < u + 500 && user <= learners; user++) {
          const offset = rand(lessons);
          for (let k = 0; k < perLearner && written < progressRows; k++, written++) {
            const lessonId = ((offset + k * 37) % lessons) + 1;
            const courseId = ((lessonId - 1) % courses) + 1;
            progress.run(
              user,
              lessonId,
              courseId,
              rand(600),
              rand(600),
              k % 3 === 0 ? now : null,
              now - rand(86_400 * 30),
              now - rand(86_400 * 30),
            );
          }
        }
      })();
    }
    const session = sqlite.prepare(
      "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, ?, 'bench', '127.0.0.1', ?, ?, ?, 0, ?)",
    );
    const cookies: string[] = [];
    const tokens: string[] = [];
    for (let i = 1; i <= sessions; i++) {
      for (const kind of ["web", "api"] as const) {
        const token = crypto.randomBytes(32).toString("base64url");
        session.run(crypto.createHash("sha256").update(token).digest("hex"), kind, now, now, now + 2_592_000, i);
        if (kind === "web") cookies.push(`lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`);
        else tokens.push(token);
      }
    }
    const { pathCookies, pathIds } = seedPaths(db, { first: sessions + 1, count: sessions, courses, now });
    const counts = {
      courses,
      lessons,
      learners,
      progressRows: (sqlite.prepare("select count(*) as n from lesson_progress").get() as { n: number }).n,
    };
    sqlite.pragma("optimize");
    return { cookies, tokens, pathCookies, pathIds, counts };
  });
  platform.close();
  return {
    dataDir,
    organizationId: organization.id,
    host: "bench.localhost",
    cookies,
    tokens,
    pathCookies,
    pathIds,
    courseIds: Array.from({ length: courses }, (_, i) => i + 1),
    lessonIds: Array.from({ length: lessons }, (_, i) => i + 1),
    counts,
    seedSeconds: (Date.now() - started) / 1000,
  };
}

/**
 * Three learning paths (issue 49) of three steps each (a course, a choice of two of three, a course) over the first
 * fifteen courses, and `count` learners from `first` on all three: each has completed each path's first course, so
 * its second step is open; and a web session each, for the home and path page rows.
 */
function seedPaths(db: TenantDb, { first, count, courses, now }: { first: number; count: number; courses: number; now: number }) {
  const sqlite = db.$client;
  const pathIds: number[] = [];
  const pathCookies: string[] = [];
  {
    for (let p = 0; p < 3; p++) {
      const base = p * 5;
      const made = createPath(db, pathSchema.parse({ title: `${WORDS[p]} path`, published: true, allow_certificates: true }));
      if (!made.ok) throw new Error("bench path");
      const set = setPathSteps(
        db,
        made.value.id,
        pathStepsSchema.parse({
          steps: [
            { course_ids: [(base % courses) + 1] },
            { kind: "choice", course_ids: [base + 2, base + 3, base + 4].map((c) => ((c - 1) % courses) + 1), required: 2 },
            { course_ids: [((base + 4) % courses) + 1] },
          ],
        }),
      );
      if (!set?.ok) throw new Error("bench path steps");
      pathIds.push(made.value.id);
    }
  }
  sqlite.transaction(() => {
    const enrol = sqlite.prepare("insert into path_enrolments (path_id, user_id, source, enrolled_at) values (?, ?, 'self', ?)");
    const complete = sqlite.prepare("insert or ignore into course_completions (user_id, course_id, completed_at) values (?, ?, ?)");
    const session = sqlite.prepare(
      "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, 'web', 'bench', '127.0.0.1', ?, ?, ?, 0, ?)",
    );
    for (let user = first; user < first + count; user++) {
      for (const [p, pathId] of pathIds.entries()) {
        enrol.run(pathId, user, now - 86_400 * 20);
        complete.run(user, ((p * 5) % courses) + 1, now - 86_400 * 10);
      }
      const token = crypto.randomBytes(32).toString("base64url");
      session.run(crypto.createHash("sha256").update(token).digest("hex"), now, now, now + 2_592_000, user);
      pathCookies.push(`lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`);
    }
  })();
  return { pathIds, pathCookies };
}
