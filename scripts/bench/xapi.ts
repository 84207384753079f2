import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { queryStatements, type PageCursor } from "../../app/models/xapi/statement-query.server";
import { storeStatements } from "../../app/models/xapi/statements.server";
import { authorityOf } from "../../app/xapi/authority";
import { openTenantDatabase } from "../../db/open";
import { ratio } from "./measure";
import { atLeast, atMost, type Report } from "./table";
import {
  BASE_URL,
  bareInserter,
  checkBareRows,
  credentialIn,
  filledDatabase,
  makeStatement,
  newTenant,
  seeded,
  YEAR_MS,
  type BenchStatement,
} from "./xapi-data";

/**
 * The Learning Record Store (issue 47), each row against bare better-sqlite3 doing the same work in the same
 * run: statements stored in batches of 50 through `storeStatements`; a filtered GET (agent + verb + since)
 * through `queryStatements` in an organization of 1,000,000 statements; `more` paging through 100,000 while
 * statements are stored between pages. The models are called directly, without HTTP, on real migrated
 * organization databases. `BENCH_ONLY=xapi` runs this part alone (with the baseline every run measures);
 * BENCH_XAPI_INGEST, BENCH_XAPI_STATEMENTS, BENCH_XAPI_QUERIES and BENCH_XAPI_PAGING make it smaller.
 */
const INGEST = Number(process.env.BENCH_XAPI_INGEST ?? 20_000);
const STATEMENTS = Number(process.env.BENCH_XAPI_STATEMENTS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_XAPI_QUERIES ?? 200);
const PAGING = Number(process.env.BENCH_XAPI_PAGING ?? 100_000);
const BATCH = 50;
const PAGE = 500;

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;
const percentile = (sorted: number[], p: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))], 2);

/**
 * 1. Ingest: the same statements, in batches of 50, through the model into one organization and by prepared bare
 * inserts (statement, agent and activity rows, one transaction a batch) into another.
 */
function benchIngest(dir: string) {
  const model = newTenant(path.join(dir, "ingest-model", "db.sqlite"));
  const floor = newTenant(path.join(dir, "ingest-floor", "db.sqlite"));
  try {
    const authority = authorityOf({ credential: model.credential, baseUrl: BASE_URL });
    const insert = bareInserter(floor.db.$client, floor.credential);
    const floorBatch = floor.db.$client.transaction((batch: BenchStatement[]) => {
      const stored = Date.now();
      for (const s of batch) insert(s, stored);
    });
    const random = seeded(1);
    const batches = (count: number) =>
      Array.from({ length: Math.ceil(count / BATCH) }, () => Array.from({ length: BATCH }, () => makeStatement(random, Date.now())));
    const storeBatch = (batch: BenchStatement[]) => {
      const outcome = storeStatements(model.db, model.credential, batch, { version: "2.0.0", authority });
      if (!outcome.ok) throw new Error(`bench statements refused: ${outcome.message}`);
    };
    // Warm-up: the JIT, and both files' first pages.
    for (const batch of batches(2000)) {
      floorBatch.immediate(batch);
      storeBatch(batch);
    }
    // Batch by batch, the floor's then the model's, so that a busy moment of the machine falls on both alike.
    let modelSeconds = 0;
    let floorSeconds = 0;
    const all = batches(INGEST);
    for (const batch of all) {
      let started = process.hrtime.bigint();
      floorBatch.immediate(batch);
      floorSeconds += seconds(started);
      started = process.hrtime.bigint();
      storeBatch(batch);
      modelSeconds += seconds(started);
    }
    const statements = all.length * BATCH;
    const stored = model.db.$client.prepare("select count(*) as n from xapi_statements").get() as { n: number };
    if (stored.n !== statements + 2000) throw new Error(`the model stored ${stored.n} statements, not ${statements + 2000}`);
    const modelRate = Math.round(statements / modelSeconds);
    const floorRate = Math.round(statements / floorSeconds);
    return { statements, batch: BATCH, modelRate, floorRate, ratio: ratio(modelRate, floorRate) };
  } finally {
    model.db.$client.close();
    floor.db.$client.close();
  }
}

/**
 * 2. A filtered GET in a large organization: `queryStatements` with agent, verb and since, for (agent, verb) pairs
 * of random stored statements and a `since` up to a year before each, beside a bare select of the same page on
 * the same connection: the agent's statements with that verb since then, newest first, read through the agent's
 * index, as a hand-written query would (SQLite's planner, with no statistics, takes the verb's index instead,
 * which holds up to a quarter of the store). The pages must be the same. The filled file is kept between runs
 * (xapi-data.ts `filledDatabase`); only the queries are timed.
 */
