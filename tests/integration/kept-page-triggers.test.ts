import crypto from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identify } from "../../app/kernel/viewer.server";
import { WINDOW_RANKINGS } from "../../app/models/leaderboard.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { cookieFor } from "../helpers/sessions";
import { makeDataDir, ROOT } from "../helpers/server";
import {
  columnsRead,
  personalCoverage,
  planOf,
  schemaOf,
  sharedCoverage,
  versionTriggers,
  type ColumnsRead,
  type VersionTrigger,
} from "../helpers/sql-reads";

/**
 * A kept page is served while the versions it is checked against are unchanged (docs/caching.md): a visitor's
 * browsing page against `content_version` row 1 (server/page-cache.ts), a signed-in learner's home and course
 * page against rows 1 and 2 and their own `user_versions` row, their leaderboard against row 3 too
 * (server/learner-page-cache.ts). Triggers move those versions (migrations/tenant/0018, 0021, 0031, 0032).
 * So every table — and for a trigger on named columns, every column — a kept page reads must be one whose
 * every change moves one of its versions, or, for a person's own version, one whose rows of that person
 * alone the page reads. This test renders every kept page of the demo through the server build in this
 * process (the viewer as the server builds it, then Remix's request handler: every loader and the render),
 * records each statement run on the organization's database, asks SQLite what it reads (`EXPLAIN`), reads
 * the triggers back from the schema, and fails naming each read no trigger covers.
 */
const HOST = "acme.localhost";
const ORGANIZATION = 1;
/** Read before the lookup on every request: the session (server/viewer.ts) and the versions themselves. */
const CHECKED_EACH_REQUEST = { visitor: ["content_version"], learner: ["sessions", "content_version", "user_versions"] };
/**
 * The board's two window widgets count everyone's bookmarks and watch time at most once a minute, kept page
 * or not (app/models/leaderboard.server.ts `WIDGET_RECOUNT_MS`): those two statements, on the board only.
 */
const WINDOW_TABLES = new Set(["bookmarks", "watch_time_daily"]);
const withoutPlannedLimits = (source: string) => source.replace(/\s*\+\s*0\b/g, "");
const WINDOW_STATEMENTS = new Set(WINDOW_RANKINGS.map(withoutPlannedLimits));

interface Read {
  source: string;
  /** The values of each run. */
  runs: unknown[][];
  columns: ColumnsRead;
  plan: Array<{ detail: string; table: string | null }>;
}

interface Page {
  who: string;
  /** The viewer's person, for a learner's page. */
  userId: number | null;
  path: string;
  status: number;
  /** The `content_version` rows it is checked against, and whether the person's own version too. */
  rows: number[];
  personal: boolean;
  checked: Set<string>;
  reads: Read[];
}

let dataDir: string;
let pages: Page[];
let file: string;
const learners = ["learner@acme.test", "priya.garcia.1@acme.test"];

/** Runs SQL on the organization's database as another process would. */
function onFile<T>(work: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 5000");
    return work(db);
  } finally {
    db.close();
  }
}

/** A signed-in web session for a person, as the server writes one after a password and a code. */
function signIn(email: string) {
  const token = crypto.randomBytes(32).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return onFile((db) => {
    const id = db.prepare("select id from users where email = ?").pluck().get(email) as number;
    db.prepare(
      `insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id)
       values (?, 'web', 'test', '127.0.0.1', ?, ?, ?, 0, ?)`,
    ).run(crypto.createHash("sha256").update(token).digest("hex"), now, now, now + 3600, id);
    return { id, token };
  });
}

