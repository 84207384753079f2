import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtRoutes } from "../helpers/routes";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { ROOT } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The permission sweep (docs/permissions.md): every row, as every role, against the app (its Express host
 * and the built Remix app, in this process: tests/helpers/in-process.ts); and a check that the app has no
 * route, or method of a route, that the matrix does not list.
 */
const ROLES = ["anonymous", "learner", "group admin", "org admin", "super-admin"] as const;
type Role = (typeof ROLES)[number];

interface Row {
  route: string;
  method: string;
  host: "org" | "platform";
  sample: string;
  expected: Record<Role, string>;
}

function readMatrix(): Row[] {
  const text = fs.readFileSync(path.join(ROOT, "docs", "permissions.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim().replace(/^`|`$/g, ""));
      const [route, method, host, sample, ...outcomes] = cells;
      return {
        route,
        method,
        host: host as Row["host"],
        sample,
        expected: Object.fromEntries(ROLES.map((role, i) => [role, outcomes[i]])) as Record<Role, string>,
      };
    });
}

/** The app's routes as full path patterns, with the methods their modules answer. */
async function appRoutes() {
  return (await builtRoutes())
    .filter((r) => r.id !== "root")
    .map((r) => ({
      route: r.pattern.replace(/\/\*$/, "/*"),
      get: Boolean(r.module.loader || r.module.default),
      write: Boolean(r.module.action),
    }));
}

let server: InProcessServer;
/** Read-only handles on the databases the sessions live in, to see whether a session still signs someone in. */
let sessionStores: { organization: Database.Database; platform: Database.Database };
beforeAll(async () => {
  server = await startInProcess();
  sessionStores = {
    organization: new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true }),
    platform: new Database(path.join(server.dataDir, "platform.sqlite"), { readonly: true }),
  };
  // A group admin: a learner who administers a group holding the Nordlys learner.
  execTenant(
    server,
    2,
    "insert into users (email, first_name, last_name, role) values ('groupadmin@nordlys.test', 'Gry', 'Gruppe', 'learner')",
  );
  execTenant(server, 2, "insert into groups (name) values ('Team Syd')");
  execTenant(
    server,
    2,
    "insert into group_members (group_id, user_id, is_admin) select g.id, u.id, 1 from groups g, users u where g.name = 'Team Syd' and u.email = 'groupadmin@nordlys.test'",
  );
  execTenant(
    server,
    2,
    "insert into group_members (group_id, user_id, is_admin) select g.id, u.id, 0 from groups g, users u where g.name = 'Team Syd' and u.email = 'learner@nordlys.test'",
  );
});
afterAll(async () => {
  sessionStores?.organization.close();
  sessionStores?.platform.close();
  await server?.stop();
});

const ORG = "nordlys.localhost";
const EMAIL: Record<Exclude<Role, "anonymous">, string> = {
  learner: "learner@nordlys.test",
  "group admin": "groupadmin@nordlys.test",
  "org admin": "admin@nordlys.test",
  "super-admin": "super@lectern.test",
};

/** Each role's session of each kind, kept from row to row while it still signs its person in. */
const kept = new Map<string, string>();

/** Whether a session token still signs its person in: not ended (signing out, a refresh), not waiting for a code. */
function signsIn(role: Exclude<Role, "anonymous">, token: string) {
  const [store, table] = role === "super-admin" ? [sessionStores.platform, "platform_sessions"] : [sessionStores.organization, "sessions"];
  const hash = crypto.createHash("sha256").update(token).digest("hex");
  return Boolean(
    store.prepare(`select 1 from ${table} where token_hash = ? and two_factor_pending = 0 and expires_at > unixepoch()`).get(hash),
  );
}

/**
 * The role's credentials for one request: its kept session while that still signs it in, else a new one, so
 * the rows that end a session (signing out, a refresh, a change of password) never spoil the next. Sent to
 * the host where they mean nothing (a super-admin's on an organization's), they count for nothing.
 */
async function credentials(role: Role, kind: "web" | "api"): Promise<Record<string, string>> {
  if (role === "anonymous") return {};
  const key = `${role} ${kind}`;
  let token = kept.get(key);
  if (!token || !signsIn(role, token)) {
    token = insertSession(server, role === "super-admin" ? "platform" : { organizationId: 2 }, { email: EMAIL[role], kind });
    kept.set(key, token);
  }
  return kind === "web" ? { Cookie: await cookieFor(token) } : { Authorization: `Bearer ${token}` };
}

function outcome(res: { status: number; headers: Record<string, unknown> }) {
  const location = String(res.headers.location ?? "");
  if ((res.status === 302 || res.status === 303) && location.startsWith("/auth/login")) return "login";
  return String(res.status);
}

const rows = readMatrix();

describe("docs/permissions.md", () => {
  it("lists every route and method of the app", async () => {
    const listed = new Map<string, Set<string>>();
    for (const row of rows) {
      if (!listed.has(row.route)) listed.set(row.route, new Set());
      listed.get(row.route)!.add(row.method);
    }
    const missing: string[] = [];
    for (const route of await appRoutes()) {
      const methods = listed.get(route.route);
      if (!methods) missing.push(`${route.route} (no row at all)`);
      else {
        if (route.get && !methods.has("GET")) missing.push(`${route.route} GET`);
        if (route.write && ![...methods].some((m) => m !== "GET")) missing.push(`${route.route} POST/PUT/DELETE`);
      }
    }
    expect(missing, "routes without a row in docs/permissions.md").toEqual([]);
  });

  it.each(rows.map((row) => [`${row.method} ${row.sample} on ${row.host}`, row] as const))("%s", async (_name, row) => {
    const api = row.sample.startsWith("/api/");
    const host = row.host === "org" ? ORG : "localhost";
    // The five roles at once: each has its own session, and none's request changes what another's gets.
    const got = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await as(role)] as const)));
    async function as(role: Role) {
      const headers: Record<string, string> = await credentials(role, api ? "api" : "web");
      let body: string | undefined;
      if (row.method !== "GET") {
        if (api) {
          headers["Content-Type"] = "application/json";
          body = "{}";
        } else {
          headers["Content-Type"] = "application/x-www-form-urlencoded";
          headers["Sec-Fetch-Site"] = "same-origin";
          body = "";
        }
      }
      return outcome(await request(server.port, host, row.sample, { method: row.method, headers, body }));
    }
    expect(got, JSON.stringify(got)).toEqual(row.expected);
  });
});