function benchQuery() {
  const { file, filledSeconds } = filledDatabase(STATEMENTS);
  const bytes = fs.statSync(file).size;
  const db = openTenantDatabase(file);
  try {
    const credential = credentialIn(db);
    const sqlite = db.$client;
    const limit = 100;
    const floor = sqlite.prepare(
      "select seq, json from xapi_statements indexed by xapi_statements_actor_idx where actor_key = ? and verb_id = ? and stored > ? and voided = 0 order by seq desc limit ?",
    );
    const at = sqlite.prepare("select actor_key as actorKey, verb_id as verbId, stored from xapi_statements where seq = ?");
    const random = seeded(2);
    const warmUp = 20;
    const modelMs: number[] = [];
    const floorMs: number[] = [];
    let differing = 0;
    let found = 0;
    for (let i = 0; i < warmUp + QUERIES; i++) {
      const pick = at.get(1 + Math.floor(random() * STATEMENTS)) as { actorKey: string; verbId: string; stored: number };
      const since = pick.stored - Math.floor(random() * YEAR_MS);
      const agent = { objectType: "Agent", mbox: pick.actorKey.slice("mbox:".length) };
      let started = process.hrtime.bigint();
      const page = queryStatements(db, credential, { agent, verb: pick.verbId, since, limit });
      const modelTaken = seconds(started) * 1000;
      started = process.hrtime.bigint();
      const rows = floor.all(pick.actorKey, pick.verbId, since, limit) as { json: string }[];
      const floorTaken = seconds(started) * 1000;
      if ("error" in page) throw new Error(page.error);
      if (i < warmUp) continue;
      modelMs.push(modelTaken);
      floorMs.push(floorTaken);
      found += page.statements.length;
      if (page.statements.length !== rows.length || page.statements.some((json, n) => json !== rows[n].json)) differing++;
    }
    modelMs.sort((a, b) => a - b);
    floorMs.sort((a, b) => a - b);
    return {
      statements: STATEMENTS,
      queries: QUERIES,
      limit,
      meanStatementsFound: round(found / QUERIES),
      differing,
      model: { p50: percentile(modelMs, 0.5), p95: percentile(modelMs, 0.95) },
      floor: { p50: percentile(floorMs, 0.5), p95: percentile(floorMs, 0.95) },
      fileMiB: Math.round(bytes / 1024 ** 2),
      bytesPerStatement: Math.round(bytes / STATEMENTS),
      filledSeconds,
    };
  } finally {
    db.$client.close();
  }
}

/**
 * 3. `more` paging through every statement of an organization holding `PAGING` (a copy of a kept filled file),
 * 500 a page, newest first or oldest first, with 10 statements stored through the model between pages. Every
 * statement that was there must be read once and none stored meanwhile; beside it, the same pages read by a
 * bare select from the same mark (only the reads are timed, the model's and the floor's).
 */
