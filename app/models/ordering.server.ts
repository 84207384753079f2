import { and, asc, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import type { TenantConn } from "../../db/open";

/**
 * "Move" (docs/product.md §7: courses, categories and carousels "with move"; lessons too): put one row at a new
 * place among its siblings and renumber them 0, 1, 2… in one transaction. Without JavaScript the pages
 * send `direction` (up/down buttons); the API sends `position` (0-based) or `direction`.
 */
export const moveSchema = z.union([
  z.object({ position: z.number().int().min(0).max(1_000_000) }),
  z.object({ direction: z.enum(["up", "down", "first", "last"]) }),
]);
export type Move = z.infer<typeof moveSchema>;

type Ordered = SQLiteTable & { id: SQLiteColumn; position: SQLiteColumn };

/** The new order of ids after a move, or null when the id is not among them. */
export function reorder(ids: number[], id: number, move: Move): number[] | null {
  const from = ids.indexOf(id);
  if (from < 0) return null;
  let to: number;
  if ("position" in move) to = Math.min(move.position, ids.length - 1);
  else to = move.direction === "up" ? from - 1 : move.direction === "down" ? from + 1 : move.direction === "first" ? 0 : ids.length - 1;
  to = Math.max(0, Math.min(ids.length - 1, to));
  const next = ids.filter((x) => x !== id);
  next.splice(to, 0, id);
  return next;
}

export function moveRow(db: TenantConn, table: Ordered, id: number, move: Move, scope?: SQL): boolean {
  return db.transaction((tx) => {
    const ids = tx
      .select({ id: table.id })
      .from(table)
      .where(scope)
      .orderBy(asc(table.position), asc(table.id))
      .all()
      .map((r) => r.id as number);
    const order = reorder(ids, id, move);
    if (!order) return false;
    order.forEach((rowId, index) => {
      tx.update(table)
        .set({ position: index } as never)
        .where(and(eq(table.id, rowId)))
        .run();
    });
    return true;
  });
}

/** The next free position at the end of a list. */
export function nextPosition(db: TenantConn, table: Ordered, scope?: SQL) {
  const rows = db.select({ position: table.position }).from(table).where(scope).all();
  return rows.reduce((max, r) => Math.max(max, (r.position as number) + 1), 0);
}
