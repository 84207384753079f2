import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createXapiCredential } from "../../app/models/xapi/credentials.server";
import { storeStatements } from "../../app/models/xapi/statements.server";
import { authorityOf } from "../../app/xapi/authority";
import { createTenantDatabase, MIGRATIONS, openTenantDatabase, type TenantDb } from "../../db/open";
import { xapiCredentials, type XapiCredential } from "../../db/tenant";
import { ROOT } from "./settings";

/**
 * The LRS bench's data (scripts/bench/xapi.ts): realistic statements, the rows `storeStatements` writes for
 * them built and inserted by bare better-sqlite3 (the floor of the ingest row, and the fast fill of the
 * large organizations), a check that those rows are the model's own, and the filled files kept between runs.
 */

export const BASE_URL = "https://bench.localhost/xapi";
/** The statement's spread: who, what and where (issue 47: "e.g. 5,000 agents, 20 verbs, 2,000 activities"). */
export const AGENTS = 5000;
export const ACTIVITIES = 2000;
const COURSES = 100;
const PROGRAMS = 10;
const VERBS = [
  "experienced",
  "attempted",
  "answered",
  "completed",
  "passed",
  "failed",
  "progressed",
  "launched",
  "initialized",
  "terminated",
  "suspended",
  "resumed",
  "scored",
  "interacted",
  "commented",
  "asked",
  "mastered",
  "preferred",
  "registered",
  "shared",
].map((name) => `http://adlnet.gov/expapi/verbs/${name}`);
/** Verbs are long-tailed, as in real stores: the first is picked about 28% of the time, the last about 1.4%. */
const VERB_WEIGHTS = VERBS.map((_, i) => 1 / (i + 1));
const VERB_TOTAL = VERB_WEIGHTS.reduce((a, b) => a + b, 0);
export const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** A seeded generator (mulberry32): the same fill, statement for statement, on every machine. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickVerb(random: () => number) {
  let r = random() * VERB_TOTAL;
  for (let i = 0; i < VERBS.length; i++) if ((r -= VERB_WEIGHTS[i]) < 0) return VERBS[i];
  return VERBS[VERBS.length - 1];
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
export const agentOf = (n: number) => ({ objectType: "Agent", name: `Learner ${n}`, mbox: `mailto:learner${n}@bench.example` });

/** One statement as a content package sends it: its id, actor, verb, a defined activity, a result, a context and a timestamp. */
export function makeStatement(random: () => number, at: number) {
  const learner = Math.floor(random() * AGENTS);
  const activity = Math.floor(random() * ACTIVITIES);
  const course = activity % COURSES;
  const verb = pickVerb(random);
  const raw = Math.floor(random() * 101);
  return {
    id: crypto.randomUUID(),
    actor: agentOf(learner),
    verb: { id: verb, display: { "en-US": verb.slice(verb.lastIndexOf("/") + 1) } },
    object: {
      objectType: "Activity",
      id: `https://bench.example/activities/${activity}`,
      definition: {
        name: { "en-US": `Lesson ${activity}` },
        description: { "en-US": `Lesson ${activity} of course ${course}, with its reading, video and questions.` },
        type: "http://adlnet.gov/expapi/activities/lesson",
      },
    },
    result: { score: { scaled: raw / 100, raw, min: 0, max: 100 }, success: raw >= 50, completion: true, duration: "PT4M12S" },
    context: {
      // One registration per learner and course: the attempt the content launched.
      registration: `${hex(learner, 8)}-0000-4000-8000-${hex(course, 12)}`,
      contextActivities: {
        parent: [{ objectType: "Activity", id: `https://bench.example/courses/${course}` }],
        grouping: [{ objectType: "Activity", id: `https://bench.example/programs/${course % PROGRAMS}` }],
      },
      platform: "Lectern bench",
      language: "en-US",
    },
    timestamp: new Date(at - Math.floor(random() * 60_000)).toISOString(),
  };
}
export type BenchStatement = ReturnType<typeof makeStatement>;

/**
 * Prepared bare inserts of the rows `storeStatements` writes for a statement (app/models/xapi/statements.server.ts
 * `writeRows`): xapi_statements, its agents (actor, authority) and activities (object, parent, grouping), and,
 * with `definitions`, the activity's definition in xapi_activities, which the model keeps too.
 */
export function bareInserter(sqlite: Database.Database, credential: XapiCredential, { definitions = false } = {}) {
  const authority = authorityOf({ credential, baseUrl: BASE_URL });
  const authorityKey = `account:${authority.account.homePage}|${authority.account.name}`;
  const statement = sqlite.prepare(
    "insert into xapi_statements (id, stored, timestamp, version, actor_key, verb_id, object_type, object_key, registration, credential_id, json) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const agent = sqlite.prepare("insert into xapi_statement_agents (seq, agent_key, role) values (?, ?, ?)");
  const activity = sqlite.prepare("insert into xapi_statement_activities (seq, activity_id, role) values (?, ?, ?)");
  const definition = sqlite.prepare("insert into xapi_activities (id, definition) values (?, ?) on conflict (id) do nothing");
  const defined = new Set<string>();
  /** Inserts one statement, stored at `stored` (ms), as the model would have; returns its seq. */
  return (s: BenchStatement, stored: number) => {
    const storedIso = new Date(stored).toISOString();
    const json = JSON.stringify({ ...s, stored: storedIso, authority, version: "2.0.0" });
    const seq = statement.run(
      s.id,
      stored,
      Date.parse(s.timestamp),
      "2.0.0",
      `mbox:${s.actor.mbox}`,
      s.verb.id,
      "Activity",
      s.object.id,
      s.context.registration,
      credential.id,
      json,
    ).lastInsertRowid;
    agent.run(seq, `mbox:${s.actor.mbox}`, "actor");
    agent.run(seq, authorityKey, "authority");
    activity.run(seq, s.object.id, "object");
    activity.run(seq, s.context.contextActivities.parent[0].id, "parent");
    activity.run(seq, s.context.contextActivities.grouping[0].id, "grouping");
    if (definitions && !defined.has(s.object.id)) {
      defined.add(s.object.id);
      definition.run(s.object.id, JSON.stringify(s.object.definition));
    }
    return Number(seq);
  };
}

/** A migrated organization database at `file`, opened, with a credential of scope `all` from the model. */
export function newTenant(file: string): { db: TenantDb; credential: XapiCredential } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  createTenantDatabase(file);
  const db = openTenantDatabase(file);
  const made = createXapiCredential(db, { name: "Bench reporting", scope: "all", userId: null, days: 365 });
  if ("error" in made) throw new Error(made.error);
  return { db, credential: made.credential };
}

/** The credential the fill stored its statements with (a filled file holds one). */
export function credentialIn(db: TenantDb): XapiCredential {
  return db.select().from(xapiCredentials).get()!;
}

const TABLES = [
  "select * from xapi_statements order by seq",
  "select * from xapi_statement_agents order by seq, agent_key, role",
  "select * from xapi_statement_activities order by seq, activity_id, role",
  "select * from xapi_activities order by id",
];

/**
 * Whether the bare rows are the model's: `count` statements stored through `storeStatements` in one file and
 * inserted bare in a copy of it made after the credential (so the same credential and authority), every
 * column of the four tables compared. Returns the differences found (none when the fill is faithful).
 */
export function checkBareRows(dir: string, count = 60): string[] {
  const modelFile = path.join(dir, "check-model", "db.sqlite");
  const bareFile = path.join(dir, "check-bare", "db.sqlite");
  const model = newTenant(modelFile);
  model.db.$client.pragma("wal_checkpoint(TRUNCATE)");
  fs.mkdirSync(path.dirname(bareFile), { recursive: true });
  fs.copyFileSync(modelFile, bareFile);
  const bare = openTenantDatabase(bareFile);
  try {
    const random = seeded(47);
    const statements = Array.from({ length: count }, () => makeStatement(random, Date.now()));
    const insert = bareInserter(bare.$client, model.credential, { definitions: true });
    const authority = authorityOf({ credential: model.credential, baseUrl: BASE_URL });
    for (let i = 0; i < count; i += 20) {
      const now = new Date(Date.now() + i);
      const batch = statements.slice(i, i + 20);
      const outcome = storeStatements(model.db, model.credential, structuredClone(batch), { version: "2.0.0", authority, now });
      if (!outcome.ok) return [`the model refused a bench statement: ${outcome.message}`];
      bare.$client.transaction(() => batch.forEach((s) => insert(s, now.getTime()))).immediate();
    }
    const differences: string[] = [];
    for (const query of TABLES) {
      const a = model.db.$client.prepare(query).all() as Record<string, unknown>[];
      const b = bare.$client.prepare(query).all() as Record<string, unknown>[];
      if (a.length !== b.length) differences.push(`${query}: ${a.length} rows by the model, ${b.length} bare`);
      for (let i = 0; i < Math.min(a.length, b.length); i++)
        for (const column of Object.keys(a[i]))
          if (a[i][column] !== b[i][column])
            differences.push(`${query}, row ${i}, ${column}: model ${String(a[i][column])}, bare ${String(b[i][column])}`);
    }
    return differences;
  } finally {
    model.db.$client.close();
    bare.$client.close();
  }
}

/** The migrations' own hash: a filled file is kept for the schema it was filled with, and filled again after a migration. */
function migrationsHash() {
  const hash = crypto.createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(entry.name).update(fs.readFileSync(file));
    }
  };
  walk(MIGRATIONS.tenant);
  return hash.digest("hex").slice(0, 16);
}

