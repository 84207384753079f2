import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Viewer } from "../../app/access/viewer";
import type { TenantDb } from "../../db/open";
import { columnsRead, schemaOf, sharedCoverage, versionTriggers, type ColumnsRead, type VersionTrigger } from "../helpers/sql-reads";
import { sourceFiles } from "../helpers/sources";
import { ROOT } from "../helpers/server";
import { tempDir } from "../helpers/temp";

/**
 * Results kept per connection by `cachedByVersion` (db/content-cache.ts) are right only while their version
 * moves with everything they read (docs/caching.md). Each model function that keeps one is called twice here
 * on one connection, every statement recorded: what the second call does not read again is what the kept
 * result stands for, and SQLite says what that is (`EXPLAIN`). A result kept by the content version
 * (`content_version` row 1) may stand only for tables and columns whose every change moves that row (the
 * triggers of migrations/tenant/0018 and 0021); the one kept by a version of its own is the search's, held
 * to the course rules by tests/unit/course-rules.test.ts. `cachedByVersion` is wrapped to see where it is
 * called from and what each version reads: the test fails when a place that keeps a result is not
 * exercised here, so a new kept result comes with its check.
 */
interface Run {
  source: string;
  args: unknown[];
}
interface Kept {
  site: string;
  key: string;
  /** What its version read. */
  version: Run[];
}
const kept: Kept[] = [];
/** Where statements are being recorded: a kept result's version, or a scenario's call. */
let recording: Run[] | null = null;

/**
 * `cachedByVersion` as the models call it, watched. The models are loaded afresh for this file, after the
 * watch is in place (`vi.doMock`, then their import in `beforeAll`): a worker runs several files one after
 * another (vitest.config.ts, `isolate: false`), and one before may have loaded them already.
 */
const CONTENT_CACHE = "../../db/content-cache";
const watchedContentCache = async (importOriginal: () => Promise<typeof import("../../db/content-cache")>) => {
  const original = await importOriginal();
  return {
    cachedByVersion<T>(db: object, key: string, version: () => string, compute: () => T): T {
      // The caller's file and line, from the stack (source-mapped): the frame under this one.
      const frame = new Error().stack!.split("\n")[2] ?? "";
      const at = /\(?([^()\s]+):(\d+):\d+\)?$/.exec(frame.trim());
      const call: Kept = { site: at ? `${path.relative(process.cwd(), at[1])}:${at[2]}` : frame, key, version: [] };
      kept.push(call);
      const watchVersion = () => {
        const outer = recording;
        recording = call.version;
        try {
          return version();
        } finally {
          recording = outer;
        }
      };
      return original.cachedByVersion(db, key, watchVersion, compute);
    },
  };
};

let db: TenantDb;
let raw: Database.Database;
let restore: () => void;
/** Each model call made twice: what the first read and the second did not, and the versions it kept by. */
const scenarios: Array<{ name: string; saved: Run[]; kept: Kept[] }> = [];

/** Records every statement that reads, into `recording` when it is set. */
function recordStatements(client: Database.Database) {
  const statement = Object.getPrototypeOf(client.prepare("select 1")) as Record<string, unknown>;
  const originals = ["all", "get", "iterate", "run"].map(
    (method) => [method, statement[method] as (...args: unknown[]) => unknown] as const,
  );
  for (const [method, original] of originals)
    statement[method] = function (this: { source: string; reader: boolean }, ...args: unknown[]) {
      if (recording && this.reader) recording.push({ source: this.source, args });
      return original.apply(this, args);
    };
  return () => {
    for (const [method, original] of originals) statement[method] = original;
  };
}

function twice(name: string, call: () => unknown) {
  const runs: Run[][] = [];
  const from = kept.length;
  for (let i = 0; i < 2; i++) {
    recording = [];
    try {
      call();
      runs.push(recording);
    } finally {
      recording = null;
    }
  }
  const again = new Set(runs[1].map((r) => r.source));
  scenarios.push({ name, saved: runs[0].filter((r) => !again.has(r.source)), kept: kept.slice(from) });
}

