import { asc } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import { userActivity, users } from "../../db/tenant";

const DAY = 86_400_000;

/**
 * When the demo's people were last active (issue 50: the people list's "last active" filter, sort and column): most
 * within the last month, some two or five months ago, one in ten never. Spread by each person's id, as of `now`, so
 * a second seeding as of the same moment writes the same rows.
 */
export function seedActivityDemo(db: TenantDb, { now = new Date() }: { now?: Date } = {}) {
  const people = db.select({ id: users.id }).from(users).orderBy(asc(users.id)).all();
  for (const { id } of people) {
    const kind = id % 10;
    if (kind === 0) continue;
    const days = kind === 1 ? 150 : kind === 2 ? 60 : (id * 7) % 28;
    const at = new Date(Math.floor((now.getTime() - days * DAY - (id % 24) * 3_600_000) / 1000) * 1000);
    db.insert(userActivity)
      .values({ userId: id, lastActiveAt: at })
      .onConflictDoUpdate({ target: userActivity.userId, set: { lastActiveAt: at } })
      .run();
  }
}
