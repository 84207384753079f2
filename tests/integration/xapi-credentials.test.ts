import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";
import {
  ACME,
  basic,
  makeCredential,
  NORDLYS,
  readIds,
  revokeCredential,
  statement,
  voiding,
  xapi,
  type Credential,
} from "../helpers/xapi";

/*
 * Who may use an organization's Learning Record Store (docs/decisions/043-learning-record-store.md,
 * "Credentials", "Voiding"): HTTP Basic credentials of the organization, each with its scope, over HTTP as a
 * client meets them; never a session; never on another organization's host.
 */

let server: InProcessServer;
let all: Credential;
beforeAll(async () => {
  server = await startInProcess();
  all = makeCredential(server, ACME.id, { scope: "all" });
});
afterAll(() => server?.stop());

const post = (auth: string, body: unknown, host: string = ACME.host) => xapi(server, host, "POST", "statements", { auth, body });
const byId = (auth: string, id: string, param = "statementId") => xapi(server, ACME.host, "GET", `statements?${param}=${id}`, { auth });

function expectUnauthorized(res: { status: number; headers: Record<string, unknown>; body: string }) {
  expect(res.status, res.body).toBe(401);
  expect(res.headers["www-authenticate"]).toMatch(/^Basic realm="xAPI"/);
}

