import { and, count, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { xapiCredentials, type XapiScope } from "../../../db/tenant";
import type { XapiVersion } from "./statements.server";
import { contains } from "../../utils/pagination";
import type { LrsCredentialListQuery } from "../forms/lrs-credential-list";
import { listOrder, listPage } from "../list-page.server";

/**
 * The LRS credentials management list (issue 50; docs/decisions/046-management-lists.md): the credentials people
 * made (`purpose` client: never the player's for a launch nor the LMS's own), searched by name or key, filtered to
 * live, revoked or expired ones, by scope and by xAPI version, sorted by name, when made, last used or expiry; a
 * page at a time with the total. Who may open it is the screen's capability (`manage:xapi`).
 */
export function lrsCredentialList(db: TenantConn, query: LrsCredentialListQuery, now = new Date()) {
  const { state, scope, version } = query.filters;
  const c = xapiCredentials;
  const states: Record<string, SQL | undefined> = {
    active: and(isNull(c.revokedAt), gt(c.expiresAt, now)),
    revoked: isNotNull(c.revokedAt),
    expired: and(isNull(c.revokedAt), lte(c.expiresAt, now)),
  };
  const conditions: (SQL | undefined)[] = [
    eq(c.purpose, "client"),
    query.q ? or(contains(c.name, query.q), contains(c.key, query.q)) : undefined,
    state ? states[state] : undefined,
    scope ? eq(c.scope, scope as XapiScope) : undefined,
    version ? eq(c.version, version as XapiVersion) : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(query, { created: c.createdAt, name: sql`lower(${c.name})`, lastUsed: c.lastUsedAt, expires: c.expiresAt }, c.id);
  const page = listPage(query, {
    count: () => db.select({ n: count() }).from(c).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({
          id: c.id,
          name: c.name,
          key: c.key,
          scope: c.scope,
          version: c.version,
          createdAt: c.createdAt,
          expiresAt: c.expiresAt,
          revokedAt: c.revokedAt,
          lastUsedAt: c.lastUsedAt,
        })
        .from(c)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: r.id,
      name: r.name,
      key: r.key,
      scope: r.scope,
      version: r.version,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      expired: r.expiresAt.getTime() <= now.getTime(),
    })),
  };
}