/** Bumped when the statements or the fill change, so that a kept file of the old ones is not used. */
const FILL_VERSION = 1;
export const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "lectern-bench");

/**
 * An organization database holding `count` statements stored over the year before the fill, with their
 * index rows and activity definitions, written bare in transactions of 20,000 (setup, not measured).
 *
 * The file is kept in node_modules/.cache/lectern-bench/, named by the count and the hash of the tenant
 * migrations (and FILL_VERSION), so a second `npm run bench` uses it again instead of filling it (a million
 * statements take about a minute); a migration, or a new FILL_VERSION, fills a new one and removes the old.
 * Callers that write copy it first. Returns the file and whether it was filled by this run.
 */
export function filledDatabase(count: number): { file: string; filledSeconds: number | null } {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const name = `xapi-${count}-v${FILL_VERSION}-${migrationsHash()}.sqlite`;
  const file = path.join(CACHE_DIR, name);
  if (fs.existsSync(file)) return { file, filledSeconds: null };
  for (const old of fs.readdirSync(CACHE_DIR))
    if (old.startsWith(`xapi-${count}-`) && old !== name) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  const started = process.hrtime.bigint();
  const temporary = path.join(CACHE_DIR, `filling-${process.pid}`, "db.sqlite");
  fs.rmSync(path.dirname(temporary), { recursive: true, force: true });
  const { db, credential } = newTenant(temporary);
  db.$client.close();
  const sqlite = new Database(temporary);
  try {
    // Setup only: no journal, and a page cache large enough for the random UUID index.
    sqlite.pragma("journal_mode = OFF");
    sqlite.pragma("synchronous = OFF");
    sqlite.pragma("cache_size = -262144");
    const insert = bareInserter(sqlite, credential, { definitions: true });
    const random = seeded(count);
    const first = Date.now() - YEAR_MS;
    const step = YEAR_MS / count;
    const chunk = sqlite.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const stored = Math.floor(first + i * step);
        insert(makeStatement(random, stored), stored);
      }
    });
    for (let i = 0; i < count; i += 20_000) chunk(i, Math.min(count, i + 20_000));
    sqlite.pragma("journal_mode = DELETE");
  } finally {
    sqlite.close();
  }
  fs.renameSync(temporary, file);
  fs.rmSync(path.dirname(temporary), { recursive: true, force: true });
  return { file, filledSeconds: Math.round(Number(process.hrtime.bigint() - started) / 1e8) / 10 };
}
