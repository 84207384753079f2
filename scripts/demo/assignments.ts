import { asc, eq } from "drizzle-orm";
import { viewerOfMember } from "../../app/access/viewer";
import { createAssignment, type AssignmentTarget, type DueRule } from "../../app/models/assignment.server";
import { membershipsOf } from "../../app/models/group-members.server";
import { completeLesson } from "../../app/models/learning.server";
import { localToday } from "../../app/models/assignment.server";
import { addDays } from "../../app/utils/calendar";
import type { TenantConn } from "../../db/open";
import { courses, groups, lessons, users } from "../../db/tenant";

const DAY = 86_400_000;

/**
 * Compliance assignments in Acme's demo (issue 34), as its admin would have made them, relative to `now`:
 * - "Workplace Safety Essentials" to the rule group "All learners", due five days ago: those of the
 *   generated learners who completed it are done, the others overdue — the demo learner among them;
 * - "Data Protection Basics" to the demo learner in person, due in five days (due soon), and to
 *   "Onboarding", due 30 days after each person joins;
 * - "Welcome to Acme" to "Onboarding" three weeks ago, due 14 days after joining, which the demo learner
 *   completed three days ago (the day of their certificate, scripts/demo/certificates.ts).
 * So the learner's home shows one overdue, one due soon and one done, and the assignments screens real numbers.
 */
export function seedAssignmentsDemo(
  db: TenantConn,
  { adminEmail, learnerEmail, now }: { adminEmail: string; learnerEmail: string; now: Date },
) {
  const person = (email: string) => {
    const row = db.select().from(users).where(eq(users.email, email)).get();
    if (!row) throw new Error(`demo assignments: no ${email}`);
    return row;
  };
  const admin = person(adminEmail);
  const learner = person(learnerEmail);
  const viewer = viewerOfMember({ organization: null, db: db as never, language: "en" }, admin, membershipsOf(db, admin.id));
  const course = (title: string) => {
    const row = db.select().from(courses).where(eq(courses.title, title)).get();
    if (!row) throw new Error(`demo assignments: no course ${title}`);
    return row;
  };
  const group = (name: string) => {
    const row = db.select().from(groups).where(eq(groups.name, name)).get();
    if (!row) throw new Error(`demo assignments: no group ${name}`);
    return row.id;
  };
  const assign = (courseId: number, target: AssignmentTarget, due: DueRule, at: Date) => {
    const made = createAssignment(db, viewer, { courseId, target, due }, at);
    if (!made.ok) throw new Error(`demo assignments: ${made.message}`);
  };
  const today = localToday(db, now);

  // Done: the welcome film, watched to the end three days ago.
  const welcome = course("Welcome to Acme");
  const watched = new Date(now.getTime() - 3 * DAY);
  for (const lesson of db.select().from(lessons).where(eq(lessons.courseId, welcome.id)).orderBy(asc(lessons.position)).all())
    completeLesson(db, { userId: learner.id, lesson, now: watched });
  assign(welcome.id, { kind: "group", groupId: group("Onboarding") }, { kind: "days", days: 14 }, new Date(now.getTime() - 21 * DAY));

  const safety = course("Workplace Safety Essentials");
  assign(
    safety.id,
    { kind: "group", groupId: group("All learners") },
    { kind: "date", date: addDays(today, -5) },
    new Date(now.getTime() - 40 * DAY),
  );

  const privacy = course("Data Protection Basics");
  assign(privacy.id, { kind: "person", userId: learner.id }, { kind: "date", date: addDays(today, 5) }, new Date(now.getTime() - 9 * DAY));
  assign(privacy.id, { kind: "group", groupId: group("Onboarding") }, { kind: "days", days: 30 }, new Date(now.getTime() - 7 * DAY));
}
