import { and, count, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { userImports } from "../../db/tenant";
import { contains } from "../utils/pagination";
import type { ImportListQuery } from "./forms/import-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The organization's past CSV imports (issue 50; the import screen, docs/decisions/046-management-lists.md): searched
 * by file name, filtered by state, sorted by when uploaded, file name or rows, a page at a time with the total; Never
 * the file's content. Who may read it is the screen's capability (write:user).
 */
export function importList(db: TenantConn, query: ImportListQuery) {
  const status = query.filters.status;
  const where = and(
    query.q ? contains(userImports.fileName, query.q) : undefined,
    status ? eq(userImports.status, status as (typeof userImports.$inferSelect)["status"]) : undefined,
  );
  const order = listOrder(
    query,
    { created: userImports.createdAt, name: sql`${userImports.fileName} collate nocase`, rows: userImports.rowCount },
    userImports.id,
  );
  return listPage(query, {
    count: () => db.select({ n: count() }).from(userImports).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({
          id: userImports.id,
          fileName: userImports.fileName,
          status: userImports.status,
          rowCount: userImports.rowCount,
          createdAt: userImports.createdAt,
        })
        .from(userImports)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}
