import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Three management lists of issue 50 on the shared list parts, against the real server as their GET forms ask
 * without JavaScript, each on a hand-counted fixture: an organization's API tokens (the super-admin's screen), its
 * LRS credentials (the organization admin's) and the super-admin's organizations. Every filter and sort, a second
 * page with its total, a parameter that does not parse shown as a message, revoking from a filtered view, and
 * who sees which rows.
 */
let server: InProcessServer;
let superCookie: string;
let admin: string;
let learner: string;
const ACME = "acme.localhost";
const TOKENS = "/admin/organizations/1/api";
const LRS = "/dashboard/organizations/1/lrs";
const ORGANIZATIONS = "/admin/organizations";
const NOW = Math.floor(Date.now() / 1000);
const HOUR = 3600;
const DAY = 86_400;
const pad = (n: number) => String(n).padStart(2, "0");
const tok = (...ns: number[]) => ns.map((n) => `Tok ${pad(n)}`);
const org = (...ns: number[]) => ns.map((n) => `Org ${pad(n)}`);
const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from <= to ? from + i : from - i));

/** Runs `work` on a database beside the running server, in one transaction (a fixture's rows at once). */
function withDatabase<T>(file: string, work: (run: (sql: string, ...params: unknown[]) => Database.RunResult) => T) {
  const db = new Database(path.join(server.dataDir, file));
  try {
    db.pragma("busy_timeout = 5000");
    return db.transaction(() => work((sql, ...params) => db.prepare(sql).run(...params)))();
  } finally {
    db.close();
  }
}

/** A list as a person reads it: its rows' names (by the row's data attribute), its total, the page. */
async function list(host: string, address: string, cookie: string, row: string) {
  const res = await request(server.port, host, address, { headers: { Cookie: cookie } });
  expect(res.status, address).toBe(200);
  return {
    names: [...res.body.matchAll(new RegExp(`data-${row}="([^"]+)"`, "g"))].map((m) => m[1]),
    total: /data-testid="list-total">([^<]*)</.exec(res.body)?.[1],
    body: res.body,
  };
}
const tokens = (search: string) => list("localhost", `${TOKENS}${search}`, superCookie, "token");
const credentials = (search: string) => list(ACME, `${LRS}${search}`, admin, "credential");
const organizations = (search: string) => list("localhost", `${ORGANIZATIONS}${search}`, superCookie, "organization");

