import crypto from "node:crypto";
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SignedInViewer } from "../../app/access/viewer";
import { identify } from "../../app/kernel/viewer.server";
import { createCourse } from "../../app/models/course.server";
import { recordHeartbeat } from "../../app/models/heartbeat.server";
import { recentCourses } from "../../app/models/learning.server";
import { createOrganization } from "../../app/models/organization.server";
import { search } from "../../app/models/search.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { loader as coursePage } from "../../app/screens/course-page.server";
import { loader as homePage } from "../../app/screens/home.server";
import { learnerBoardPage } from "../../app/screens/leaderboard-page.server";
import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { courses, lessons } from "../../db/tenant";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { plannedFromBoundValues } from "../helpers/statements";
import { tempDir } from "../helpers/temp";

/**
 * The statements behind the learner's busiest requests (the bench's rows: home, course page, search,
 * heartbeat, leaderboard; and /history) are kept at the query, prepared once per connection (db/prepared.ts),
 * and none of those kept is planned again by SQLite on each run because of a bound LIMIT
 * (db/planned-limit.ts). Nothing below db/open.ts keeps statements any more (decision 042), so a query on
 * these paths written without `preparedOnce`, or with a bare `.limit()`, fails here.
 */
subscribeLearningEvents();

let platform: Platform;
let organization: Organization;
let cookie: string;
beforeAll(() => {
  platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: tempDir("lectern-page-statements-") });
  organization = createOrganization(
    platform.db,
    { dataDir: platform.config.DATA_DIR },
    { name: "Statements", urlPrefix: "statements", language: "en" },
  );
  const token = crypto.randomBytes(32).toString("base64url");
  cookie = `lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`;
  platform.tenants.withTenant(organization.id, (db) => {
    for (const title of ["River safety", "Mountain river", "Design basics"])
      createCourse(db, { title, description: "<p>About rivers.</p>", type: "series", published: true, position: 1 });
    const sqlite = db.$client;
    const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, body, position) values (?, ?, 'text', '<p>Notes</p>', ?)");
    for (const course of [1, 2, 3]) for (const position of [0, 1]) lesson.run(course, `Lesson ${position} of ${course}`, position);
    sqlite
      .prepare("insert into users (email, first_name, last_name, role) values ('learner@statements.test', 'Lea', 'Rner', 'learner')")
      .run();
    const now = Math.floor(Date.now() / 1000);
    sqlite
      .prepare(
        "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, 'web', 'test', '127.0.0.1', ?, ?, ?, 0, 1)",
      )
      .run(crypto.createHash("sha256").update(token).digest("hex"), now, now, now + 86_400);
  });
});
afterAll(() => platform.close());

/** Each request of the learner, as the server makes it: the viewer first, then the page's loader or the model. */
function requests(db: TenantDb) {
  const context = async (url: string) => {
    const request = new Request(`http://statements.localhost${url}`, { headers: { cookie } });
    const viewer = await identify(request, {
      organization,
      db,
      platformDb: platform.db,
      superAdminTwoFactor: platform.config.SUPER_ADMIN_2FA,
    });
    const context = { organization, db, platform, cspNonce: "test", requestId: "test", clientIp: "127.0.0.1", viewer } as AppLoadContext;
    return { request, context, params: {} } as LoaderFunctionArgs;
  };
  const lessonRows = db.select().from(lessons).all();
  let beat = 0;
  return {
    home: async () => homePage(await context("/")),
    course: async () => {
      const args = await context("/courses/1");
      return coursePage({ ...args, params: { id: "1" } });
    },
    leaderboard: async () => learnerBoardPage(db, (await context("/leaderboard")).context.viewer as SignedInViewer, new URLSearchParams()),
    history: async () => recentCourses(db, (await context("/history")).context.viewer),
    search: async () => search(db, (await context("/api/search?q=river")).context.viewer, "river"),
    heartbeat: async () =>
      recordHeartbeat(db, { userId: 1, lesson: lessonRows[beat++ % lessonRows.length], positionSeconds: 30, watchedSeconds: 15 }),
  };
}

describe("the statements of the learner's busiest requests", () => {
  it("are prepared on the first requests only, and none that is kept is planned again on each run", async () => {
    await platform.tenants.withTenant(organization.id, async (db) => {
      const sqlite = db.$client;
      const pages = requests(db);
      // Twice: the first round's heartbeat gives the second round's home its "continue watching".
      for (let round = 0; round < 2; round++) for (const request of Object.values(pages)) await request();

      // Once more: what is prepared, and which statements run.
      const prepared: string[] = [];
      const prepare = vi.spyOn(sqlite, "prepare");
      const original = prepare.getMockImplementation() ?? Object.getPrototypeOf(sqlite).prepare;
      prepare.mockImplementation(function (this: Database.Database, source: string) {
        prepared.push(source);
        return original.call(this, source);
      });
      const ran = new Set<string>();
      const statement = Object.getPrototypeOf(sqlite.prepare("select 1")) as Record<
        "all" | "get" | "run" | "iterate",
        (...args: unknown[]) => unknown
      >;
      for (const method of ["all", "get", "run", "iterate"] as const) {
        const run = statement[method];
        vi.spyOn(statement, method).mockImplementation(function (this: Database.Statement, ...args: unknown[]) {
          ran.add(this.source);
          return run.apply(this, args);
        });
      }
      // What is kept by version or for a minute is read again: a course renamed (the home's course list,
      // search), two minutes on (the board's window widgets).
      db.update(courses).set({ title: "River safety, again" }).where(eq(courses.id, 1)).run();
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 120_000);
      // Seen just now, so that the session's own once-a-while write of last_seen_at stays out of this.
      sqlite.prepare("update sessions set last_seen_at = ?").run(Math.floor(Date.now() / 1000));
      prepared.length = 0;
      try {
        for (const [name, request] of Object.entries(pages)) {
          await request();
          expect(prepared, `${name}: prepared again`).toEqual([]);
        }
      } finally {
        vi.useRealTimers();
        vi.restoreAllMocks();
      }

      const limited = [...ran].filter((source) => /\blimit\b/i.test(source));
      // The check saw the kept statements with a LIMIT: the home's course list and "continue watching", the
      // course page's assignment and certificate, the board's courses, page, streaks and two window widgets,
      // /history, search.
      expect(limited.length).toBeGreaterThanOrEqual(11);
      expect(limited.filter((source) => plannedFromBoundValues(sqlite, source))).toEqual([]);
    });
  });
});
