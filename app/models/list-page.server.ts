import { asc, desc, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ListQuery } from "../utils/list-query";

/**
 * One page of a management list (issue 50; docs/decisions/046-management-lists.md), the same for every list: its
 * total, then the rows of the page asked for (the last page when asked past it), in the list's order with the
 * row's id last so that equal values keep one order from page to page. A list's model says how to count and read
 * its rows under its conditions; this says which page.
 */
export interface ListPage<T> {
  rows: T[];
  total: number;
  page: number;
  pages: number;
  perPage: number;
}

export function listPage<T>(
  query: Pick<ListQuery, "page" | "perPage">,
  read: { count: () => number; rows: (limit: number, offset: number) => T[] },
): ListPage<T> {
  const total = read.count();
  const pages = Math.max(1, Math.ceil(total / query.perPage));
  const page = Math.min(query.page, pages);
  return { rows: total ? read.rows(query.perPage, (page - 1) * query.perPage) : [], total, page, pages, perPage: query.perPage };
}

/**
 * The ORDER BY of a list: the sort's column (or columns: a name is last name, then first) in the direction asked,
 * then the row's id in the same direction.
 */
export function listOrder<S extends string>(
  query: Pick<ListQuery<string, S>, "sort" | "dir">,
  columns: Record<S, SQLiteColumn | SQL | (SQLiteColumn | SQL)[]>,
  id: SQLiteColumn,
): SQL[] {
  const by = query.dir === "desc" ? desc : asc;
  return [...[columns[query.sort]].flat().map((c) => by(c)), by(id)];
}
