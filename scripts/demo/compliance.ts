import { and, asc, eq, ne } from "drizzle-orm";
import { viewerOfMember } from "../../app/access/viewer";
import { createAssignment, localToday, type DueRule } from "../../app/models/assignment.server";
import { addMembers, membershipsOf } from "../../app/models/group-members.server";
import { createGroup } from "../../app/models/group.server";
import { addDays } from "../../app/utils/calendar";
import type { TenantDb } from "../../db/open";
import { assignments, courses, groups, users } from "../../db/tenant";

/**
 * Assignments for the compliance report's demo (issue 34), only when the organization has none yet (the
 * assignment screens' demo may already have made them; then this adds nothing). Two teams of the generated
 * learners (Acme; Nordlys uses its onboarding group) and the "All learners" rule group are assigned the
 * organization's compliance courses, some due weeks ago, some due soon, assigned in the past so the history's completions and progress make them done,
 * in progress, not started and overdue; the demo learner has one of their own.
 */
export function seedComplianceDemo(db: TenantDb, { language, now = new Date() }: { language: "en" | "da"; now?: Date }) {
  if (db.select({ id: assignments.id }).from(assignments).limit(1).get()) return;
  const admin = db.select().from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  if (!admin) return;
  const viewer = viewerOfMember({ organization: null, db, language }, admin, membershipsOf(db, admin.id));
  const learners = db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.role, "learner"), ne(users.email, `learner@${language === "en" ? "acme" : "nordlys"}.test`)))
    .orderBy(asc(users.id))
    .all();
  const demoLearner = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, `learner@${language === "en" ? "acme" : "nordlys"}.test`))
    .get();
  const course = (title: string) => db.select({ id: courses.id }).from(courses).where(eq(courses.title, title)).get()?.id;
  const titles =
    language === "en"
      ? { safety: "Workplace Safety Essentials", data: "Data Protection Basics", welcome: "Welcome to Acme" }
      : { safety: "Førstehjælp på arbejdspladsen", data: "Medarbejderhåndbog", welcome: "Velkommen til Nordlys" };
  // Acme gets two teams of its own; Nordlys keeps its groups as they are (docs/permissions.md's samples name
  // their ids) and its onboarding group stands in for the floor team.
  const onboarding = db.select({ id: groups.id }).from(groups).where(eq(groups.name, "Onboarding")).get()?.id;
  let floor = onboarding;
  let office: number | undefined;
  if (language === "en") {
    floor = createGroup(db, { name: "Warehouse team", description: "" }).id;
    office = createGroup(db, { name: "Office team", description: "" }).id;
    addMembers(
      db,
      floor,
      learners.slice(0, 60).map((l) => l.id),
    );
    addMembers(db, office, [...learners.slice(60, 140).map((l) => l.id), ...(demoLearner ? [demoLearner.id] : [])]);
  }
  const everyone = db.select({ id: groups.id }).from(groups).where(eq(groups.name, "All learners")).get()?.id;
  const today = localToday(db, now);
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const assign = (
    courseId: number | undefined,
    target: { kind: "group"; groupId: number } | { kind: "person"; userId: number },
    due: DueRule,
    at: Date,
  ) => {
    if (courseId !== undefined) createAssignment(db, viewer, { courseId, target, due }, at);
  };
  // Safety for the floor: due ten days ago (overdue unless done); data protection for the office: due in twelve days.
  if (floor) assign(course(titles.safety), { kind: "group", groupId: floor }, { kind: "date", date: addDays(today, -10) }, daysAgo(40));
  if (office) assign(course(titles.data), { kind: "group", groupId: office }, { kind: "date", date: addDays(today, 12) }, daysAgo(20));
  else if (everyone) assign(course(titles.data), { kind: "group", groupId: everyone }, { kind: "days", days: 60 }, daysAgo(45));
  // Everyone: safety within 60 days of being assigned (45 days ago), so due in two weeks (Acme).
  if (everyone && office) assign(course(titles.safety), { kind: "group", groupId: everyone }, { kind: "days", days: 60 }, daysAgo(45));
  if (demoLearner)
    assign(course(titles.welcome), { kind: "person", userId: demoLearner.id }, { kind: "date", date: addDays(today, 5) }, daysAgo(3));
}
