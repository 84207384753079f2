import { and, count, inArray, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { groups } from "../../db/tenant";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { contains } from "../utils/pagination";
import type { GroupListQuery } from "./forms/group-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The groups management list (issue 50; docs/decisions/046-management-lists.md): searched by name, filtered to
 * groups kept by rules or by hand, sorted by name, members or when made, a page at a time, each with its numbers of
 * members, rules and courses, counted for the page's groups only. Only the groups the viewer manages
 * (app/access/rules.ts `manageableGroupIds`).
 */
// The group named with its table: among a lone table's selected fields drizzle writes `${groups.id}` as a bare "id",
// which inside these subqueries would be the counted table's own id (group_rules and group_courses have one).
const group = sql`"groups"."id"`;
const members = sql<number>`(select count(*) from group_members gm where gm.group_id = ${group})`;
const rules = sql<number>`(select count(*) from group_rules gr where gr.group_id = ${group})`;
const courses = sql<number>`(select count(*) from group_courses gc where gc.group_id = ${group})`;

export function groupList(db: TenantConn, viewer: Viewer, query: GroupListQuery) {
  const ids = manageableGroupIds(viewer);
  const kind = query.filters.kind;
  const conditions: (SQL | undefined)[] = [
    ids ? inArray(groups.id, ids.length ? ids : [-1]) : undefined,
    query.q ? contains(groups.name, query.q) : undefined,
    kind === "rules" ? sql`exists (select 1 from group_rules gr where gr.group_id = ${groups.id})` : undefined,
    kind === "manual" ? sql`not exists (select 1 from group_rules gr where gr.group_id = ${groups.id})` : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(query, { name: groups.name, members, created: groups.createdAt }, groups.id);
  return listPage(query, {
    count: () => db.select({ n: count() }).from(groups).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({ id: groups.id, name: groups.name, description: groups.description, members, rules, courses })
        .from(groups)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}
