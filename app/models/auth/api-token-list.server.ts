import { and, count, eq, gt, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { apiTokens, users } from "../../../db/tenant";
import { contains } from "../../utils/pagination";
import type { TokenListQuery } from "../forms/token-list";
import { listOrder, listPage } from "../list-page.server";
import { tokenCapabilities } from "./api-token.server";

/**
 * The API tokens management list (issue 50; docs/decisions/046-management-lists.md): searched by name, filtered to
 * live or expired tokens, to those holding one capability, and to the organization's own (made by a super-admin)
 * or a person's; sorted by name, when made, last used or expiry; a page at a time with the total. Every token of
 * the organization, as before: who may open the list is the screen's capability (`manage:api-token`).
 */
export function tokenList(db: TenantConn, query: TokenListQuery, now = new Date()) {
  const { state, capability, owner } = query.filters;
  const conditions: (SQL | undefined)[] = [
    query.q ? contains(apiTokens.name, query.q) : undefined,
    state === "active" ? gt(apiTokens.expiresAt, now) : state === "expired" ? lte(apiTokens.expiresAt, now) : undefined,
    capability ? sql`exists (select 1 from json_each(${apiTokens.capabilities}) c where c.value = ${capability})` : undefined,
    owner === "organization" ? isNull(apiTokens.userId) : owner === "person" ? isNotNull(apiTokens.userId) : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      created: apiTokens.createdAt,
      name: sql`lower(${apiTokens.name})`,
      lastUsed: apiTokens.lastUsedAt,
      expires: apiTokens.expiresAt,
    },
    apiTokens.id,
  );
  const page = listPage(query, {
    count: () => db.select({ n: count() }).from(apiTokens).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({
          token: apiTokens,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
        })
        .from(apiTokens)
        .leftJoin(users, eq(users.id, apiTokens.userId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
  return {
    ...page,
    rows: page.rows.map(({ token, firstName, lastName, email }) => ({
      id: token.id,
      name: token.name,
      capabilities: tokenCapabilities(token),
      /** Who made it: null for the organization's own (a super-admin's). */
      madeBy: token.userId === null ? null : `${firstName ?? ""} ${lastName ?? ""}`.trim() || email || `#${token.userId}`,
      createdAt: token.createdAt.toISOString(),
      expiresAt: token.expiresAt.toISOString(),
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
      expired: token.expiresAt.getTime() <= now.getTime(),
    })),
  };
}
