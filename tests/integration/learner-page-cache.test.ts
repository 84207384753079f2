import { execFileSync } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WINDOW_RANKINGS } from "../../app/models/leaderboard.server";
import { api } from "../helpers/auth";
import { request, type HttpResponse } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Signed-in learners' home, course and leaderboard pages are kept rendered (server/learner-page-cache.ts,
 * docs/decisions/039-learner-page-cache.md) and are never stale. Two servers share one data directory: one
 * keeps pages, the other renders every page afresh (`LEARNER_PAGE_CACHE_MB=0`). After each change — made
 * through the other server's /api or by another process writing the file — the kept server's next page
 * must be the fresh server's page, byte for byte but for the nonce, and must differ from the page before.
 */
let kept: RunningServer;
let fresh: RunningServer;
let learnerCookie: string;
let learnerToken: string;
const ORG = "acme.localhost";
const LEARNER_ID = 2;

beforeAll(async () => {
  kept = await startServer();
  fresh = await startServer({ dataDir: kept.dataDir, env: { LEARNER_PAGE_CACHE_MB: "0" } });
  learnerCookie = await cookieFor(insertSession(kept, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
  learnerToken = insertSession(kept, { organizationId: 1 }, { email: "learner@acme.test", kind: "api" });
  await settle(kept);
  await settle(fresh);
}, 90_000);

/**
 * Waits until a server holds the organization's file open and answers a learner's page. Each server looks
 * through every organization's file just after it starts listening (server/jobs.ts `resumeAll`), opening
 * and closing it; a file's last connection closing takes it whole for a moment, and a request of the other
 * server that opens the file then is answered 503 (server/tenant-lock.ts). Once both servers hold the file,
 * neither is its last connection. `/profile/bookmarks` is not a page either server keeps.
 */
async function settle(server: RunningServer) {
  for (let i = 0; i < 50; i++) {
    const res = await visit(server, "/profile/bookmarks");
    if (res.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server on port ${server.port} did not answer a learner's page`);
}
afterAll(async () => {
  await fresh?.stop();
  await kept?.stop();
});

const visit = (server: RunningServer, p: string, cookie = learnerCookie, headers: Record<string, string> = {}) =>
  request(server.port, ORG, p, { headers: { Cookie: cookie, ...headers } });
const nonceOf = (res: HttpResponse) => /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))![1];
/**
 * The page with its nonce taken out, and the expiry and signature of its download addresses (signed for
 * the second they are rendered in): two replies of the same page differ in nothing else.
 */
const withoutNonce = (res: HttpResponse) =>
  res.body
    .split(nonceOf(res))
    .join("NONCE")
    .replace(/\/files\/(\d+)\/\d+\/[^/"]+\//g, "/files/$1/EXPIRES/SIGNATURE/");
const query = <T>(sql: string, ...params: unknown[]) => {
  const db = new Database(path.join(kept.dataDir, "org-1", "db.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
};

/**
 * Asks the keeping server until it answers from a kept page: a page is kept on its second showing, and a
 * write by the other server's start-up work while a page renders (which then is not kept) costs a turn more.
 */
async function warm(p: string, cookie = learnerCookie) {
  for (let i = 0; i < 8; i++) {
    const res = await visit(kept, p, cookie);
    expect(res.status).toBe(200);
    if (res.headers["x-page-cache"] === "hit") return res;
  }
  throw new Error(`${p} was not kept`);
}

/** The keeping server's page now, which must be what the fresh server renders now, and not what it was before. */
async function expectChanged(p: string, before: HttpResponse) {
  const after = await visit(kept, p);
  expect(after.headers["x-page-cache"]).toBe("miss");
  const now = await visit(fresh, p);
  expect(withoutNonce(after)).toBe(withoutNonce(now));
  expect(withoutNonce(after)).not.toBe(withoutNonce(before));
  return after;
}

describe("a signed-in learner's home and course pages", () => {
  it("are kept from their second showing: the kept page is the page, with this reply's own nonce", async () => {
    for (const p of ["/", "/courses/2", "/leaderboard"]) {
      const first = await visit(kept, p);
      const seen = `${first.status} ${first.body.slice(0, 400)}\n${kept.output().slice(-2000)}`;
      expect(first.status, seen).toBe(200);
      expect(first.headers["x-page-cache"], seen).toBe("miss");
      expect(first.body).toContain("Leo Learner");
      const hit = await warm(p);
      expect(nonceOf(hit)).not.toBe(nonceOf(first));
      expect(hit.body).toContain(`nonce="${nonceOf(hit)}"`);
      expect(hit.body).toContain(`"cspNonce":"${nonceOf(hit)}"`);
      expect(hit.body).not.toContain(nonceOf(first));
      expect(Number(hit.headers["content-length"])).toBe(Buffer.byteLength(hit.body));
      expect(hit.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(hit.headers["cache-control"]).toBe(first.headers["cache-control"]);
      expect(withoutNonce(hit)).toBe(withoutNonce(first));
      expect(withoutNonce(hit)).toBe(withoutNonce(await visit(fresh, p)));
    }
  });

  it("show a lesson's progress written by another process at once (continue watching, the course's progress)", async () => {
    const [lesson] = query<{ id: number }>("select id from lessons where course_id = 3 and kind <> 'quiz' order by position limit 1");
    expect(query("select 1 from lesson_progress where user_id = ? and course_id = 3", LEARNER_ID)).toEqual([]);
    const home = await warm("/");
    const course = await warm("/courses/3");
    // lesson_progress alone (a heartbeat through the app also moves the learner's watch-credit clock).
    execTenant(
      kept,
      1,
      "insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, created_at, updated_at) values (?, ?, 3, 30, 0, unixepoch(), unixepoch())",
      LEARNER_ID,
      lesson.id,
    );
    const after = await expectChanged("/", home);
    expect(after.body).toMatch(/data-testid="continue-watching"[\s\S]*Data Protection Basics/);
    await expectChanged("/courses/3", course);
  });

  it("show progress sent to the other server's /api at once", async () => {
    const [lesson] = query<{ id: number }>("select id from lessons where course_id = 2 and kind <> 'quiz' order by position desc limit 1");
    const course = await warm("/courses/2");
    const sent = await api(fresh, ORG, "POST", "lesson-progresses", {
      token: learnerToken,
      body: { lesson_id: lesson.id, position_seconds: 30, watched_seconds: 0, completed: true },
    });
    expect(sent.status).toBeLessThan(300);
    await expectChanged("/courses/2", course);
  });

  it("show a SCORM lesson's state committed through the other server's /api at once: in progress, then completed (issue 45)", async () => {
    const [lesson] = query<{ id: number; course_id: number; items: string }>(
      "select l.id, l.course_id, p.items from lessons l join scorm_packages p on p.lesson_id = l.id order by l.id limit 1",
    );
    const scos = (JSON.parse(lesson.items) as Array<{ identifier: string; scormType: string }>).filter((i) => i.scormType === "sco");
    const coursePath = `/courses/${lesson.course_id}`;
    const stateIn = (res: HttpResponse) => new RegExp(`data-state="([a-z_]+)"[^>]*data-lesson="Golf explained"`).exec(res.body)?.[1];
    const commit = async (sco: string, status: string) => {
      const sent = await api(fresh, ORG, "POST", "scorm-attempts", {
        token: learnerToken,
        body: { lesson_id: lesson.id, sco_id: sco, cmi: { "cmi.completion_status": status, "cmi.location": "2" } },
      });
      expect(sent.status, sent.body).toBe(200);
    };
    const before = await warm(coursePath);
    expect(stateIn(before)).toBe("not_started");
    await commit(scos[0].identifier, "incomplete");
    const started = await expectChanged(coursePath, before);
    expect(stateIn(started)).toBe("in_progress");

    await warm(coursePath);
    for (const sco of scos) await commit(sco.identifier, "completed");
    expect(stateIn(await expectChanged(coursePath, started))).toBe("completed");
  });

  it("show a bookmark made through /api, and another learner's rating written by another process", async () => {
    const course = await warm("/courses/4");
    const marked = await api(fresh, ORG, "POST", "bookmarks", { token: learnerToken, body: { course_id: 4 } });
    expect(marked.status).toBeLessThan(300);
    const bookmarked = await expectChanged("/courses/4", course);

    await warm("/courses/4");
    execTenant(kept, 1, "insert or replace into ratings (user_id, course_id, stars, updated_at) values (4, 4, 1, unixepoch())");
    await expectChanged("/courses/4", bookmarked);
  });

  it("show a course assigned to the learner (due soon), and the learner's name changed, at once", async () => {
    const due = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    execTenant(
      kept,
      1,
      "insert into assignments (course_id, target, user_id, due_kind, due_date) values (5, 'person', ?, 'date', ?)",
      LEARNER_ID,
      due,
    );
    // The learner's own row of the assignment alone.
    const home = await warm("/");
    execTenant(
      kept,
      1,
      "insert into assignment_people (assignment_id, user_id, assigned_at, due_on) values ((select max(id) from assignments), ?, unixepoch(), ?)",
      LEARNER_ID,
      due,
    );
    const assigned = await expectChanged("/", home);
    expect(assigned.body).toMatch(/Project Management Fundamentals/);

    await warm("/");
    execTenant(kept, 1, "update users set first_name = 'Leonora' where id = ?", LEARNER_ID);
    const renamed = await expectChanged("/", assigned);
    expect(renamed.body).toContain("Leonora Learner");
  });

  it("show a course closed to the learner once they leave the only group it is open to", async () => {
    execTenant(kept, 1, "update courses set force_groups = 1 where id = 8");
    execTenant(kept, 1, "insert into groups (name) values ('Security team')");
    execTenant(kept, 1, "insert into group_courses (group_id, course_id) values ((select max(id) from groups), 8)");
    execTenant(kept, 1, "insert into group_members (group_id, user_id) values ((select max(id) from groups), ?)", LEARNER_ID);
    const open = await warm("/courses/8");
    const home = await warm("/");
    expect(home.body).toContain("Security Awareness Check");
    execTenant(kept, 1, "delete from group_members where group_id = (select max(id) from groups) and user_id = ?", LEARNER_ID);
    const after = await visit(kept, "/courses/8");
    expect(after.headers["x-page-cache"]).not.toBe("hit");
    expect(withoutNonce(after)).not.toBe(withoutNonce(open));
    expect(after.status).toBe((await visit(fresh, "/courses/8")).status);
    expect((await expectChanged("/", home)).body).not.toContain("Security Awareness Check");
  });

  it("show a course renamed and a material added by another process at once", async () => {
    const home = await warm("/");
    execTenant(kept, 1, "update courses set title = 'Negotiation, revised' where id = 2");
    expect((await expectChanged("/", home)).body).toContain("Negotiation, revised");

    const course = await warm("/courses/2");
    execTenant(
      kept,
      1,
      "insert into links (course_id, title, url, position) values (2, 'Further reading on safety', 'https://example.com/safety', 99)",
    );
    expect((await expectChanged("/courses/2", course)).body).toContain("Further reading on safety");
  });
});

describe("a signed-in learner's leaderboard", () => {
  it("is kept, and shows at once another learner's points and new name, but stays kept through their heartbeats", async () => {
    const board = await warm("/leaderboard");
    // Another learner's heartbeat: the watch-credit clock and a day's watch time (a day no widget counts).
    execTenant(kept, 1, "update users set watch_credited_until = 1, updated_at = unixepoch() where id = 3");
    execTenant(
      kept,
      1,
      "insert into watch_time_daily (user_id, day, seconds) values (3, '2026-01-01', 60) on conflict do update set seconds = seconds + 60",
    );
    const still = await visit(kept, "/leaderboard");
    expect(still.headers["x-page-cache"]).toBe("hit");
    expect(withoutNonce(still)).toBe(withoutNonce(board));

    // Priya Garcia earns points (their total on the board: what app/models/points.server.ts keeps per award).
    execTenant(
      kept,
      1,
      "insert into points_totals (user_id, period, key, points, hidden) values (3, 'all', '', 100000, 0) on conflict (user_id, period, key) do update set points = 100000",
    );
    const top = await expectChanged("/leaderboard", board);
    expect(top.body).toMatch(/Priya Garcia[\s\S]*100[,.\u00a0\u202f]?000/);

    await warm("/leaderboard");
    execTenant(kept, 1, "update users set first_name = 'Zebedee' where id = 3");
    expect((await expectChanged("/leaderboard", top)).body).toContain("Zebedee Garcia");
    execTenant(kept, 1, "update users set first_name = 'Priya' where id = 3");
  });
});

describe("a kept page is never", () => {
  it("served to another session, of the same learner or of another", async () => {
    await warm("/");
    const otherDevice = await cookieFor(insertSession(kept, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    expect((await visit(kept, "/", otherDevice)).headers["x-page-cache"]).toBe("miss");
    const other = await cookieFor(insertSession(kept, { organizationId: 1 }, { email: "priya.garcia.1@acme.test", kind: "web" }));
    const page = await visit(kept, "/", other);
    expect(page.headers["x-page-cache"]).toBe("miss");
    expect(page.body).toContain("Priya");
    expect(page.body).not.toContain("Leonora");
  });

  it("served once the session is signed out or waits for its second factor", async () => {
    const cookie = await cookieFor(insertSession(kept, { organizationId: 1 }, { email: "sofia.wright.2@acme.test", kind: "web" }));
    await warm("/", cookie);
    execTenant(kept, 1, "update sessions set two_factor_pending = 1 where id = (select max(id) from sessions where kind = 'web')");
    const pending = await visit(kept, "/", cookie);
    expect(pending.headers["x-page-cache"]).toBeUndefined();
    expect(pending.body).not.toContain("Sofia");
    execTenant(kept, 1, "delete from sessions where id = (select max(id) from sessions where kind = 'web')");
    const out = await visit(kept, "/", cookie);
    expect(out.headers["x-page-cache"]).not.toBe("hit");
    expect(out.body).not.toContain("Sofia");
  });

  it("used with a flash message or another cookie, for Remix's data requests, or for an admin", async () => {
    await warm("/");
    for (const [p, cookie] of [
      ["/", `${learnerCookie}; lectern_flash=abc`],
      ["/", `${learnerCookie}; other=1`],
      ["/?_data=pages/index", learnerCookie],
    ] as const) {
      await visit(kept, p, cookie);
      expect((await visit(kept, p, cookie)).headers["x-page-cache"]).toBeUndefined();
    }
    const admin = await cookieFor(insertSession(kept, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
    for (let i = 0; i < 3; i++) expect((await visit(kept, "/", admin)).headers["x-page-cache"]).toBeUndefined();
  });
});

describe("what the kept pages read", () => {
  it("is only tables whose every change moves a version the kept page is checked against, and only the learner's own rows of theirs", () => {
    // The states that take the access rules' other paths: a prerequisite, lessons in order, a course open
    // to one group only (the test above), a group admin.
    execTenant(kept, 1, "update courses set prerequisite_course_id = 4 where id = 5");
    execTenant(kept, 1, "update courses set sequential_lessons = 1 where id = 2");
    execTenant(kept, 1, "insert into group_members (group_id, user_id, is_admin) values ((select max(id) from groups), 3, 1)");
    const reads = JSON.parse(
      execFileSync(process.execPath, ["--import", "tsx", "scripts/learner-page-reads.ts"], {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { ...process.env, DATA_DIR: kept.dataDir, HOST: ORG, EMAILS: "learner@acme.test,priya.garcia.1@acme.test" },
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as Array<{
      userId: number;
      path: string;
      status: number;
      reads: Array<{
        sql: string;
        params: unknown[][];
        tables: string[];
        columns: Record<string, string[]>;
        plan: Array<{ detail: string; table: string | null }>;
      }>;
    }>;
    // Every page of the organization was read (the unpublished course is a 404 for learners), and the board
    // in each period and for each course.
    expect(reads.filter((r) => r.status === 200 && !r.path.startsWith("/leaderboard")).length).toBeGreaterThanOrEqual(2 * 7);
    expect(reads.filter((r) => r.status === 200 && r.path.startsWith("/leaderboard")).length).toBeGreaterThanOrEqual(2 * (3 + 7));

    // Each table's triggers: the content_version row they move, and the columns an update must change to move
    // it. A trigger with a condition counts only when the condition is that one of those columns changed.
    const triggers = query<{ name: string; sql: string }>("select name, sql from sqlite_schema where type = 'trigger'");
    const conditionOf = (sql: string) => /\bWHEN\b([\s\S]*?)\bBEGIN\b/.exec(sql)?.[1].trim() ?? null;
    const changedColumns = (condition: string) => {
      const terms = condition.split(/\s+OR\s+/);
      const columns = terms
        .map((t) => /^old\.`?(\w+)`? IS NOT new\.`?(\w+)`?$/.exec(t.trim()))
        .map((m) => (m && m[1] === m[2] ? m[1] : null));
      return columns.every((c) => c !== null) ? (columns as string[]) : null;
    };
    const sharedRows = new Map<string, { row: number; columns: string[] | null }>();
    const personal = new Set<string>();
    for (const prefix of ["content_version", "user_version"])
      for (const { name } of triggers) {
        const table = new RegExp(`^${prefix}_(.+)_ai$`).exec(name)?.[1];
        const all = ["ai", "au", "ad"].map((s) => triggers.find((t) => t.name === `${prefix}_${table}_${s}`));
        if (!table || all.some((t) => !t)) continue;
        const [insert, update, remove] = all.map((t) => t!.sql);
        if (conditionOf(insert) !== null || conditionOf(remove) !== null) continue;
        const of = /AFTER UPDATE OF (.+?) ON/.exec(update)?.[1];
        const columns = of ? of.split(",").map((c) => c.trim().replace(/`/g, "")) : null;
        const condition = conditionOf(update);
        if (condition !== null) {
          const changed = changedColumns(condition);
          if (!changed || !columns || [...changed].sort().join() !== [...columns].sort().join()) continue;
        }
        if (prefix === "user_version") {
          if (columns === null) personal.add(table);
        } else {
          const rows = new Set(all.map((t) => Number(/`id` = (\d+)/.exec(t!.sql)?.[1])));
          expect(rows.size, `${table}'s triggers move one row`).toBe(1);
          sharedRows.set(table, { row: [...rows][0], columns });
        }
      }
    // The board alone is checked against row 3 (server/learner-page-cache.ts).
    const rowsOf = (page: string) => (page.startsWith("/leaderboard") ? 3 : 2);
    // The session is checked on every request before a kept page is looked up; the versions are what is compared.
    const checkedEachRequest = new Set(["sessions", "content_version", "user_versions"]);
    // The board's window widgets count everyone's bookmarks and watch time at most once a minute, kept or
    // not (app/models/leaderboard.server.ts `windowTop`, WIDGET_RECOUNT_MS): those two statements alone.
    const windowCount = (page: string, sql: string) => page.startsWith("/leaderboard") && WINDOW_RANKINGS.includes(sql);
    const windows = new Set(["bookmarks", "watch_time_daily"]);

    const uncovered = new Set<string>();
    const othersRows = new Set<string>();
    const seen = new Set<string>();
    for (const page of reads)
      for (const read of page.reads) {
        const ownRows = read.params.every((values) => values.includes(page.userId));
        for (const table of read.tables) {
          seen.add(table);
          if (checkedEachRequest.has(table) || (windowCount(page.path, read.sql) && windows.has(table))) continue;
          const shared = sharedRows.get(table);
          const sharedCovers =
            shared !== undefined &&
            shared.row <= rowsOf(page.path) &&
            (shared.columns === null || (read.columns[table] ?? []).every((c) => ["rowid", "id", ...shared.columns!].includes(c)));
          // A person's own row of users: the one found with their session (app/models/auth/session.server.ts).
          const ownUser = table === "users" && read.plan.some((s) => /^SEARCH sessions USING INDEX \S+ \(token_hash=\?\)$/.test(s.detail));
          if (!sharedCovers && !(personal.has(table) && (table !== "users" || ownUser)))
            uncovered.add(`${table} (${page.path}: ${read.sql})`);
          // A person's own rows only: an index search on a person's id, and the viewer's id bound to every run.
          if (!sharedCovers && personal.has(table) && table !== "users")
            for (const step of read.plan.filter((s) => s.table === table)) {
              // The person's id among the search's equalities (an index may start with the course, then the person).
              if (!/\((?:\w+=\? AND )*(?:user_id|rowid)=\?/.test(step.detail)) othersRows.add(`${table}: ${step.detail} (${read.sql})`);
              if (!ownRows) othersRows.add(`${table}: not bound to the viewer (${read.sql})`);
            }
        }
      }
    expect([...uncovered]).toEqual([]);
    expect([...othersRows]).toEqual([]);
    // The check saw the tables it is about.
    for (const table of [
      "lesson_progress",
      "course_completions",
      "bookmarks",
      "group_members",
      "courses",
      "lessons",
      "ratings",
      "sessions",
      "points_totals",
      "points_histogram",
      "learner_stats",
      "user_badges",
      "watch_time_daily",
    ])
      expect(seen).toContain(table);

    // And each of those triggers moves its version: a row of each table read is touched by another process.
    const contentVersion = (row: number) => query<{ v: number }>("select version as v from content_version where id = ?", row)[0].v;
    const userVersion = (id: number) => query<{ v: number }>("select version as v from user_versions where user_id = ?", id)[0]?.v ?? 0;
    const touched: string[] = [];
    for (const table of [...seen].filter((t) => sharedRows.has(t) || personal.has(t))) {
      const shared = sharedRows.get(table);
      if (shared) {
        const row = query<{ id: number }>(`select rowid as id from ${table} limit 1`)[0];
        if (!row) continue;
        const before = contentVersion(shared.row);
        // A trigger on named columns moves the row when one of them changes: a mark added, then taken away.
        if (shared.columns) {
          const [column] = shared.columns;
          execTenant(kept, 1, `update ${table} set ${column} = ${column} || '~' where rowid = ?`, row.id);
          execTenant(kept, 1, `update ${table} set ${column} = substr(${column}, 1, length(${column}) - 1) where rowid = ?`, row.id);
        } else execTenant(kept, 1, `update ${table} set rowid = rowid where rowid = ?`, row.id);
        expect(contentVersion(shared.row), `${table}'s update moves content_version row ${shared.row}`).toBeGreaterThan(before);
        touched.push(table);
      }
      if (personal.has(table)) {
        const row = query<{ id: number }>(
          `select rowid as id from ${table} where ${table === "users" ? "id" : "user_id"} = ? limit 1`,
          LEARNER_ID,
        )[0];
        if (!row) continue;
        const before = userVersion(LEARNER_ID);
        execTenant(kept, 1, `update ${table} set rowid = rowid where rowid = ?`, row.id);
        expect(userVersion(LEARNER_ID), `${table}'s update moves the learner's user_versions`).toBeGreaterThan(before);
        touched.push(table);
      }
    }
    expect(touched).toEqual(
      expect.arrayContaining([
        "lesson_progress",
        "course_completions",
        "bookmarks",
        "group_members",
        "users",
        "courses",
        "ratings",
        "points_totals",
        "learner_stats",
        "levels",
        "user_badges",
      ]),
    );
    // What a heartbeat writes of everyone's rows moves no board: the watch-credit clock and the day's watch
    // time; nor does a profile saved with the names as they were.
    const board = contentVersion(3);
    execTenant(kept, 1, "update users set watch_credited_until = 1, updated_at = unixepoch() where id = 3");
    execTenant(kept, 1, "update users set first_name = first_name, last_name = last_name, language = 'en' where id = 3");
    execTenant(
      kept,
      1,
      "insert into watch_time_daily (user_id, day, seconds) values (3, '2026-01-01', 60) on conflict do update set seconds = seconds + 60",
    );
    expect(contentVersion(3)).toBe(board);
  }, 60_000);
});