/** Every statement run on `client` while `work` runs, by its SQL, with the values of each run. */
async function recorded(client: Database.Database, work: () => Promise<number>) {
  const statement = Object.getPrototypeOf(client.prepare("select 1")) as Record<string, unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  const runs = new Map<string, unknown[][]>();
  for (const method of ["all", "get", "iterate", "run"]) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    originals.set(method, original);
    statement[method] = function (this: { source: string; database: unknown; reader: boolean }, ...args: unknown[]) {
      if (this.database === client && this.reader && /^\s*(?:select|with)\b/i.test(this.source))
        runs.set(this.source, [...(runs.get(this.source) ?? []), args]);
      return original.apply(this, args);
    };
  }
  try {
    return { status: await work(), runs };
  } finally {
    for (const [method, original] of originals) statement[method] = original;
  }
}

beforeAll(async () => {
  dataDir = makeDataDir();
  file = path.join(dataDir, `org-${ORGANIZATION}`, "db.sqlite");
  // The states that take the access rules' other paths: a prerequisite, lessons in order, a course open to
  // one group only, and a group admin (the second learner).
  onFile((db) =>
    db.exec(`
      update courses set prerequisite_course_id = 4 where id = 5;
      update courses set sequential_lessons = 1 where id = 2;
      update courses set force_groups = 1 where id = 8;
      insert into groups (name) values ('Security team');
      insert into group_courses (group_id, course_id) values ((select max(id) from groups), 8);
      insert into group_members (group_id, user_id) select (select max(id) from groups), id from users where email = 'learner@acme.test';
      insert into group_members (group_id, user_id, is_admin) select (select max(id) from groups), id, 1 from users where email = 'priya.garcia.1@acme.test';
    `),
  );
  const sessions = await Promise.all(learners.map(async (email) => ({ email, ...signIn(email) })));
  const ids = (sql: string) => onFile((db) => db.prepare(sql).pluck().all() as number[]);
  const [categoryIds, carouselIds, courseIds, pathIds] = ["categories", "carousels", "courses", "learning_paths"].map((table) =>
    ids(`select id from ${table} order by id`),
  );

  const build = (await import(pathToFileURL(path.join(ROOT, "build", "index.js")).href)) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  const platform = new Platform(readConfig({ NODE_ENV: "production", DATA_DIR: dataDir }));
  try {
    const { organization } = platform.organizations.resolve(HOST);
    if (!organization) throw new Error(`no organization at ${HOST}`);
    pages = await platform.tenants.withTenant(organization.id, async (db) => {
      const schema = schemaOf(db.$client);
      const render = async (
        who: string,
        userId: number | null,
        cookie: string | null,
        pagePath: string,
        kept: Omit<Page, "who" | "userId" | "path" | "status" | "reads">,
      ) => {
        const request = new Request(`http://${HOST}${pagePath}`, { headers: cookie ? { cookie } : {} });
        const { status, runs } = await recorded(db.$client, async () => {
          const tenancy = { organization, db, platformDb: platform.db, superAdminTwoFactor: platform.config.SUPER_ADMIN_2FA };
          const viewer = await identify(request, tenancy);
          const context: AppLoadContext = {
            organization,
            db,
            platform,
            cspNonce: "nonce",
            requestId: "test",
            clientIp: "127.0.0.1",
            viewer,
          };
          return (await handle(request, context)).status;
        });
        const reads = [...runs].map(([source, args]) => ({
          source,
          runs: args,
          columns: columnsRead(db.$client, schema, source, args[0]),
          plan: planOf(db.$client, schema, source, args[0]),
        }));
        return { who, userId, path: pagePath, status, reads, ...kept };
      };
      const found: Page[] = [];
      // Visitors' kept pages: /, /categories, /categories/{id}, /carousels, /carousels/{id}.
      const visitor = { rows: [1], personal: false, checked: new Set(CHECKED_EACH_REQUEST.visitor) };
      for (const pagePath of [
        "/",
        "/categories",
        ...categoryIds.map((id) => `/categories/${id}`),
        "/carousels",
        ...carouselIds.map((id) => `/carousels/${id}`),
      ])
        found.push(await render("a visitor", null, null, pagePath, visitor));
      // Learners' kept pages: /, /courses/{id}, /paths/{id}, and /leaderboard in each period and for each course.
      const learner = { rows: [1, 2], personal: true, checked: new Set(CHECKED_EACH_REQUEST.learner) };
      const board = { ...learner, rows: [1, 2, 3] };
      for (const { email, id, token } of sessions) {
        const cookie = await cookieFor(token);
        for (const pagePath of ["/", ...courseIds.map((course) => `/courses/${course}`), ...pathIds.map((p) => `/paths/${p}`)])
          found.push(await render(email, id, cookie, pagePath, learner));
        for (const query of ["", "?period=week", "?period=month", ...courseIds.map((course) => `?course=${course}`)])
          found.push(await render(email, id, cookie, `/leaderboard${query}`, board));
      }
      return found;
    });
  } finally {
    platform.close();
  }
}, 120_000);

