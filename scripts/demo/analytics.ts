import { eq } from "drizzle-orm";
import { recordCourseCompleted, recordFact, recordQuizAttempt, recordWatchTime } from "../../app/models/analytics.server";
import type { TenantConn } from "../../db/open";
import { courseCompletions, courses, lessons, users, watchTimeDaily } from "../../db/tenant";

/**
 * A year of learning for the analytics demo (issue 15): learners who joined over the months, watch time,
 * course completions, quiz attempts and material downloads, growing towards today so every chart, week
 * and comparison shows something. Deterministic (a seeded generator), recorded through the same model
 * functions the event hooks call. The demo learners have no password: they exist to be counted.
 */
export function seedAnalyticsDemo(db: TenantConn, { domain, now = new Date() }: { domain: string; now?: Date }) {
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const published = db.select({ id: courses.id, type: courses.type }).from(courses).where(eq(courses.published, true)).all();
  if (published.length === 0) return;
  const videoLessons = new Map(published.map((c) => [c.id, db.select({ id: lessons.id }).from(lessons).where(eq(lessons.courseId, c.id)).get()?.id ?? 0]));
  const DAY = 86_400_000;
  db.transaction((tx) => {
    for (let i = 0; i < 40; i++) {
      // More people joined recently: the age in days skews towards today.
      const age = Math.floor(365 * random() ** 1.6);
      const joined = new Date(now.getTime() - age * DAY - Math.floor(random() * 12 + 7) * 3_600_000);
      const user = tx
        .insert(users)
        .values({ email: `learner${i + 1}@${domain}`, firstName: `Demo ${i + 1}`, lastName: domain.startsWith("nordlys") ? "Kursist" : "Learner", role: "learner", createdAt: joined, updatedAt: joined })
        .onConflictDoNothing()
        .returning()
        .get();
      if (!user) continue;
      const activeDays = Math.floor(random() * 12) + 2;
      for (let d = 0; d < activeDays; d++) {
        const at = new Date(joined.getTime() + Math.floor(random() * Math.max(1, age)) * DAY + Math.floor(random() * 8) * 3_600_000);
        if (at > now) continue;
        const course = published[Math.floor(random() * published.length)];
        const seconds = Math.floor(300 + random() * 2400);
        const day = at.toISOString().slice(0, 10);
        tx.insert(watchTimeDaily).values({ userId: user.id, day, seconds }).onConflictDoNothing().run();
        recordWatchTime(tx, { userId: user.id, courseId: course.id, lessonId: videoLessons.get(course.id) ?? 0, seconds, at });
        if (random() < 0.35) {
          const inserted = tx.insert(courseCompletions).values({ userId: user.id, courseId: course.id, completedAt: at }).onConflictDoNothing().run();
          if (inserted.changes > 0) recordCourseCompleted(tx, { userId: user.id, courseId: course.id, at });
        }
        if (random() < 0.3) {
          const passed = random() < 0.7;
          recordQuizAttempt(tx, { userId: user.id, quizId: 0, attemptId: 0, lessonId: null, courseId: course.id, score: passed ? 80 : 40, passed, attemptNumber: 1, at });
        }
        if (random() < 0.4) {
          const download = published.find((c) => c.type === "download") ?? course;
          recordFact(tx, { metric: "downloads", userId: null, courseId: download.id, at: new Date(at.getTime() + 600_000) });
        }
      }
    }
  });
}
