import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { checkReply } from "./contract";
import { form, request, type HttpResponse } from "./http";
import type { ServerAddress } from "./server";

export const DEMO_PASSWORD = "demo1234";

/** The `name=value` of a cookie set by a response, ready for a Cookie header. */
export function cookieFrom(res: HttpResponse, name: string) {
  const line = (res.headers["set-cookie"] ?? []).find((c) => c.startsWith(`${name}=`));
  return line ? line.split(";")[0] : null;
}

/** Posts the sign-in form the way a browser without JavaScript does (same-origin). */
export function postForm(server: ServerAddress, host: string, path: string, fields: Record<string, string>, cookie?: string) {
  const f = form(fields);
  return request(server.port, host, path, {
    ...f,
    headers: { ...f.headers, Origin: `http://${host}`, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

export async function loginPage(server: ServerAddress, host: string, email: string, password = DEMO_PASSWORD) {
  const res = await postForm(server, host, "/auth/login", { email, password });
  return { res, cookie: cookieFrom(res, "lectern_session") };
}

export function api(
  server: ServerAddress,
  host: string,
  method: string,
  path: string,
  { token, body, headers = {} }: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const reply = request(server.port, host, `/api/${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  // Every reply is held to its contract (tests/helpers/contract.ts): drift from /api/openapi.json fails here.
  return reply.then((res) => {
    checkReply(method, `/api/${path}`, res);
    return res;
  });
}

export async function loginApi(server: ServerAddress, host: string, email: string, password = DEMO_PASSWORD) {
  const res = await api(server, host, "POST", "auth/login", { body: { email, password } });
  expect(res.status, res.body).toBe(200);
  return res.json().payload as { token: string; two_factor_pending: boolean };
}

/** The tenant's database file, opened beside the server (WAL lets both work), for setting up clocks. */
export function tenantDb(server: ServerAddress, organizationId: number) {
  return new Database(path.join(server.dataDir, `org-${organizationId}`, "db.sqlite"));
}

/** Moves a column of some rows into the past: how tests reach "10 minutes later" without waiting. */
export function agePast(server: ServerAddress, organizationId: number, sql: string, ...params: unknown[]) {
  const db = tenantDb(server, organizationId);
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