afterAll(() => {
  pages = [];
});

const flat = (values: unknown[]) =>
  values.flatMap((v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.values(v) : v));

/** Each read of a kept page no trigger it is checked against covers, in words. */
function uncovered(triggers: VersionTrigger[], rowidColumn: (table: string) => string) {
  const found = new Set<string>();
  for (const page of pages.filter((p) => p.status === 200))
    for (const read of page.reads)
      for (const [table, columns] of read.columns) {
        if (page.checked.has(table)) continue;
        if (page.path.startsWith("/leaderboard") && WINDOW_TABLES.has(table) && WINDOW_STATEMENTS.has(withoutPlannedLimits(read.source)))
          continue;
        const shared = sharedCoverage(triggers, table, page.rows);
        const unfollowed = shared === "all" ? [] : [...columns].filter((c) => !shared?.has(c) && c !== rowidColumn(table));
        if (unfollowed.length === 0) continue;
        const person = page.personal ? personalCoverage(triggers, table) : null;
        const where = `${page.path} for ${page.who}: ${read.source.replace(/\s+/g, " ")}`;
        if (!person) {
          found.add(`${table} (${unfollowed.join(", ")}): no trigger moves the versions of ${where}`);
          continue;
        }
        // The person's own rows only: the row found with their session, or an index search on their id with it bound to every run.
        const bySession = table === "users" && read.plan.some((s) => /^SEARCH sessions USING INDEX \S+ \(token_hash=\?\)$/.test(s.detail));
        const byPerson =
          // The person's id among the search's equalities (an index may start with the course, then the person).
          read.plan
            .filter((s) => s.table === table)
            .every((s) => new RegExp(`\\((?:\\w+=\\? AND )*(?:${person}|rowid)=\\?`).test(s.detail)) &&
          read.runs.every((args) => flat(args).includes(page.userId));
        if (!bySession && !byPerson) found.add(`${table}: others' rows, which only their own versions follow, read by ${where}`);
      }
  return [...found];
}

