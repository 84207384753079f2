import crypto from "node:crypto";
import { createXapiCredential, revokeXapiCredential, type NewCredential } from "../../app/models/xapi/credentials.server";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { TenantDb } from "../../db/open";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { request, type HttpResponse } from "./http";
import type { ServerAddress } from "./server";

/**
 * The organization's Learning Record Store over HTTP (/xapi, docs/decisions/043-learning-record-store.md), for
 * the integration tests of it (tests/integration/xapi-*.test.ts): credentials made on the organization's own
 * database file (as the player and the screens will), requests as a client sends them, statements to send.
 */

/** The demo's organizations (tests/helpers/server.ts `makeDataDir`: a copy of the seeded demo). */
export const ACME = { id: 1, host: "acme.localhost" } as const;
export const NORDLYS = { id: 2, host: "nordlys.localhost" } as const;

export interface Credential {
  id: number;
  key: string;
  secret: string;
  /** The Authorization header it is sent with. */
  auth: string;
}

export const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;

/**
 * Runs `work` on the organization's database file beside the server (WAL lets both use it), then closes it.
 * Opened as it is, not through db/open.ts `openTenantDatabase`: its check of the file's length can meet the
 * server's checkpoint half-way (the header's page count written before the pages) and call the file truncated.
 */
export function withTenantDb<T>(server: Pick<ServerAddress, "dataDir">, organizationId: number, work: (db: TenantDb) => T): T {
  const sqlite = new Database(tenantDatabaseFile(server.dataDir, organizationId), { fileMustExist: true, timeout: 5_000 });
  try {
    return work(drizzle(sqlite));
  } finally {
    sqlite.close();
  }
}

/** A new credential of the organization, as `createXapiCredential` makes it. */
export function makeCredential(
  server: Pick<ServerAddress, "dataDir">,
  organizationId: number,
  options: Partial<Omit<NewCredential, "scope">> & Pick<NewCredential, "scope">,
): Credential {
  const made = withTenantDb(server, organizationId, (db) =>
    createXapiCredential(db, { name: `test ${options.scope}`, userId: null, ...options }),
  );
  if ("error" in made) throw new Error(made.error);
  return { id: made.credential.id, key: made.key, secret: made.secret, auth: basic(made.key, made.secret) };
}

export function revokeCredential(server: Pick<ServerAddress, "dataDir">, organizationId: number, id: number) {
  return withTenantDb(server, organizationId, (db) => revokeXapiCredential(db, id));
}

/** One request to `/xapi/<path>` on `host`, as an xAPI client sends it: the version header, JSON bodies. */
export function xapi(
  server: ServerAddress,
  host: string,
  method: string,
  path: string,
  {
    auth,
    body,
    headers = {},
    version = "2.0.0",
  }: { auth?: string; body?: unknown; headers?: Record<string, string>; version?: string | null } = {},
): Promise<HttpResponse> {
  const raw = body === undefined || typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return request(server.port, host, `/xapi/${path}`, {
    method,
    headers: {
      ...(version !== null ? { "X-Experience-API-Version": version } : {}),
      ...(auth ? { Authorization: auth } : {}),
      ...(raw !== undefined ? { "Content-Type": "application/json" } : {}),
      ...headers,
    },
    body: raw as string | Buffer | undefined,
  });
}

export const mbox = (name: string) => ({ objectType: "Agent", mbox: `mailto:${name}@xapi.test` });

/** A statement of `actor` (a name: `mailto:<name>@xapi.test`), with its own id unless given one. */
export function statement(
  actor: string,
  {
    id = crypto.randomUUID(),
    registration,
    activity = "https://lectern.test/activities/one",
    extensions,
  }: { id?: string; registration?: string; activity?: string; extensions?: Record<string, unknown> } = {},
) {
  return {
    id,
    actor: mbox(actor),
    verb: { id: "http://adlnet.gov/expapi/verbs/experienced", display: { "en-US": "experienced" } },
    object: { objectType: "Activity", id: activity },
    ...(registration || extensions
      ? { context: { ...(registration ? { registration } : {}), ...(extensions ? { extensions } : {}) } }
      : {}),
  };
}

/** A statement voiding the statement `target`. */
export function voiding(actor: string, target: string) {
  return {
    id: crypto.randomUUID(),
    actor: mbox(actor),
    verb: { id: "http://adlnet.gov/expapi/verbs/voided", display: { "en-US": "voided" } },
    object: { objectType: "StatementRef", id: target },
  };
}

/** Every statement a query selects, page after page through `more` (each page's ids, in order). */
export async function readAll(server: ServerAddress, host: string, auth: string, query = "") {
  const pages: string[][] = [];
  let next = `statements${query ? `?${query}` : ""}`;
  for (;;) {
    const res = await xapi(server, host, "GET", next, { auth });
    if (res.status !== 200) throw new Error(`GET /xapi/${next}: ${res.status} ${res.body}`);
    const { statements, more } = res.json() as { statements: Array<{ id: string }>; more: string };
    pages.push(statements.map((s) => s.id));
    if (!more) return pages;
    if (!more.startsWith("/xapi/")) throw new Error(`more is not under /xapi/: ${more}`);
    next = more.slice("/xapi/".length);
  }
}

/** The ids of every statement the credential can read, as one list. */
export async function readIds(server: ServerAddress, host: string, auth: string, query = "") {
  return (await readAll(server, host, auth, query)).flat();
}
