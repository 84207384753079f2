import { desc, eq, like } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import { badges, levels, users } from "../../db/tenant";
import { setHidden } from "../../app/models/leaderboard-admin.server";
import { ensureLeaderboard } from "../../app/models/points.server";

/**
 * The leaderboard's demo (issue 13): levels, activities and badges (the defaults, in Danish for Nordlys).
 * The board itself fills from the demo's learning history (scripts/demo/history.ts), which is recorded
 * through the learning models and so earns points, streaks and badges through the same events as real
 * learning. One generated learner has opted out of public ranking, to show how that looks.
 */
const DANISH_LEVELS: Record<string, string> = {
  Beginner: "Begynder",
  Explorer: "Opdager",
  Achiever: "Præsterer",
  Expert: "Ekspert",
  Master: "Mester",
};
const DANISH_BADGES: Record<string, [string, string]> = {
  "First steps": ["Første skridt", "Gennemførte en første lektion."],
  "Course finisher": ["Kursusfuldender", "Gennemførte et første kursus."],
  "Five courses": ["Fem kurser", "Gennemførte fem kurser."],
  "Perfect score": ["Fuld score", "Fik 100 % i en quiz."],
  "Week streak": ["Ugestime", "Lærte syv dage i træk."],
};

export function seedLeaderboardDemo(db: TenantDb, { language, domain }: { language: "en" | "da"; domain: string }) {
  ensureLeaderboard(db);
  if (language === "da") {
    for (const level of db.select().from(levels).all()) {
      if (DANISH_LEVELS[level.name]) db.update(levels).set({ name: DANISH_LEVELS[level.name] }).where(eq(levels.id, level.id)).run();
    }
    for (const badge of db.select().from(badges).all()) {
      const da = DANISH_BADGES[badge.name];
      if (da) db.update(badges).set({ name: da[0], description: da[1] }).where(eq(badges.id, badge.id)).run();
    }
  }
  // Generated learners have numbered addresses (first.last.n@); the last of them keeps to themselves.
  const shy = db
    .select({ id: users.id })
    .from(users)
    .where(like(users.email, `%.%.%@${domain}`))
    .orderBy(desc(users.id))
    .limit(1)
    .get();
  if (shy) setHidden(db, shy.id, true);
}
