import { eq } from "drizzle-orm";
import { createAssignment } from "../../app/models/assignment.server";
import { viewerOfMember } from "../../app/access/viewer";
import { membershipsOf } from "../../app/models/group-members.server";
import { addDays, dayIn, DEFAULT_TIME_ZONE } from "../../app/utils/calendar";
import type { Organization } from "../../db/platform";
import type { TenantDb } from "../../db/open";
import { assignments, courses, users } from "../../db/tenant";

/**
 * Reminders by e-mail in the demo (issue 34; docs/decisions/038-reminders.md): when the demo has no
 * assignments of its own yet, the demo learner is assigned two of its compliance courses, one due in two
 * days and one overdue since last week. The server's first reminders run after `npm start` then mails
 * them (one mail for both) and the organization admin the week's digest (from 08:00 in the organization's
 * time zone), written to `<DATA_DIR>/outbox/` without SMTP.
 */
export function seedRemindersDemo(
  db: TenantDb,
  organization: Organization,
  { learnerEmail, adminEmail, soon, overdue, now }: { learnerEmail: string; adminEmail: string; soon: string; overdue: string; now: Date },
) {
  if (db.select({ id: assignments.id }).from(assignments).limit(1).get()) return;
  const admin = db.select().from(users).where(eq(users.email, adminEmail)).get();
  const learner = db.select().from(users).where(eq(users.email, learnerEmail)).get();
  if (!admin || !learner) return;
  const viewer = viewerOfMember({ organization, db, language: "en" }, admin, membershipsOf(db, admin.id));
  const today = dayIn(DEFAULT_TIME_ZONE, now);
  for (const [title, date] of [
    [soon, addDays(today, 2)],
    [overdue, addDays(today, -6)],
  ] as const) {
    const course = db.select().from(courses).where(eq(courses.title, title)).get();
    if (!course) continue;
    createAssignment(db, viewer, { courseId: course.id, target: { kind: "person", userId: learner.id }, due: { kind: "date", date } }, now);
  }
}
