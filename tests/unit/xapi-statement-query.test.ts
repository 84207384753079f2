import { beforeEach, describe, expect, it } from "vitest";
import type { TenantDb } from "../../db/open";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import type { XapiCredential } from "../../db/tenant";
import { createXapiCredential } from "~/models/xapi/credentials.server";
import { consistentThrough, MAX_PAGE, queryStatements, type StatementFilters, type PageCursor } from "~/models/xapi/statement-query.server";
import { storeStatements, VOIDED } from "~/models/xapi/statements.server";

/**
 * Reading the LRS's statements (issue 47; docs/decisions/043-learning-record-store.md, "Paging"): each filter
 * of GET /xapi/statements, what each scope of credential may read, voided statements left out, and pages
 * that neither shift nor repeat while statements are being stored.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-query-");
let db: TenantDb;
let all: XapiCredential;
const T0 = Date.parse("2026-11-02T09:00:00Z");
const AUTHORITY = { objectType: "Agent", account: { homePage: "http://acme.localhost", name: "reports" } };
const agent = (name: string) => ({ objectType: "Agent", mbox: `mailto:${name}@example.test` });
const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}` });
const activity = (n: number) => ({ id: `http://acme.localhost/activities/${n}` });
const REGISTRATION = "7c1d5a0e-3b1f-4c1e-9a55-6d1f2c3b4a5e";

function credential(scope: "all" | "write" | "actor", actor?: unknown) {
  const made = createXapiCredential(db, { name: scope, scope, actor, userId: null, now: new Date(T0) });
  if ("error" in made) throw new Error(made.error);
  return made.credential;
}
function store(by: XapiCredential, statement: object, at = 0) {
  const outcome = storeStatements(db, by, statement, { version: "2.0.0", authority: AUTHORITY, now: new Date(T0 + at) });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.ids[0];
}
function ids(filters: StatementFilters, by = all, cursor: PageCursor | null = null) {
  const page = queryStatements(db, by, filters, cursor);
  if ("error" in page) throw new Error(page.error);
  return { ids: page.statements.map((s) => JSON.parse(s).id as string), next: page.next };
}

beforeEach(() => {
  db = tenant.db;
  all = credential("all");
});

describe("reading statements", () => {
  it("filters by agent, verb, activity, registration and time, newest first unless ascending", () => {
    const a = store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(1) }, 0);
    const b = store(
      all,
      { actor: agent("bo"), verb: verb("completed"), object: activity(2), context: { registration: REGISTRATION } },
      1000,
    );
    const c = store(all, { actor: agent("bo"), verb: verb("attempted"), object: { ...agent("anna") } }, 2000);
    const d = store(
      all,
      {
        actor: agent("cy"),
        verb: verb("attempted"),
        object: activity(3),
        context: { instructor: agent("anna"), contextActivities: { parent: activity(1) } },
      },
      3000,
    );
    expect(ids({}).ids).toEqual([d, c, b, a]);
    expect(ids({ ascending: true }).ids).toEqual([a, b, c, d]);
    expect(ids({ agent: agent("anna") }).ids).toEqual([c, a]);
    expect(ids({ agent: agent("anna"), relatedAgents: true }).ids).toEqual([d, c, a]);
    // The authority is a related agent of every statement it stored.
    expect(ids({ agent: AUTHORITY, relatedAgents: true }).ids).toEqual([d, c, b, a]);
    expect(ids({ verb: verb("attempted").id }).ids).toEqual([d, c]);
    expect(ids({ activity: activity(1).id }).ids).toEqual([a]);
    expect(ids({ activity: activity(1).id, relatedActivities: true }).ids).toEqual([d, a]);
    expect(ids({ registration: REGISTRATION.toUpperCase() }).ids).toEqual([b]);
    expect(ids({ since: T0, until: T0 + 2000 }).ids).toEqual([c, b]);
    expect(queryStatements(db, all, { agent: { name: "nobody" } })).toEqual({ error: expect.any(String) });
  });

  it("selects, with a statement a filter selects, those that refer to it, at any depth, and the voiding one", () => {
    const ref = (id: string) => ({ objectType: "StatementRef", id: id.toUpperCase() });
    const a = store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(1) });
    const other = store(all, { actor: agent("bo"), verb: verb("attempted"), object: activity(2) });
    const b = store(all, { actor: agent("cy"), verb: verb("commented"), object: ref(a) });
    const c = store(all, { actor: agent("cy"), verb: verb("liked"), object: ref(b) });
    expect(ids({ verb: verb("completed").id }).ids).toEqual([c, b, a]);
    expect(ids({ agent: agent("bo") }).ids).toEqual([other]);
    const v = store(all, { actor: agent("anna"), verb: { id: VOIDED }, object: ref(a) });
    expect(ids({ verb: verb("completed").id }).ids).toEqual([v, c, b]);
  });

  it("leaves voided statements out", () => {
    const a = store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(1) });
    const v = store(all, { actor: agent("anna"), verb: { id: VOIDED }, object: { objectType: "StatementRef", id: a } });
    expect(ids({}).ids).toEqual([v]);
  });

  it("shows a write credential what it sent, and an actor credential its own agent's", () => {
    const writer = credential("write");
    const anna = credential("actor", agent("anna"));
    const mine = store(writer, { actor: agent("bo"), verb: verb("completed"), object: activity(1) });
    const annas = store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(1) });
    expect(ids({}, writer).ids).toEqual([mine]);
    expect(ids({}, anna).ids).toEqual([annas]);
    expect(ids({}).ids).toEqual([annas, mine]);
  });

  it("pages by `limit` without losing or repeating a statement while more are stored", () => {
    const stored = Array.from({ length: 7 }, (_, i) =>
      store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(i) }, i),
    );
    const first = ids({ limit: 3 });
    expect(first.ids).toEqual(stored.slice(4).reverse());
    // Stored between two pages: not on the later pages, and nothing shifts.
    store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(99) }, 100);
    const second = ids({ limit: 3 }, all, first.next);
    const third = ids({ limit: 3 }, all, second.next);
    expect([...first.ids, ...second.ids, ...third.ids]).toEqual([...stored].reverse());
    expect(third.next).toBeNull();
    expect(ids({ limit: 10_000 }).ids).toHaveLength(8);
    // Oldest first, a statement stored meanwhile would come last: it waits for a new query.
    const up = ids({ limit: 4, ascending: true });
    store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(100) }, 200);
    const rest = ids({ limit: 4, ascending: true }, all, up.next);
    expect([...up.ids, ...rest.ids]).toEqual(ids({ limit: 8, ascending: true }).ids);
    expect(rest.next).toBeNull();
    expect(MAX_PAGE).toBe(500);
  });

  it("is consistent through now, or the newest statement's stored time", () => {
    expect(consistentThrough(db, new Date(T0))).toBe(new Date(T0).toISOString());
    store(all, { actor: agent("anna"), verb: verb("completed"), object: activity(1) }, 5000);
    expect(consistentThrough(db, new Date(T0))).toBe(new Date(T0 + 5000).toISOString());
  });
});