function benchPaging(dir: string, ascending: boolean) {
  const { file } = filledDatabase(PAGING);
  const copy = path.join(dir, `paging-${ascending ? "asc" : "desc"}`, "db.sqlite");
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.copyFileSync(file, copy);
  const db = openTenantDatabase(copy);
  try {
    const credential = credentialIn(db);
    const sqlite = db.$client;
    const authority = authorityOf({ credential, baseUrl: BASE_URL });
    const originals = new Set(sqlite.prepare("select id from xapi_statements").pluck().all() as string[]);
    const mark = (sqlite.prepare("select max(seq) from xapi_statements").pluck().get() as number) ?? 0;
    const seen = new Map<string, number>();
    const meanwhile = new Set<string>();
    const random = seeded(3);
    let cursor: PageCursor | null = null;
    let pages = 0;
    let modelSeconds = 0;
    do {
      const started = process.hrtime.bigint();
      const page = queryStatements(db, credential, { limit: PAGE, ascending }, cursor);
      modelSeconds += seconds(started);
      if ("error" in page) throw new Error(page.error);
      pages++;
      for (const json of page.statements) {
        const id = (JSON.parse(json) as { id: string }).id;
        seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      const batch = Array.from({ length: 10 }, () => makeStatement(random, Date.now()));
      const outcome = storeStatements(db, credential, batch, { version: "2.0.0", authority });
      if (!outcome.ok) throw new Error(`bench statements refused: ${outcome.message}`);
      for (const id of outcome.ids) meanwhile.add(id);
      cursor = page.next;
    } while (cursor);
    const lost = [...originals].filter((id) => !seen.has(id)).length;
    const repeated = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
    const intruders = [...seen.keys()].filter((id) => !originals.has(id)).length;
    const fromMeanwhile = [...seen.keys()].filter((id) => meanwhile.has(id)).length;

    // The floor reads the same pages from the same mark, each bounded by the one before it alone when newest first.
    const floor = ascending
      ? sqlite.prepare("select seq, json from xapi_statements where voided = 0 and seq > ? and seq <= ? order by seq limit ?")
      : sqlite.prepare("select seq, json from xapi_statements where voided = 0 and seq < ? order by seq desc limit ?");
    let after = ascending ? 0 : mark + 1;
    let floorPages = 0;
    const started = process.hrtime.bigint();
    for (;;) {
      const rows = (ascending ? floor.all(after, mark, PAGE + 1) : floor.all(after, PAGE + 1)) as { seq: number }[];
      floorPages++;
      if (rows.length <= PAGE) break;
      after = rows[PAGE - 1].seq;
    }
    const floorSeconds = seconds(started);
    return {
      order: ascending ? "ascending" : "newest first",
      statements: originals.size,
      pages,
      storedMeanwhile: meanwhile.size,
      lost,
      repeated,
      intruders,
      fromMeanwhile,
      pagesPerSecond: Math.round(pages / modelSeconds),
      floorPagesPerSecond: Math.round(floorPages / floorSeconds),
    };
  } finally {
    db.$client.close();
  }
}

/** The LRS's rows (issue 47), added to the run's table and JSON under `xapi`. */
export function reportXapi({ table, json }: Report) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-xapi-"));
  try {
    const differences = checkBareRows(dir);
    for (const d of differences.slice(0, 10)) console.log(`  xapi fill differs from the model: ${d}`);
    table.push({
      what: "xAPI: bare rows of the bench's fills and floor equal storeStatements' (60 statements, every column of 4 tables): differences",
      ...atMost(differences.length, 0),
    });

    const ingest = benchIngest(dir);
    console.log(
      `  xAPI ingest, ${ingest.statements} statements in batches of ${BATCH}: storeStatements ${ingest.modelRate}/s, bare insert ${ingest.floorRate}/s`,
    );
    table.push({
      what: `xAPI statements stored in batches of ${BATCH} (storeStatements ${ingest.modelRate}/s vs bare insert ${ingest.floorRate}/s): ratio`,
      ...atLeast(ingest.ratio, 0.5),
    });

    const query = benchQuery();
    console.log(
      `  xAPI store of ${query.statements} statements: ${query.fileMiB} MiB, ${query.bytesPerStatement} bytes per statement (${query.filledSeconds === null ? "kept from an earlier run" : `filled in ${query.filledSeconds} s, kept for the next run`})`,
    );
    console.log(
      `  xAPI GET agent + verb + since, ${query.queries} queries, ${query.meanStatementsFound} statements a page on average: queryStatements p50 ${query.model.p50} ms, p95 ${query.model.p95} ms; bare select p50 ${query.floor.p50} ms, p95 ${query.floor.p95} ms; ${query.differing} pages differ`,
    );
    table.push({
      what: `xAPI GET statements?agent&verb&since, ${query.statements} statements (bare select p95 ${query.floor.p95} ms; ${query.bytesPerStatement} B/statement on disk): p95 ms`,
      p95: query.model.p95,
      ...atMost(query.model.p95, 50),
    });
    table.push({ what: `xAPI GET agent + verb + since: pages that differ from the bare select's`, ...atMost(query.differing, 0) });

    const paging = [benchPaging(dir, false), benchPaging(dir, true)];
    for (const p of paging) {
      const problems = p.lost + p.repeated + p.intruders;
      table.push({
        what: `xAPI more paging, ${p.order}, ${p.statements} statements in ${p.pages} pages of ${PAGE}, ${p.storedMeanwhile} stored meanwhile: ${p.lost} lost, ${p.repeated} repeated, ${p.fromMeanwhile} stored meanwhile seen (${p.pagesPerSecond} pages/s vs bare select ${p.floorPagesPerSecond}, ratio ${ratio(p.pagesPerSecond, p.floorPagesPerSecond)})`,
        ...atMost(problems, 0),
      });
    }
    json.xapi = { differences, ingest, query, paging };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
