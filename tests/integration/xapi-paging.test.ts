import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ACME, makeCredential, NORDLYS, readAll, statement, xapi, type Credential } from "../helpers/xapi";

/*
 * Reading statements a page at a time (docs/decisions/043-learning-record-store.md, "Paging"): `more` links
 * page through everything a query selects, none lost or repeated while statements are stored between pages,
 * and a `more` token serves only the credential (and organization) it was given to.
 */

let server: InProcessServer;
let all: Credential;
/** 1,200 statements of one registration, in the order they were stored; then those stored between pages. */
let sent: string[];
const late: string[] = [];
const registration = crypto.randomUUID();
const query = (extra: string) => `registration=${registration}${extra}`;

beforeAll(async () => {
  server = await startInProcess();
  all = makeCredential(server, ACME.id, { scope: "all" });
  sent = [];
  // Batches of 500, the most one may hold (xapi-limits.test.ts refuses 501).
  for (const size of [500, 500, 200]) {
    const batch = Array.from({ length: size }, () => statement("alice", { registration }));
    const res = await xapi(server, ACME.host, "POST", "statements", { auth: all.auth, body: batch });
    expect(res.status, res.body).toBe(200);
    expect(res.json()).toEqual(batch.map((s) => s.id));
    sent.push(...batch.map((s) => s.id));
  }
});
afterAll(() => server?.stop());

const get = (path: string, auth = all.auth, host: string = ACME.host) => xapi(server, host, "GET", path, { auth });
const follow = (more: string) => {
  expect(more).toMatch(/^\/xapi\/statements\?more=[^&]+$/);
  return more.slice("/xapi/".length);
};

describe("LRS paging", () => {
  it("pages through 1,200 statements with none lost or repeated, while statements are stored between pages", async () => {
    const pages: string[][] = [];
    let next = `statements?${query("&limit=250")}`;
    for (;;) {
      const res = await get(next);
      expect(res.status, res.body).toBe(200);
      const { statements, more } = res.json() as { statements: Array<{ id: string }>; more: string };
      pages.push(statements.map((s) => s.id));
      if (!more) break;
      // Stored between two pages, of the same registration: not in this reading, not shifting its pages.
      const extra = statement("alice", { registration });
      expect((await xapi(server, ACME.host, "POST", "statements", { auth: all.auth, body: [extra] })).status).toBe(200);
      late.push(extra.id);
      next = follow(more);
    }
    expect(pages.map((p) => p.length)).toEqual([250, 250, 250, 250, 200]);
    expect(pages.flat()).toEqual([...sent].reverse());
    expect(late).toHaveLength(4);
  });

  it("pages in storing order with ascending, 500 to a page at most (a larger limit is lowered); a reading begun later sees the late ones", async () => {
    const pages = await readAll(server, ACME.host, all.auth, query("&ascending=true&limit=1000"));
    expect(pages.map((p) => p.length)).toEqual([500, 500, 200 + late.length]);
    expect(pages.flat()).toEqual([...sent, ...late]);
  });

  it("a more token serves only the credential that got it: another one's, a changed one or one with more parameters is 400", async () => {
    const first = await get(`statements?${query("&limit=10")}`);
    const { more } = first.json() as { more: string };
    const path = follow(more);
    const other = makeCredential(server, ACME.id, { scope: "all" });
    const refused = await get(path, other.auth);
    expect(refused.status, refused.body).toBe(400);
    expect(refused.body).not.toContain(sent[0]);
    // Another organization's credential, on its own host, with a token of this one.
    const nordlys = makeCredential(server, NORDLYS.id, { scope: "all" });
    expect((await get(path, nordlys.auth, NORDLYS.host)).status).toBe(400);
    const token = path.slice("statements?more=".length);
    const [payload, signature] = token.split(".");
    const changed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    changed.c = other.id;
    const forged = `${Buffer.from(JSON.stringify(changed)).toString("base64url")}.${signature}`;
    expect((await get(`statements?more=${forged}`, other.auth)).status).toBe(400);
    expect((await get(`${path}&limit=5`)).status).toBe(400);
    // The token still serves its own credential.
    const second = await get(path);
    expect(second.status).toBe(200);
    expect(second.json().statements).toHaveLength(10);
  });
});