describe("LRS credentials", () => {
  it("refuse a request with no, a malformed, an unknown, a wrong, a revoked or an expired credential: 401 with WWW-Authenticate: Basic", async () => {
    const live = makeCredential(server, ACME.id, { scope: "all" });
    const revoked = makeCredential(server, ACME.id, { scope: "all" });
    const expired = makeCredential(server, ACME.id, { scope: "all", days: 1, now: new Date(Date.now() - 2 * 86_400_000) });
    expect((await xapi(server, ACME.host, "GET", "statements", { auth: revoked.auth })).status).toBe(200);
    expect(revokeCredential(server, ACME.id, revoked.id)).toBe(true);
    const refused: Array<[string, string | undefined]> = [
      ["none", undefined],
      ["not Basic", `Bearer ${live.secret}`],
      ["no colon", `Basic ${Buffer.from(live.key).toString("base64")}`],
      ["an unknown key", basic(crypto.randomBytes(16).toString("base64url"), live.secret)],
      ["a wrong secret", basic(live.key, `${live.secret.slice(0, -1)}x`)],
      ["another credential's secret", basic(live.key, revoked.secret)],
      ["a revoked credential", revoked.auth],
      ["an expired credential", expired.auth],
    ];
    const before = await readIds(server, ACME.host, all.auth);
    for (const [what, auth] of refused) {
      expectUnauthorized(await xapi(server, ACME.host, "GET", "statements", { auth }));
      const sent = statement("mallory");
      const res = await post(auth!, sent);
      expectUnauthorized(res);
      expect(res.body, what).not.toContain(sent.id);
      expectUnauthorized(await xapi(server, ACME.host, "PUT", `statements?statementId=${sent.id}`, { auth, body: sent }));
    }
    expect(await readIds(server, ACME.host, all.auth)).toEqual(before);
    // The live one works, with the same requests.
    expect((await post(live.auth, statement("alice"))).status).toBe(200);
  });

  it("never take a session: a signed-in admin's cookie or /api token alone is refused, and a cookie beside a credential is ignored", async () => {
    const web = insertSession(server, { organizationId: ACME.id }, { email: "admin@acme.test", kind: "web" });
    const token = insertSession(server, { organizationId: ACME.id }, { email: "admin@acme.test", kind: "api" });
    const cookie = await cookieFor(web);
    // Both sessions are good where sessions count: the dashboard and /api answer them.
    expect((await request(server.port, ACME.host, "/dashboard", { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await request(server.port, ACME.host, "/api/courses", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    const sent = statement("admin");
    const sessions: Array<Record<string, string>> = [
      { Cookie: cookie },
      { Authorization: `Bearer ${token}` },
      { Cookie: cookie, Authorization: `Bearer ${token}` },
    ];
    for (const headers of sessions) {
      expectUnauthorized(await xapi(server, ACME.host, "GET", "statements", { headers }));
      expectUnauthorized(await xapi(server, ACME.host, "POST", "statements", { headers, body: sent }));
    }
    expect((await byId(all.auth, sent.id)).status).toBe(404);
    const res = await xapi(server, ACME.host, "GET", "statements", { auth: all.auth, headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("of scope all read everything; of scope write read only what they sent", async () => {
    const writerA = makeCredential(server, ACME.id, { scope: "write" });
    const writerB = makeCredential(server, ACME.id, { scope: "write" });
    const [a, b, c] = [statement("alice"), statement("bob"), statement("carol")];
    expect((await post(writerA.auth, a)).json()).toEqual([a.id]);
    expect((await post(writerB.auth, b)).json()).toEqual([b.id]);
    expect((await post(all.auth, c)).json()).toEqual([c.id]);

    const everything = await readIds(server, ACME.host, all.auth);
    expect(everything).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    for (const s of [a, b, c]) expect((await byId(all.auth, s.id)).json().id).toBe(s.id);

    expect(await readIds(server, ACME.host, writerA.auth)).toEqual([a.id]);
    expect(await readIds(server, ACME.host, writerB.auth)).toEqual([b.id]);
    expect((await byId(writerA.auth, a.id)).status).toBe(200);
    expect((await byId(writerA.auth, b.id)).status).toBe(404);
    expect((await byId(writerA.auth, c.id)).status).toBe(404);
    // Filters do not widen it: asking for bob's statements by agent finds none of writer B's.
    const agent = encodeURIComponent(JSON.stringify({ mbox: "mailto:bob@xapi.test" }));
    expect(await readIds(server, ACME.host, writerA.auth, `agent=${agent}`)).toEqual([]);
    expect(await readIds(server, ACME.host, all.auth, `agent=${agent}`)).toEqual([b.id]);
  });

  it("of scope actor (a launch's) send and read only their own agent's statements of their registration, and never void", async () => {
    const registration = crypto.randomUUID();
    const other = crypto.randomUUID();
    const launch = makeCredential(server, ACME.id, { scope: "actor", actor: { mbox: "mailto:learner@xapi.test" }, registration });
    const own = statement("learner", { registration });
    expect((await post(launch.auth, own)).json()).toEqual([own.id]);
    const second = statement("learner", { registration });
    expect((await xapi(server, ACME.host, "PUT", `statements?statementId=${second.id}`, { auth: launch.auth, body: second })).status).toBe(
      204,
    );

    const refused = [
      ["another actor", statement("someone-else", { registration })],
      ["another registration", statement("learner", { registration: other })],
      ["no registration", statement("learner")],
    ] as const;
    for (const [what, s] of refused) {
      const res = await post(launch.auth, s);
      expect(res.status, `${what}: ${res.body}`).toBe(403);
      expect((await xapi(server, ACME.host, "PUT", `statements?statementId=${s.id}`, { auth: launch.auth, body: s })).status, what).toBe(
        403,
      );
      expect((await byId(all.auth, s.id)).status, what).toBe(404);
    }
    // A batch with one statement of another actor is refused whole.
    const mixed = [statement("learner", { registration }), statement("someone-else", { registration })];
    expect((await post(launch.auth, mixed)).status).toBe(403);
    for (const s of mixed) expect((await byId(all.auth, s.id)).status).toBe(404);

    // It reads its agent's statements of its registration, whoever sent them, and nothing else.
    const sentByAll = statement("learner", { registration });
    const elsewhere = statement("learner", { registration: other });
    const notTheirs = statement("someone-else", { registration });
    expect((await post(all.auth, [sentByAll, elsewhere, notTheirs])).status).toBe(200);
    expect(new Set(await readIds(server, ACME.host, launch.auth))).toEqual(new Set([own.id, second.id, sentByAll.id]));
    expect((await byId(launch.auth, sentByAll.id)).status).toBe(200);
    expect((await byId(launch.auth, elsewhere.id)).status).toBe(404);
    expect((await byId(launch.auth, notTheirs.id)).status).toBe(404);

    // Voiding its own statement is refused, and the statement stays.
    const res = await post(launch.auth, voiding("learner", own.id));
    expect(res.status, res.body).toBe(403);
    expect((await byId(all.auth, own.id)).json().id).toBe(own.id);
    expect(await readIds(server, ACME.host, all.auth, `registration=${registration}`)).toContain(own.id);
  });

  it("of scope actor stop at the end of their launch", async () => {
    const ended = makeCredential(server, ACME.id, {
      scope: "actor",
      actor: { mbox: "mailto:learner@xapi.test" },
      registration: crypto.randomUUID(),
      notAfter: new Date(Date.now() - 1000),
    });
    expectUnauthorized(await xapi(server, ACME.host, "GET", "statements", { auth: ended.auth }));
  });

  it("belong to their organization: refused on another organization's host (401), and an unknown host has no LRS (404)", async () => {
    const nordlys = makeCredential(server, NORDLYS.id, { scope: "all" });
    const before = await readIds(server, NORDLYS.host, nordlys.auth);
    const sent = statement("alice");
    expectUnauthorized(await xapi(server, NORDLYS.host, "GET", "statements", { auth: all.auth }));
    expectUnauthorized(await post(all.auth, sent, NORDLYS.host));
    expectUnauthorized(await xapi(server, ACME.host, "GET", "statements", { auth: nordlys.auth }));
    expect(await readIds(server, NORDLYS.host, nordlys.auth)).toEqual(before);
    expect((await byId(all.auth, sent.id)).status).toBe(404);
    for (const host of ["nope.localhost", "localhost"]) {
      expect((await xapi(server, host, "GET", "statements", { auth: all.auth })).status, host).toBe(404);
      expect((await post(all.auth, statement("alice"), host)).status, host).toBe(404);
    }
  });
});

describe("Voiding over HTTP", () => {
  it("takes a statement out of every query; it stays readable by voidedStatementId, not by statementId", async () => {
    const registration = crypto.randomUUID();
    const target = statement("alice", { registration });
    const kept = statement("alice", { registration });
    expect((await post(all.auth, [target, kept])).status).toBe(200);
    const voider = voiding("alice", target.id);
    expect((await post(all.auth, voider)).json()).toEqual([voider.id]);

    expect(await readIds(server, ACME.host, all.auth)).not.toContain(target.id);
    const agent = encodeURIComponent(JSON.stringify({ mbox: "mailto:alice@xapi.test" }));
    const activity = encodeURIComponent("https://lectern.test/activities/one");
    for (const query of [
      `agent=${agent}`,
      `activity=${activity}`,
      `registration=${registration}`,
      "verb=http%3A%2F%2Fadlnet.gov%2Fexpapi%2Fverbs%2Fexperienced",
    ]) {
      const ids = await readIds(server, ACME.host, all.auth, query);
      expect(ids, query).not.toContain(target.id);
      expect(ids, query).toContain(kept.id);
    }
    expect((await byId(all.auth, target.id)).status).toBe(404);
    const voided = await byId(all.auth, target.id, "voidedStatementId");
    expect(voided.status).toBe(200);
    expect(voided.json()).toMatchObject({ id: target.id, actor: { mbox: "mailto:alice@xapi.test" } });
    // The voiding statement is an ordinary statement; a statement not voided is not found as voided.
    expect((await byId(all.auth, voider.id)).json().object).toEqual({ objectType: "StatementRef", id: target.id });
    expect((await byId(all.auth, kept.id, "voidedStatementId")).status).toBe(404);
    // A voiding statement cannot be voided.
    expect((await post(all.auth, voiding("alice", voider.id))).status).toBe(400);
    expect((await byId(all.auth, voider.id)).status).toBe(200);
  });

  it("by a write credential: only of what it sent (403 for another credential's)", async () => {
    const writerA = makeCredential(server, ACME.id, { scope: "write" });
    const writerB = makeCredential(server, ACME.id, { scope: "write" });
    const mine = statement("alice");
    const theirs = statement("bob");
    await post(writerA.auth, mine);
    await post(writerB.auth, theirs);
    const refused = voiding("alice", theirs.id);
    const res = await post(writerA.auth, refused);
    expect(res.status, res.body).toBe(403);
    expect((await byId(writerB.auth, theirs.id)).status).toBe(200);
    expect((await byId(all.auth, refused.id)).status).toBe(404);
    expect((await post(writerA.auth, voiding("alice", mine.id))).status).toBe(200);
    expect((await byId(writerA.auth, mine.id)).status).toBe(404);
    expect((await byId(writerA.auth, mine.id, "voidedStatementId")).status).toBe(200);
  });
});

describe("The LRS's protocol", () => {
  it("requires X-Experience-API-Version (400), and answers in the version asked for", async () => {
    const sent = statement("alice");
    const missing = await xapi(server, ACME.host, "POST", "statements", { auth: all.auth, body: sent, version: null });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("X-Experience-API-Version");
    expect((await xapi(server, ACME.host, "GET", "statements", { auth: all.auth, version: null })).status).toBe(400);
    expect((await xapi(server, ACME.host, "GET", "statements", { auth: all.auth, version: "3.0.0" })).status).toBe(400);
    expect((await byId(all.auth, sent.id)).status).toBe(404);
    // Without a credential, the credential is what is missing.
    expect((await xapi(server, ACME.host, "GET", "statements", { version: null })).status).toBe(401);
    for (const [asked, answered] of [
      ["1.0.3", "1.0.3"],
      ["1.0", "1.0.3"],
      ["2.0.0", "2.0.0"],
    ]) {
      const res = await xapi(server, ACME.host, "GET", "statements?limit=1", { auth: all.auth, version: asked });
      expect(res.status).toBe(200);
      expect(res.headers["x-experience-api-version"]).toBe(answered);
    }
  });

  it("answers /xapi/about to anyone, without a credential or a version", async () => {
    const res = await xapi(server, ACME.host, "GET", "about", { version: null });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ version: ["2.0.0", "1.0.3"] });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
  });

  it("takes a call from another origin: no same-origin check, the credential decides, and the reply allows any origin", async () => {
    const sent = statement("alice");
    const res = await xapi(server, ACME.host, "POST", "statements", {
      auth: all.auth,
      body: sent,
      headers: { Origin: "https://content.example" },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(String(res.headers["access-control-expose-headers"])).toContain("X-Experience-API-Consistent-Through");
    expect((await byId(all.auth, sent.id)).status).toBe(200);
  });

  it("answers a CORS preflight from any origin: 204, Access-Control-Allow-Origin *, Authorization and the version header allowed", async () => {
    const preflight = await xapi(server, ACME.host, "OPTIONS", "statements", {
      version: null,
      headers: {
        Origin: "https://content.example",
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization, content-type, x-experience-api-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    const allowed = String(preflight.headers["access-control-allow-headers"])
      .toLowerCase()
      .split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "x-experience-api-version"]));
    expect(String(preflight.headers["access-control-allow-methods"])).toMatch(/\bPUT\b/);
    // Elsewhere OPTIONS is still no method of the app's.
    expect((await request(server.port, ACME.host, "/courses", { method: "OPTIONS" })).status).toBe(405);
  });

  it("takes a statement with its attachment as multipart/mixed, and gives both back with attachments=true", async () => {
    const bytes = crypto.randomBytes(300_000);
    const sha2 = crypto.createHash("sha256").update(bytes).digest("hex");
    const sent = {
      ...statement("attacher"),
      attachments: [
        {
          usageType: "https://lectern.test/usage/evidence",
          display: { "en-US": "Evidence" },
          contentType: "application/octet-stream",
          length: bytes.length,
          sha2,
        },
      ],
    };
    const boundary = "lectern-test-boundary";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(sent)}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${sha2}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const stored = await xapi(server, ACME.host, "POST", "statements", {
      auth: all.auth,
      body,
      headers: { "Content-Type": `multipart/mixed; boundary=${boundary}` },
    });
    expect(stored.status, stored.body).toBe(200);
    const back = await request(server.port, ACME.host, `/xapi/statements?statementId=${sent.id}&attachments=true`, {
      headers: { Authorization: all.auth, "X-Experience-API-Version": "2.0.0" },
    });
    expect(back.status).toBe(200);
    const type = String(back.headers["content-type"]);
    const replyBoundary = /boundary=(\S+)/.exec(type)![1];
    const parts = back.raw.toString("latin1").split(`--${replyBoundary}`);
    expect(JSON.parse(parts[1].split("\r\n\r\n")[1]).id).toBe(sent.id);
    const file = Buffer.from(parts[2].slice(parts[2].indexOf("\r\n\r\n") + 4, -2), "latin1");
    expect(parts[2]).toContain(`X-Experience-API-Hash: ${sha2}`);
    expect(file.equals(bytes)).toBe(true);
  });
});
