import { asc, count } from "drizzle-orm";
import { levels, type Level } from "../../db/tenant";
import type { Resource } from "~/kernel/resource.server";
import { contains } from "~/utils/pagination";
import { deleteLevel, getLevel, levelSchema, saveLevel } from "./leaderboard-admin.server";
import { ensureLeaderboard } from "./points.server";

/** Spec §7 `leaderboard/levels`: the generic resource calls over the organization's levels. */
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
  list: (scope, page) => {
    ensureLeaderboard(scope.db);
    const items = scope.db.select().from(levels).orderBy(asc(levels.threshold)).limit(page.perPage).offset((page.page - 1) * page.perPage).all();
    const total = scope.db.select({ n: count() }).from(levels).get()?.n ?? 0;
    return { items: items.map(levelApiView), total };
  },
  search: (scope, q, page) => {
    ensureLeaderboard(scope.db);
    const where = contains(levels.name, q);
    const items = scope.db.select().from(levels).where(where).orderBy(asc(levels.threshold)).limit(page.perPage).offset((page.page - 1) * page.perPage).all();
    return { items: items.map(levelApiView), total: scope.db.select({ n: count() }).from(levels).where(where).get()?.n ?? 0 };
  },
  get: (scope, id) => {
    const level = getLevel(scope.db, id);
    return level ? levelApiView(level) : null;
  },
  create: (scope, input) => {
    const level = saveLevel(scope.db, null, input);
    return level ? { ok: true, value: levelApiView(level) } : thresholdTaken;
  },
  update: (scope, id, input) => {
    const existing = getLevel(scope.db, id);
    if (!existing) return null;
    const level = saveLevel(scope.db, id, { name: existing.name, threshold: existing.threshold, color: existing.color, ...input });
    return level ? { ok: true, value: levelApiView(level) } : thresholdTaken;
  },
  remove: (scope, id) => deleteLevel(scope.db, id),
};
