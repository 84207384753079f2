import { and, asc, eq, like, sql } from "drizzle-orm";
import { viewerOfMember } from "../../app/access/viewer";
import { createAssignment } from "../../app/models/assignment.server";
import { membershipsOf } from "../../app/models/group-members.server";
import { courseLessons } from "../../app/models/course-lookup.server";
import { completeLesson } from "../../app/models/learning.server";
import { reassignExpiring } from "../../app/models/recertification.server";
import type { TenantDb } from "../../db/open";
import { courseCompletions, courses, users } from "../../db/tenant";

const DAY = 86_400_000;

/**
 * Recertification in the demo (issue 34): Acme's safety course is valid for 12 months and issues
 * certificates. Learners of the earlier cohort (scripts/demo/analytics.ts) who had not completed it did so
 * about a year before `now`: one was assigned it, was re-assigned 30 days before the completion expired and
 * is now overdue with an expired certificate; four hold certificates expiring within 30 days (the two who are
 * assigned the course are re-assigned at the end of the demo, due on their expiry day, not started); one,
 * never assigned, let it expire and may take it again. Deterministic for `now`.
 */
export async function seedRecertificationDemo(db: TenantDb, { courseTitle, now }: { courseTitle: string; now: Date }) {
  const course = db.select().from(courses).where(eq(courses.title, courseTitle)).get();
  const admin = db.select().from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  if (!course || !admin) throw new Error(`demo recertification: ${courseTitle} or an admin is missing`);
  db.update(courses).set({ validityMonths: 12, reassignDaysBefore: 30, allowCertificates: true }).where(eq(courses.id, course.id)).run();
  const lessons = courseLessons(db, course.id);
  // The earlier cohort's learners who joined before the earliest moment below and never completed the course.
  const people = db
    .select({ id: users.id, createdAt: users.createdAt })
    .from(users)
    .where(
      and(
        eq(users.role, "learner"),
        like(users.email, "%@learners.%"),
        sql`${users.createdAt} < ${Math.floor((now.getTime() - 426 * DAY) / 1000)}`,
        sql`not exists (select 1 from ${courseCompletions} cc where cc.user_id = ${users.id} and cc.course_id = ${course.id})`,
      ),
    )
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(6)
    .all();
  if (people.length < 6) throw new Error("demo recertification: too few learners of the earlier cohort");
  const adminViewer = viewerOfMember({ organization: null, db, language: "en" }, admin, membershipsOf(db, admin.id));
  const complete = (userId: number, daysAgo: number) => {
    const at = now.getTime() - daysAgo * DAY;
    // A lesson every few minutes, the last one at `daysAgo`.
    lessons.forEach((lesson, i) => completeLesson(db, { userId, lesson, now: new Date(at - (lessons.length - 1 - i) * 300_000) }));
  };
  const assign = (userId: number, daysAgo: number) => {
    const made = createAssignment(
      db,
      adminViewer,
      { courseId: course.id, target: { kind: "person", userId }, due: { kind: "days", days: 30 } },
      new Date(now.getTime() - daysAgo * DAY),
    );
    if (!made.ok) throw new Error(`demo recertification: ${made.message}`);
  };
  // Oldest first: each completion (and assignment) comes after the person joined.
  const [lapsed, overdue, soon1, soon2, soon3, soon4] = people.map((p) => p.id);
  // Completed 380 days ago: expired about 15 days ago; re-assigned (the job ran 40 days ago, 30 days or fewer
  // before its expiry), due on its last day.
  assign(overdue, 390);
  complete(overdue, 380);
  await reassignExpiring(db, { now: new Date(now.getTime() - 40 * DAY) });
  // Expiring within 30 days: two of them assigned (and so re-assigned now), two not.
  assign(soon1, 370);
  complete(soon1, 360);
  assign(soon2, 350);
  complete(soon2, 345);
  complete(soon3, 352);
  complete(soon4, 340);
  // Never assigned; expired about two months ago.
  complete(lapsed, 425);
  // soon1 and soon2 are re-assigned as of `now` at the end of the demo (scripts/demo.ts).
}