describe("every page kept for visitors and signed-in learners", () => {
  let triggers: VersionTrigger[];
  let rowidColumn: (table: string) => string;
  beforeAll(() => {
    onFile((db) => {
      triggers = versionTriggers(db);
      const schema = schemaOf(db);
      rowidColumn = (table) => schema.rowidColumn.get(table) ?? "rowid";
    });
  });

  it("was rendered: every browsing page, every course page and board, for two learners", () => {
    const rendered = (test: (p: Page) => boolean) => pages.filter((p) => p.status === 200 && test(p)).length;
    expect(rendered((p) => p.userId === null)).toBeGreaterThanOrEqual(5);
    expect(rendered((p) => p.userId !== null && p.path.startsWith("/courses/"))).toBeGreaterThanOrEqual(2 * 6);
    expect(rendered((p) => p.userId !== null && p.path.startsWith("/leaderboard"))).toBeGreaterThanOrEqual(2 * 9);
    const seen = (test: (p: Page) => boolean) => new Set(pages.filter(test).flatMap((p) => p.reads.flatMap((r) => [...r.columns.keys()])));
    expect([...seen((p) => p.userId === null)]).toEqual(
      expect.arrayContaining(["courses", "lessons", "categories", "carousels", "carousel_courses"]),
    );
    expect([...seen((p) => p.userId !== null)]).toEqual(
      expect.arrayContaining([
        "lesson_progress",
        "course_completions",
        "bookmarks",
        "group_members",
        "group_courses",
        "ratings",
        "users",
        "points_totals",
        "learner_stats",
      ]),
    );
  });

  it("reads only tables and columns whose every change moves a version the page is checked against", () => {
    expect(uncovered(triggers, rowidColumn)).toEqual([]);
  });

  it("would name what a dropped trigger leaves unfollowed: a shared one, a column's, a person's", () => {
    // Dropped from the organization's database in a transaction that is rolled back, and read back from its
    // schema as above (`drop trigger` fails on a name that is not there, so a renamed trigger fails here too).
    const without = (name: string) =>
      onFile((db) => {
        db.exec("begin");
        try {
          db.exec(`drop trigger ${name}`);
          return uncovered(versionTriggers(db), rowidColumn).join("\n");
        } finally {
          db.exec("rollback");
        }
      });
    expect(without("content_version_categories_au")).toMatch(/^categories \(.*no trigger moves the versions of \/categories/m);
    expect(without("content_version_users_au")).toMatch(/^users: others' rows.*\/leaderboard/m);
    expect(without("user_version_lesson_progress_ad")).toMatch(/^lesson_progress \(.*no trigger moves the versions of \//m);
    // Nothing was left dropped.
    onFile((db) => expect(versionTriggers(db).map((t) => t.name)).toEqual(triggers.map((t) => t.name)));
  });

  it("has triggers that move their version when a row of a table those pages read changes in another process", () => {
    const read = new Set(pages.flatMap((p) => p.reads.flatMap((r) => [...r.columns.keys()])));
    const version = (db: Database.Database, row: number) =>
      db.prepare("select version from content_version where id = ?").pluck().get(row) as number;
    const personal = (db: Database.Database, id: number) =>
      (db.prepare("select version from user_versions where user_id = ?").pluck().get(id) as number | undefined) ?? 0;
    const moved: string[] = [];
    onFile((db) => {
      for (const table of read) {
        const rows = [1, 2, 3].filter((row) => sharedCoverage(triggers, table, [row]) !== null);
        const person = personalCoverage(triggers, table);
        if (rows.length === 0 && !person) continue;
        const row = db.prepare(`select rowid as id${person ? `, ${person} as person` : ""} from ${table} limit 1`).get() as
          | { id: number; person?: number }
          | undefined;
        if (!row) continue;
        const before = { shared: rows.map((r) => version(db, r)), person: row.person ? personal(db, row.person) : 0 };
        // A trigger on named columns fires when one of them changes: a mark added, then taken away.
        const named = rows.map((r) => sharedCoverage(triggers, table, [r])).find((c): c is Set<string> => c instanceof Set && c.size > 0);
        const column = named?.values().next().value;
        if (column) {
          db.prepare(`update ${table} set ${column} = ${column} || '~' where rowid = ?`).run(row.id);
          db.prepare(`update ${table} set ${column} = substr(${column}, 1, length(${column}) - 1) where rowid = ?`).run(row.id);
        } else db.prepare(`update ${table} set rowid = rowid where rowid = ?`).run(row.id);
        rows.forEach((r, i) => expect(version(db, r), `${table}: content_version row ${r}`).toBeGreaterThan(before.shared[i]));
        if (person && row.person) expect(personal(db, row.person), `${table}: the person's version`).toBeGreaterThan(before.person);
        moved.push(table);
      }
    });
    expect(moved).toEqual(
      expect.arrayContaining(["courses", "lessons", "categories", "lesson_progress", "bookmarks", "ratings", "users", "points_totals"]),
    );
  });
});
