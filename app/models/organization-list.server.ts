import { and, count, eq, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { organizations, organizationSummaries } from "../../db/platform";
import type { PlatformDb } from "../../db/open";
import { contains } from "../utils/pagination";
import type { OrganizationListQuery } from "./forms/organization-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The super-admin's organizations list (issue 50; docs/decisions/046-management-lists.md), from the platform
 * database alone: searched by name or address (prefix, domain, custom domain), filtered by language, by whether a
 * sign-in code is required and by how the organization is reached, sorted by name, when made, or its numbers of
 * people and courses as organization_summaries keeps them (no organization's own database is opened; an
 * organization whose figures are not gathered yet has none, and sorts as the fewest); a page at a time.
 */
export function organizationList(db: PlatformDb, query: OrganizationListQuery) {
  const o = organizations;
  const { language, twoFactor, address } = query.filters;
  const ownHost = or(isNotNull(o.domain), isNotNull(o.customDomain));
  const conditions: (SQL | undefined)[] = [
    query.q
      ? or(contains(o.name, query.q), contains(o.urlPrefix, query.q), contains(o.domain, query.q), contains(o.customDomain, query.q))
      : undefined,
    language ? eq(o.language, language) : undefined,
    twoFactor ? eq(o.twoFactorRequired, twoFactor === "required") : undefined,
    address === "domain" ? ownHost : address === "prefix" ? and(isNull(o.domain), isNull(o.customDomain)) : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      name: sql`lower(${o.name})`,
      created: o.createdAt,
      people: sql`coalesce(${organizationSummaries.users}, -1)`,
      courses: sql`coalesce(${organizationSummaries.courses}, -1)`,
    },
    o.id,
  );
  return listPage(query, {
    count: () => db.select({ n: count() }).from(o).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({ organization: o, people: organizationSummaries.users, courses: organizationSummaries.courses })
        .from(o)
        .leftJoin(organizationSummaries, eq(organizationSummaries.organizationId, o.id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}
