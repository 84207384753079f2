import crypto from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ACME, makeCredential, statement, withTenantDb, xapi, type Credential } from "../helpers/xapi";

/*
 * The LRS's limits (docs/decisions/043-learning-record-store.md, "Limits"), each refusal with its status over
 * HTTP, and after each one nothing stored; what is just within a limit is taken. An unauthenticated body is
 * not read at all: the 401 comes before it is sent.
 */

const MiB = 1024 * 1024;
const EXTENSION = "https://lectern.test/extensions/payload";

let server: InProcessServer;
let all: Credential;
beforeAll(async () => {
  server = await startInProcess();
  all = makeCredential(server, ACME.id, { scope: "all" });
});
afterAll(() => server?.stop());

const post = (body: unknown) => xapi(server, ACME.host, "POST", "statements", { auth: all.auth, body });
const put = (s: { id: string }) => xapi(server, ACME.host, "PUT", `statements?statementId=${s.id}`, { auth: all.auth, body: s });
/** Every statement the organization's file holds, newest first (voided or not, whoever sent it). */
const stored = async () =>
  withTenantDb(server, ACME.id, (db) => db.$client.prepare("select id from xapi_statements order by seq desc").pluck().all() as string[]);

/** A statement whose JSON is exactly `bytes` long (its extension's string filled up). */
function statementOf(bytes: number) {
  const s = statement("alice", { extensions: { [EXTENSION]: "" } });
  const fill = bytes - Buffer.byteLength(JSON.stringify(s));
  return statement("alice", { id: s.id, extensions: { [EXTENSION]: "x".repeat(fill) } });
}

