import { asc, count } from "drizzle-orm";
import { levels, type Level } from "../../db/tenant";
import type { Resource } from "./resource";
import { contains } from "~/utils/pagination";
import { deleteLevel, getLevel, levelSchema, saveLevel } from "./leaderboard-admin.server";
import { ensureLeaderboard } from "./points.server";

/** docs/product.md §7 `leaderboard/levels`: the generic resource calls over the organization's levels. */
export function levelApiView(l: Level) {
  return { id: l.id, name: l.name, threshold: l.threshold, color: l.color, updated_at: l.updatedAt.toISOString() };
}

type LevelView = ReturnType<typeof levelApiView>;
const thresholdTaken = { ok: false as const, field: "threshold", message: "leaderboard.errors.thresholdTaken" };

export const levelResource: Resource<LevelView, typeof levelSchema, ReturnType<typeof levelSchema.partial>> = {
  read: "read:leaderboard",
  write: "write:leaderboard",
  createSchema: levelSchema,
  updateSchema: levelSchema.partial(),
  list: (db, _viewer, page) => {
    ensureLeaderboard(db);
    const items = db
      .select()
      .from(levels)
      .orderBy(asc(levels.threshold))
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .all();
    const total = db.select({ n: count() }).from(levels).get()?.n ?? 0;
    return { items: items.map(levelApiView), total };
  },
  search: (db, _viewer, q, page) => {
    ensureLeaderboard(db);
    const where = contains(levels.name, q);
    const items = db
      .select()
      .from(levels)
      .where(where)
      .orderBy(asc(levels.threshold))
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .all();
    return { items: items.map(levelApiView), total: db.select({ n: count() }).from(levels).where(where).get()?.n ?? 0 };
  },
  get: (db, _viewer, id) => {
    const level = getLevel(db, id);
    return level ? levelApiView(level) : null;
  },
  create: (db, _viewer, input) => {
    const level = saveLevel(db, null, input);
    return level ? { ok: true, value: levelApiView(level) } : thresholdTaken;
  },
  update: (db, _viewer, id, input) => {
    const existing = getLevel(db, id);
    if (!existing) return null;
    const level = saveLevel(db, id, { name: existing.name, threshold: existing.threshold, color: existing.color, ...input });
    return level ? { ok: true, value: levelApiView(level) } : thresholdTaken;
  },
  remove: (db, _viewer, id) => deleteLevel(db, id),
};