beforeAll(async () => {
  server = await startInProcess();
  superCookie = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));

  // Tokens "Tok 01" to "Tok 30", the newest last; expired: 10, 20, 30; read:analytics: the multiples of 3;
  // made by the admin: 1 to 5; used: 4 (a minute ago), 17 (an hour), 22 (two hours).
  const used: Record<number, number> = { 4: 60, 17: HOUR, 22: 2 * HOUR };
  const names = ["Alpha", "bravo", "Charlie", "delta", "Echo", "foxtrot", "Golf", "hotel"];
  withDatabase("org-1/db.sqlite", (run) => {
    run("delete from api_tokens");
    for (let n = 1; n <= 30; n++)
      run(
        `insert into api_tokens (user_id, name, token_hash, capabilities, created_at, expires_at, last_used_at)
       values (case when ? then (select id from users where email = 'admin@acme.test') end, ?, ?, ?, ?, ?, ?)`,
        n <= 5 ? 1 : 0,
        `Tok ${pad(n)}`,
        `platform-lists-${n}`,
        JSON.stringify(n % 3 === 0 ? ["read:analytics", "read:course"] : ["read:course"]),
        NOW - (31 - n) * HOUR,
        n % 10 === 0 ? NOW - n * 60 : NOW + n * DAY,
        used[n] ? NOW - used[n] : null,
      );
    credentialsFixture(run, names);
  });
  // Another organization's token, which Acme's list never shows.
  execTenant(
    server,
    2,
    "insert into api_tokens (name, token_hash, capabilities, created_at, expires_at) values ('Tok 99 of Nordlys', 'platform-lists-other', '[]', ?, ?)",
    NOW,
    NOW + DAY,
  );

  // Organizations "Org 01" to "Org 28" beside the demo's two, the newest last: Swedish 4, 9, 14, 19, 24; a sign-in
  // code 4, 8, …, 28; a host name of their own 5 (custom) and 7, 14, 21, 28; people n×10 (Org 03: 1,000; Org 13
  // not counted yet), courses 30 − n. No database of theirs exists: the list never opens one.
  const languages = ["en", "pl", "da", "no", "sv"];
  withDatabase("platform.sqlite", (run) => {
    for (let n = 1; n <= 28; n++) {
      const id = Number(
        run(
          `insert into organizations (name, url_prefix, domain, custom_domain, language, two_factor_required, created_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
          `Org ${pad(n)}`,
          `po-${n}`,
          n % 7 === 0 ? `learn${n}.example` : null,
          n === 5 ? "org5.custom.example" : null,
          languages[n % 5],
          n % 4 === 0 ? 1 : 0,
          NOW - (29 - n) * DAY,
        ).lastInsertRowid,
      );
      if (n !== 13)
        run("insert into organization_summaries (organization_id, users, courses) values (?, ?, ?)", id, n === 3 ? 1000 : n * 10, 30 - n);
    }
  });
});

function credentialsFixture(run: (sql: string, ...params: unknown[]) => unknown, names: string[]) {
  // Credentials 1 to 8 (names in mixed case), the newest last: revoked 2 and 5, expired 3 and 7; `all` the odd
  // ones; 1.0.3 the first three; used: foxtrot (a minute ago), Alpha (ten minutes). And a launch's, never listed.
  run("delete from xapi_credentials");
  names.forEach((name, i) => {
    const n = i + 1;
    run(
      `insert into xapi_credentials (name, key, secret_hash, scope, version, purpose, created_at, expires_at, revoked_at, last_used_at)
       values (?, ?, ?, ?, ?, 'client', ?, ?, ?, ?)`,
      name,
      `key-${name.toLowerCase()}`,
      `hash-${n}`,
      n % 2 ? "all" : "write",
      n <= 3 ? "1.0.3" : "2.0.0",
      NOW - (9 - n) * HOUR,
      n === 3 || n === 7 ? NOW - n * HOUR : NOW + n * DAY,
      n === 2 || n === 5 ? NOW - 60 : null,
      n === 6 ? NOW - 60 : n === 1 ? NOW - 600 : null,
    );
  });
  run(
    `insert into xapi_credentials (name, key, secret_hash, scope, version, purpose, created_at, expires_at)
     values ('Zeta launch', 'key-launch', 'hash-launch', 'all', '2.0.0', 'launch', ?, ?)`,
    NOW,
    NOW + DAY,
  );
}

afterAll(async () => {
  await server?.stop();
});

describe("an organization's API tokens (the super-admin's screen)", () => {
  it("are searched by name and paged newest first, with the total", async () => {
    const first = await tokens("");
    expect(first.total).toBe("1–25 of 30");
    expect(first.names).toEqual(tok(...range(30, 6)));
    const second = await tokens("?page=2");
    expect(second.total).toBe("26–30 of 30");
    expect(second.names).toEqual(tok(5, 4, 3, 2, 1));
    expect(second.body).not.toContain("Tok 99 of Nordlys");
    const found = await tokens("?q=Tok+1");
    expect(found.total).toBe("1–10 of 10");
    expect(found.names).toEqual(tok(...range(19, 10)));
  });

  it("are filtered by state, capability and who made them", async () => {
    expect((await tokens("?state=expired")).names).toEqual(tok(30, 20, 10));
    expect((await tokens("?state=active&per_page=50")).total).toBe("1–27 of 27");
    const analytics = await tokens("?capability=read%3Aanalytics");
    expect(analytics.names).toEqual(tok(30, 27, 24, 21, 18, 15, 12, 9, 6, 3));
    const mine = await tokens("?owner=person");
    expect(mine.names).toEqual(tok(5, 4, 3, 2, 1));
    expect(mine.body).toContain("Ada Admin");
    expect((await tokens("?owner=organization")).total).toBe("1–25 of 25");
    expect((await tokens("?owner=organization&capability=read%3Aanalytics&state=active")).names).toEqual(tok(27, 24, 21, 18, 15, 12, 9, 6));
  });

  it("are sorted by name, when made, last use and expiry, either way", async () => {
    expect((await tokens("?sort=name")).names).toEqual(tok(...range(1, 25)));
    expect((await tokens("?sort=name&dir=desc")).names.slice(0, 3)).toEqual(tok(30, 29, 28));
    expect((await tokens("?sort=created&dir=asc")).names.slice(0, 3)).toEqual(tok(1, 2, 3));
    expect((await tokens("?sort=lastUsed")).names.slice(0, 5)).toEqual(tok(4, 17, 22, 30, 29));
    expect((await tokens("?sort=expires&dir=asc")).names.slice(0, 5)).toEqual(tok(30, 20, 10, 1, 2));
    expect((await tokens("?sort=expires")).names.slice(0, 3)).toEqual(tok(29, 28, 27));
  });

  it("names a parameter it cannot use and shows the rest, never a 500", async () => {
    const wrong = await tokens("?state=revoked&sort=secret&page=x");
    expect(wrong.body.match(/Not one of the choices: left out\./g)).toHaveLength(3);
    expect(wrong.total).toBe("1–25 of 30");
    expect((await tokens("?capability=rule%3Aeverything")).body).toContain('aria-invalid="true"');
  });

  it("revokes a token from a filtered view and comes back to it; still makes one", async () => {
    const post = (address: string, fields: Record<string, string>) => {
      const body = form(fields);
      return request(server.port, "localhost", address, {
        ...body,
        headers: { ...body.headers, Cookie: superCookie, "Sec-Fetch-Site": "same-origin" },
      });
    };
    const expired = await tokens("?state=expired");
    const id = /name="id" value="(\d+)"/.exec(expired.body)?.[1];
    const revoked = await post(`${TOKENS}?state=expired`, { intent: "revoke", id: id! });
    expect(revoked.status).toBe(302);
    expect(revoked.headers.location).toBe(`${TOKENS}?state=expired`);
    expect((await tokens("?state=expired")).names).toEqual(tok(20, 10));
    const made = await post(TOKENS, { intent: "create", name: "Tok 31", capabilities: "read:course", days: "7" });
    expect(made.status).toBe(200);
    expect(made.body).toContain('data-testid="new-token"');
    expect((await tokens("?q=Tok+31")).names).toEqual(["Tok 31"]);
  });

  it("are the super-admin's only: an organization admin does not reach the screen", async () => {
    const res = await request(server.port, "localhost", TOKENS, { headers: { Cookie: admin } });
    expect(res.status).not.toBe(200);
    expect(res.body).not.toContain("Tok 0");
  });
});

describe("the LRS credentials (the organization admin's screen)", () => {
  it("are the clients' only, newest first, searched by name or key", async () => {
    const all = await credentials("");
    expect(all.total).toBe("1–8 of 8");
    expect(all.names).toEqual(["hotel", "Golf", "foxtrot", "Echo", "delta", "Charlie", "bravo", "Alpha"]);
    expect(all.body).not.toContain("Zeta launch");
    expect((await credentials("?q=key-ECHO")).names).toEqual(["Echo"]);
    expect((await credentials("?q=ha")).names).toEqual(["Charlie", "Alpha"]);
  });

  it("are filtered by state, scope and version", async () => {
    expect((await credentials("?state=active")).names).toEqual(["hotel", "foxtrot", "delta", "Alpha"]);
    expect((await credentials("?state=revoked")).names).toEqual(["Echo", "bravo"]);
    expect((await credentials("?state=expired")).names).toEqual(["Golf", "Charlie"]);
    expect((await credentials("?scope=all")).names).toEqual(["Golf", "Echo", "Charlie", "Alpha"]);
    expect((await credentials("?scope=write&version=1.0.3")).names).toEqual(["bravo"]);
    expect((await credentials("?version=2.0.0&state=active")).names).toEqual(["hotel", "foxtrot", "delta"]);
  });

  it("are sorted by name (whatever the case), when made, last use and expiry", async () => {
    expect((await credentials("?sort=name")).names).toEqual(["Alpha", "bravo", "Charlie", "delta", "Echo", "foxtrot", "Golf", "hotel"]);
    expect((await credentials("?sort=name&dir=desc")).names[0]).toBe("hotel");
    expect((await credentials("?sort=created&dir=asc")).names[0]).toBe("Alpha");
    expect((await credentials("?sort=lastUsed")).names.slice(0, 3)).toEqual(["foxtrot", "Alpha", "hotel"]);
    expect((await credentials("?sort=expires&dir=asc")).names).toEqual([
      "Golf",
      "Charlie",
      "Alpha",
      "bravo",
      "delta",
      "Echo",
      "foxtrot",
      "hotel",
    ]);
  });

  it("show a revoke button on live ones only, name a wrong parameter, and keep learners out", async () => {
    const all = await credentials("");
    expect(all.body.match(/name="intent" value="revoke"/g)).toHaveLength(4);
    const wrong = await credentials("?scope=actor&per_page=7");
    expect(wrong.body.match(/Not one of the choices: left out\./g)).toHaveLength(2);
    expect(wrong.total).toBe("1–8 of 8");
    expect((await request(server.port, ACME, LRS, { headers: { Cookie: learner } })).status).toBe(403);
  });
});

describe("the organizations", () => {
  it("are the super-admin's, by name, a page at a time, searched by name or address", async () => {
    const first = await organizations("");
    expect(first.total).toBe("1–25 of 30");
    expect(first.names).toEqual(["Acme Academy", "Nordlys Akademi", ...org(...range(1, 23))]);
    expect((await organizations("?page=2")).names).toEqual(org(24, 25, 26, 27, 28));
    expect((await organizations("?q=custom.example")).names).toEqual(org(5));
    expect((await organizations("?q=po-2")).names).toEqual(org(2, 20, 21, 22, 23, 24, 25, 26, 27, 28));
    expect((await organizations("?q=acme")).names).toEqual(["Acme Academy"]);
  });

  it("are filtered by language, sign-in code and address", async () => {
    expect((await organizations("?language=sv")).names).toEqual(org(4, 9, 14, 19, 24));
    expect((await organizations("?q=org&twoFactor=required")).names).toEqual(org(4, 8, 12, 16, 20, 24, 28));
    expect((await organizations("?twoFactor=optional&per_page=50")).total).toBe("1–22 of 22");
    expect((await organizations("?address=domain")).names).toEqual(org(5, 7, 14, 21, 28));
    expect((await organizations("?address=prefix&per_page=50")).total).toBe("1–25 of 25");
    expect((await organizations("?address=domain&language=no")).names).toEqual(org(28));
  });

  it("are sorted by people and courses as the platform keeps them, by when made and by name", async () => {
    const most = await organizations("?q=org&sort=people");
    expect(most.names.slice(0, 4)).toEqual(org(3, 28, 27, 26));
    expect(most.body).toContain('data-people="1000"');
    const fewest = await organizations("?q=org&sort=people&dir=asc");
    expect(fewest.names.slice(0, 3)).toEqual(org(13, 1, 2));
    expect(fewest.body).toContain("Not counted yet");
    expect((await organizations("?q=org&sort=courses")).names.slice(0, 3)).toEqual(org(1, 2, 3));
    expect((await organizations("?q=org&sort=created")).names.slice(0, 3)).toEqual(org(28, 27, 26));
    expect((await organizations("?q=org&sort=name&dir=desc")).names.slice(0, 2)).toEqual(org(28, 27));
  });

  it("name a parameter that does not parse; an organization admin sees only their own", async () => {
    const wrong = await organizations("?language=xx&sort=size");
    expect(wrong.body.match(/Not one of the choices: left out\./g)).toHaveLength(2);
    expect(wrong.total).toBe("1–25 of 30");
    expect((await request(server.port, ACME, ORGANIZATIONS, { headers: { Cookie: admin } })).status).toBe(404);
    const own = await list(ACME, "/dashboard/organizations", admin, "organization");
    expect(own.names).toEqual(["Acme Academy"]);
  });
});
