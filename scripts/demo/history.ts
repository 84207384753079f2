import { asc, eq } from "drizzle-orm";
import { setBookmark } from "../../app/models/bookmarks.server";
import { recordHeartbeat } from "../../app/models/heartbeat.server";
import { completeLesson } from "../../app/models/learning.server";
import { rateCourse } from "../../app/models/ratings.server";
import type { TenantConn } from "../../db/open";
import { courses, lessons, users, type Lesson } from "../../db/tenant";
import { seededRandom } from "./media";

/**
 * A history of learning for the demo: generated learners who signed up over the last `days` days and
 * watched, read and completed lessons, bookmarked and rated courses — recorded through the same model
 * functions as real activity (so points, certificates and analytics react to it as they would to people),
 * at the moments it "happened". Deterministic for a seed; the dates are relative to `now`.
 */
const FIRST = {
  en: [
    "Olivia",
    "Noah",
    "Emma",
    "Liam",
    "Ava",
    "Lucas",
    "Mia",
    "Ethan",
    "Zoe",
    "Omar",
    "Priya",
    "Chen",
    "Sofia",
    "Mateo",
    "Amara",
    "Jonas",
    "Hannah",
    "Kai",
    "Leila",
    "Tom",
  ],
  da: [
    "Freja",
    "William",
    "Ida",
    "Oscar",
    "Emma",
    "Noah",
    "Alma",
    "Carl",
    "Clara",
    "Victor",
    "Sofie",
    "Magnus",
    "Karla",
    "Emil",
    "Agnes",
    "Lucas",
    "Ella",
    "Frederik",
    "Laura",
    "Anton",
  ],
};
const LAST = {
  en: [
    "Smith",
    "Johnson",
    "Brown",
    "Garcia",
    "Miller",
    "Davis",
    "Wilson",
    "Anderson",
    "Taylor",
    "Thomas",
    "Moore",
    "Martin",
    "Lee",
    "Clark",
    "Lewis",
    "Walker",
    "Hall",
    "Young",
    "King",
    "Wright",
  ],
  da: [
    "Nielsen",
    "Jensen",
    "Hansen",
    "Pedersen",
    "Andersen",
    "Christensen",
    "Larsen",
    "Sørensen",
    "Rasmussen",
    "Jørgensen",
    "Petersen",
    "Madsen",
    "Kristensen",
    "Olsen",
    "Thomsen",
    "Christiansen",
    "Poulsen",
    "Johansen",
    "Møller",
    "Mortensen",
  ],
};

const DAY = 86_400_000;

export function seedHistory(
  db: TenantConn,
  {
    seed,
    domain,
    language,
    learners = 200,
    days = 120,
    now = new Date(),
  }: { seed: string; domain: string; language: "en" | "da"; learners?: number; days?: number; now?: Date },
) {
  const rand = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const published = db.select().from(courses).where(eq(courses.published, true)).orderBy(asc(courses.position)).all();
  const courseLessons = new Map<number, Lesson[]>();
  for (const course of published) {
    const rows = db.select().from(lessons).where(eq(lessons.courseId, course.id)).orderBy(asc(lessons.position)).all();
    // Only lessons a person can finish by watching or reading (quiz and SCORM lessons have their own ways).
    const playable = rows.filter((l) => l.kind === "video" || l.kind === "text" || l.kind === "image");
    if (playable.length) courseLessons.set(course.id, playable);
  }
  const watchable = published.filter((c) => courseLessons.has(c.id));
  if (!watchable.length) return { learners: 0 };

  db.transaction((tx) => {
    for (let n = 0; n < learners; n++) {
      const first = pick(FIRST[language]);
      const last = pick(LAST[language]);
      // Sign-ups lean towards recent weeks, as a growing organization's do.
      const joinedDaysAgo = Math.floor(days * Math.pow(rand(), 1.4));
      const joined = new Date(now.getTime() - joinedDaysAgo * DAY - Math.floor(rand() * 8) * 3_600_000);
      const person = tx
        .insert(users)
        .values({
          email: `${ascii(first)}.${ascii(last)}.${n + 1}@${domain}`.toLowerCase(),
          firstName: first,
          lastName: last,
          role: "learner",
          language: rand() < 0.8 ? language : "en",
          createdAt: joined,
          updatedAt: joined,
        })
        .returning({ id: users.id })
        .get();

      // Activity: some learners are keen, most dip in now and then, a few never start.
      const keenness = rand();
      const sessions = keenness < 0.1 ? 0 : Math.floor(1 + keenness * keenness * 14);
      let clock = joined.getTime() + Math.floor(rand() * DAY);
      const progress = new Map<number, number>(); // course → lessons done
      for (let s = 0; s < sessions && clock < now.getTime(); s++) {
        const started = watchable.filter(
          (c) => (progress.get(c.id) ?? 0) > 0 && (progress.get(c.id) ?? 0) < courseLessons.get(c.id)!.length,
        );
        const course = started.length && rand() < 0.7 ? pick(started) : pick(watchable);
        const list = courseLessons.get(course.id)!;
        let done = progress.get(course.id) ?? 0;
        const count = 1 + Math.floor(rand() * 3);
        for (let i = 0; i < count && done < list.length; i++) {
          const lesson = list[done];
          const seconds = lesson.durationSeconds ?? 60;
          const watched = rand() < 0.85 ? seconds : Math.floor(seconds * rand());
          recordHeartbeat(tx, { userId: person.id, lesson, positionSeconds: 0, watchedSeconds: 0, now: new Date(clock) });
          clock += watched * 1000;
          recordHeartbeat(tx, { userId: person.id, lesson, positionSeconds: watched, watchedSeconds: watched, now: new Date(clock) });
          clock += 5_000;
          if (watched >= seconds * 0.9) {
            completeLesson(tx, { userId: person.id, lesson, now: new Date(clock) });
            done += 1;
          } else break;
        }
        progress.set(course.id, done);
        if (rand() < 0.15) setBookmark(tx, person.id, course.id, true, new Date(clock));
        if (done === list.length && rand() < 0.6) rateCourse(tx, person.id, course.id, 3 + Math.floor(rand() * 3));
        // The next session: hours to days later.
        clock += Math.floor((0.2 + rand() * rand() * 10) * DAY);
      }
    }
  });
  return { learners };
}

function ascii(text: string) {
  return text.normalize("NFKD").replace(/ø/g, "o").replace(/æ/g, "ae").replace(/å/g, "a").replace(/[^\w]/g, "");
}
