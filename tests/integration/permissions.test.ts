import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtRoutes } from "../helpers/routes";
import { request } from "../helpers/http";
import { ROOT, startServer, type RunningServer } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The permission sweep (docs/permissions.md): every row, as every role, against a real server; and a
 * check that the app has no route, or method of a route, that the matrix does not list.
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

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
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
afterAll(() => server?.stop());

const ORG = "nordlys.localhost";
const EMAIL: Record<Exclude<Role, "anonymous">, string> = {
  learner: "learner@nordlys.test",
  "group admin": "groupadmin@nordlys.test",
  "org admin": "admin@nordlys.test",
  "super-admin": "super@lectern.test",
};

/** Fresh credentials for one request, so calls that sign out (logout, refresh) never spoil the next. */
async function credentials(role: Role, kind: "web" | "api", host: Row["host"]): Promise<Record<string, string>> {
  if (role === "anonymous") return {};
  const where = role === "super-admin" ? "platform" : { organizationId: 2 };
  const token = insertSession(server, where, { email: EMAIL[role], kind });
  void host; // credentials are the role's own; sent to a host where they mean nothing, they count for nothing
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
    const got: Record<string, string> = {};
    for (const role of ROLES) {
      const headers: Record<string, string> = await credentials(role, api ? "api" : "web", row.host);
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
      const res = await request(server.port, host, row.sample, { method: row.method, headers, body });
      got[role] = outcome(res);
    }
    expect(got, JSON.stringify(got)).toEqual(row.expected);
  });
});
