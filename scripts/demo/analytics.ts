import { and, eq, inArray } from "drizzle-orm";
import { recordFact, recordQuizAttempt } from "../../app/models/analytics.server";
import type { TenantConn } from "../../db/open";
import { courses, materials, users } from "../../db/tenant";
import { seedHistory } from "./history";

/**
 * Analytics for the demo (issue 15). The demo's history (scripts/demo/history.ts) records sign-ups, watch
 * time and completions through the learning models, so the event hooks already count them. What that
 * history does not do is fetch materials or take quizzes: this adds material downloads (for the courses
 * that have materials or are download courses) and graded quiz attempts on the days the generated learners
 * were active, deterministically, so every chart and the per-course pass rates show something.
 */
export function seedAnalyticsDemo(
  db: TenantConn,
  { domain = "demo.test", language = "en", now = new Date() }: { domain?: string; language?: "en" | "da"; now?: Date } = {},
) {
  // The shared history covers the last 120 days. An earlier cohort, who joined 4 to 15 months ago and learned
  // until 4 months ago, recorded through the same learning models, gives the 12-month charts something in
  // every month and the previous period something to compare with.
  const DAY = 86_400_000;
  seedHistory(db, {
    seed: `${domain}-earlier`,
    domain: `learners.${domain}`,
    language,
    learners: 90,
    days: 330,
    now: new Date(now.getTime() - 120 * DAY),
  });
  let seed = 15;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const withMaterials = db
    .selectDistinct({ id: materials.courseId })
    .from(materials)
    .all()
    .map((r) => r.id);
  const downloadCourses = db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.type, "download"), eq(courses.published, true)))
    .all()
    .map((r) => r.id);
  const fetchable = [...new Set([...withMaterials, ...downloadCourses])];
  const published = db
    .select({ id: courses.id })
    .from(courses)
    .where(eq(courses.published, true))
    .all()
    .map((r) => r.id);
  if (!published.length) return;
  const learners = db
    .select({ id: users.id, createdAt: users.createdAt })
    .from(users)
    .where(inArray(users.role, ["learner"]))
    .all();
  db.transaction((tx) => {
    for (const learner of learners) {
      const since = learner.createdAt.getTime();
      const span = Math.max(0, now.getTime() - since);
      const times = Math.floor(random() * 5);
      for (let i = 0; i < times; i++) {
        const at = new Date(since + Math.floor(random() * span));
        if (fetchable.length && random() < 0.6) {
          recordFact(tx, { metric: "downloads", userId: null, courseId: fetchable[Math.floor(random() * fetchable.length)], at });
        }
        if (random() < 0.5) {
          const passed = random() < 0.7;
          const courseId = published[Math.floor(random() * published.length)];
          recordQuizAttempt(tx, {
            userId: learner.id,
            quizId: 0,
            attemptId: 0,
            lessonId: null,
            courseId,
            score: passed ? 85 : 40,
            passed,
            attemptNumber: 1,
            at: new Date(at.getTime() + DAY / 24),
          });
        }
      }
    }
  });
}