/** `levels` objects nested one in another. */
function nested(levels: number) {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** Expects `res` refused with `status`, and the statements the organization holds to be exactly `before`. */
async function expectRefused(res: { status: number; body: string }, status: number, before: string[]) {
  expect(res.status, res.body).toBe(status);
  expect(await stored()).toEqual(before);
}

/**
 * Sends a request's headers with a body declared `declared` bytes long, then only `sent` of it, and waits up
 * to `waitMs` for a reply: what a server that answers before reading the body sends at once.
 */
function partialBody(
  path: string,
  headers: Record<string, string>,
  declared: number,
  sent: Buffer,
  waitMs: number,
): Promise<{ status: number } | null> {
  return new Promise((resolve) => {
    const req = http.request({
      host: "127.0.0.1",
      port: server.port,
      path,
      method: "POST",
      headers: { Host: ACME.host, "X-Experience-API-Version": "2.0.0", "Content-Length": String(declared), ...headers },
      setHost: false,
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(null);
    }, waitMs);
    req.on("response", (res) => {
      clearTimeout(timer);
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
      req.destroy();
    });
    req.on("error", () => undefined);
    req.flushHeaders();
    if (sent.length) req.write(sent);
  });
}

describe("LRS limits", () => {
  it("a statement: over 1 MiB is 413, by PUT, by POST and within a batch; 1 MiB is taken", async () => {
    const before = await stored();
    const over = statementOf(MiB + 1);
    await expectRefused(await put(over), 413, before);
    await expectRefused(await post(over), 413, before);
    await expectRefused(await post([statement("alice"), over]), 413, before);
    const within = statementOf(MiB);
    expect((await put(within)).status).toBe(204);
    expect(await stored()).toEqual([within.id, ...before]);
  });

  // A batch of 500 is taken: tests/integration/xapi-paging.test.ts sends its statements so.
  it("a batch: 501 statements is 413; over 16 MiB, each statement within its limit, is 413", async () => {
    const before = await stored();
    const batch = Array.from({ length: 501 }, () => statement("bob"));
    const res = await post(batch);
    await expectRefused(res, 413, before);
    expect(res.body).toContain("500");
    const large = Array.from({ length: 17 }, () => statementOf(1_000_000));
    await expectRefused(await post(large), 413, before);
    // One of the same statements is taken.
    expect((await post(large.slice(0, 1))).status).toBe(200);
  });

  it("a document: over 1 MiB is 413 by PUT and by POST, and nothing is kept; 1 MiB is taken", async () => {
    const where = `activityId=${encodeURIComponent("https://lectern.test/activities/one")}&agent=${encodeURIComponent(
      JSON.stringify({ mbox: "mailto:alice@xapi.test" }),
    )}&stateId=${crypto.randomUUID()}`;
    const headers = { "Content-Type": "application/octet-stream" };
    for (const method of ["PUT", "POST"]) {
      const res = await xapi(server, ACME.host, method, `activities/state?${where}`, {
        auth: all.auth,
        headers,
        body: Buffer.alloc(MiB + 1, 7),
      });
      expect(res.status, `${method}: ${res.body}`).toBe(413);
      expect((await xapi(server, ACME.host, "GET", `activities/state?${where}`, { auth: all.auth })).status).toBe(404);
    }
    const body = Buffer.alloc(MiB, 7);
    expect((await xapi(server, ACME.host, "PUT", `activities/state?${where}`, { auth: all.auth, headers, body })).status).toBe(204);
    const read = await xapi(server, ACME.host, "GET", `activities/state?${where}`, { auth: all.auth });
    expect(read.status).toBe(200);
    expect(read.raw.equals(body)).toBe(true);
  });

  it("JSON: nested deeper than 32 is 400, 32 is taken", async () => {
    const before = await stored();
    // The statement (1), its context (2) and extensions (3) hold the rest of the levels.
    const deep = statement("carol", { extensions: { [EXTENSION]: nested(30) } });
    await expectRefused(await post(deep), 400, before);
    await expectRefused(await post([statement("carol", { extensions: { [EXTENSION]: nested(29) } })]), 400, before);
    const within = statement("carol", { extensions: { [EXTENSION]: nested(29) } });
    expect((await post(within)).status).toBe(200);
    expect((await stored())[0]).toBe(within.id);
  });

  it("JSON: an array longer than 10,000 is 400, 10,000 is taken", async () => {
    const before = await stored();
    const long = statement("dave", { extensions: { [EXTENSION]: Array.from({ length: 10_001 }, () => 1) } });
    await expectRefused(await post(long), 400, before);
    await expectRefused(await put(long), 400, before);
    const within = statement("dave", { extensions: { [EXTENSION]: Array.from({ length: 10_000 }, () => 1) } });
    expect((await put(within)).status).toBe(204);
    expect((await stored())[0]).toBe(within.id);
  });

  it("a 1.0.3 alternate-syntax form over 2 MiB is 413", async () => {
    const before = await stored();
    const s = statement("erin");
    const form = new URLSearchParams({ "X-Experience-API-Version": "1.0.3", Authorization: all.auth, content: JSON.stringify(s) });
    const body = `${form.toString()}&padding=${"x".repeat(2 * MiB)}`;
    const res = await xapi(server, ACME.host, "POST", "statements?method=PUT", {
      version: null,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    await expectRefused(res, 413, before);
  });

  it("an unauthenticated body is not read: 401 before it is sent", async () => {
    const before = await stored();
    // 50 MiB declared, 64 KiB sent, the rest never: only a server that answers without reading the body replies.
    const unauthenticated: Array<Record<string, string>> = [
      {},
      { Authorization: `Basic ${Buffer.from(`${all.key}:wrong`).toString("base64")}` },
    ];
    for (const headers of unauthenticated) {
      const reply = await partialBody(
        "/xapi/statements",
        { "Content-Type": "application/json", ...headers },
        50 * MiB,
        Buffer.alloc(64 * 1024, 32),
        5_000,
      );
      expect(reply?.status).toBe(401);
    }
    expect(await stored()).toEqual(before);
  });

  it("a body declared larger than any request may be (server/xapi.ts XAPI_REQUEST_BYTES) is 413 before it is sent", async () => {
    const before = await stored();
    for (const type of ["application/json", "multipart/mixed; boundary=abc"]) {
      const reply = await partialBody(
        "/xapi/statements",
        { "Content-Type": type, Authorization: all.auth },
        96 * MiB + 1,
        Buffer.from("["),
        3_000,
      );
      expect(reply?.status, type).toBe(413);
    }
    expect(await stored()).toEqual(before);
  });
});