beforeAll(async () => {
  vi.resetModules();
  vi.doMock(CONTENT_CACHE, watchedContentCache);
  const { anonymousViewer, viewerOfMember } = await import("../../app/access/viewer");
  const { courseStats, recentCourseCards } = await import("../../app/models/browse.server");
  const { listVisibleCourses } = await import("../../app/models/course.server");
  const { search } = await import("../../app/models/search.server");
  const { createTenantDatabase, openTenantDatabase } = await import("../../db/open");
  const { groupMembers, users } = await import("../../db/tenant");
  const { tenantDatabaseFile } = await import("../../db/tenant-pool");
  const { asc, eq } = await import("drizzle-orm");
  const file = tenantDatabaseFile(tempDir("lectern-kept-"), 1);
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  raw = db.$client;
  raw.exec(`
    insert into groups (id, name) values (1, 'One');
    insert into users (id, email, role) values (1, 'admin@x.test', 'admin'), (2, 'learner@x.test', 'learner'), (3, 'member@x.test', 'learner');
    insert into group_members (group_id, user_id) values (1, 3);
    insert into courses (id, title, description, published, force_groups) values (1, 'River safety', 'Water', 1, 0), (2, 'River rescue', 'Ropes', 1, 1),
      (3, 'River draft', 'Soon', 0, 0);
    insert into group_courses (group_id, course_id) values (1, 2);
    insert into lessons (course_id, title, kind, body, position, duration_seconds) values (1, 'Currents', 'video', '', 1, 60), (1, 'Knots', 'text', 'river knots', 2, 0),
      (2, 'Throw bags', 'video', '', 1, 90);
    insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds) values (2, 1, 1, 30, 30), (3, 3, 2, 10, 10);
  `);
  restore = recordStatements(raw);
  const base = { organization: null, db, language: "en" as const };
  const viewers: Array<[string, Viewer]> = [["a visitor", anonymousViewer(null, db, "en")]];
  for (const person of db.select().from(users).orderBy(asc(users.id)).all())
    viewers.push([
      person.email,
      viewerOfMember(base, person, db.select().from(groupMembers).where(eq(groupMembers.userId, person.id)).all()),
    ]);
  for (const [name, viewer] of viewers) {
    twice(`listVisibleCourses, ${name}`, () => listVisibleCourses(db, viewer, { page: 1, perPage: 20 }));
    twice(`recentCourseCards, ${name}`, () => recentCourseCards(db, viewer, 20));
    twice(`search, ${name}`, () => search(db, viewer, "river"));
  }
  twice("courseStats", () => courseStats(db, [1, 2, 3], null));
  twice("courseStats, a learner", () => courseStats(db, [1, 2, 3], 2));
});
afterAll(() => {
  restore?.();
  raw?.close();
  vi.doUnmock(CONTENT_CACHE);
  vi.resetModules();
});

const valuesOf = (args: unknown[]) => args.flatMap((a) => (a !== null && typeof a === "object" ? Object.values(a) : [a]));

/** What a result kept by the content version stands for that no trigger moving the `content_version` rows its version reads follows. */
function unfollowed(triggers: VersionTrigger[]) {
  const schema = schemaOf(raw);
  const found = new Set<string>();
  for (const { name, saved, kept: calls } of scenarios) {
    const versions = calls.flatMap((c) => c.version);
    if (!versions.every((v) => [...columnsRead(raw, schema, v.source, v.args).keys()].every((t) => t === "content_version"))) continue;
    const rows = versions.flatMap((v) => valuesOf(v.args)).map(Number);
    for (const { source, args } of saved) {
      const read: ColumnsRead = columnsRead(raw, schema, source, args);
      for (const [table, columns] of read) {
        const covered = sharedCoverage(triggers, table, rows);
        const rowid = schema.rowidColumn.get(table) ?? "rowid";
        const missing = covered === "all" ? [] : [...columns].filter((c) => c !== rowid && !covered?.has(c));
        if (missing.length)
          found.add(`${name} (${calls.map((c) => c.key).join(", ")}): ${table} (${missing.join(", ")}) in ${source.replace(/\s+/g, " ")}`);
      }
    }
  }
  return [...found];
}

describe("results kept by a version", () => {
  it("are each exercised here, from every place that keeps one", () => {
    const sites = ["app", "server", "db"]
      .flatMap((dir) => sourceFiles(dir))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, i) => (/\bcachedByVersion\(/.test(line) && !/function cachedByVersion/.test(line) ? [`${file}:${i + 1}`] : [])),
      );
    expect(sites.length).toBeGreaterThanOrEqual(4);
    expect([...new Set(kept.map((k) => k.site))].sort()).toEqual(sites.sort());
    // Each place's result stood, at least once, for reads a second call did not make again.
    for (const site of sites)
      expect(
        scenarios.some((s) => s.saved.length > 0 && s.kept.some((k) => k.site === site)),
        site,
      ).toBe(true);
  });

  it("read only what their version follows: the content version's triggers, or (the search) a version of its own", () => {
    const triggers = versionTriggers(raw);
    expect(unfollowed(triggers)).toEqual([]);
    const own = kept.filter((k) => !k.version.every((v) => /\bcontent_version\b/.test(v.source)));
    expect([...new Set(own.map((k) => k.site.replace(/:\d+$/, "")))]).toEqual(["app/models/search.server.ts"]);
    // And the check names what a missing trigger would leave unfollowed.
    expect(unfollowed(triggers.filter((t) => t.name !== "content_version_lessons_au")).join("\n")).toMatch(
      /browse\.courseTotals\): lessons/,
    );
    expect(unfollowed(triggers.filter((t) => t.name !== "content_version_group_courses_ad")).join("\n")).toMatch(
      /course\.visiblePage.*: group_courses/,
    );
  });
});
