import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";

export interface Page {
  page: number;
  perPage: number;
}

export const MAX_PER_PAGE = 100;

export const pageSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(20),
});

/** The list envelope every /api list uses, whatever the resource. */
export function paginated<T>(items: T[], total: number, { page, perPage }: Page) {
  return {
    data: items,
    meta: {
      current_page: page,
      per_page: perPage,
      total,
      last_page: Math.max(1, Math.ceil(total / perPage)),
    },
  };
}

/** `column LIKE %text%` (or an expression's) where the text's own % _ and \\ match only themselves. */
export function contains(column: SQLiteColumn | SQL, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} like ${pattern} escape '\\'`;
}
