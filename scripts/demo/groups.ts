import { asc, eq } from "drizzle-orm";
import { addMembers } from "../../app/models/group-members.server";
import { addRule } from "../../app/models/group-rules.server";
import { attachCourses } from "../../app/models/group-courses.server";
import { createGroup } from "../../app/models/group.server";
import type { TenantConn } from "../../db/open";
import { courses, users } from "../../db/tenant";

/**
 * Groups for a demo organization (issue 14): a rule-based group of every learner, and a hand-picked
 * onboarding group of the learners; each given the first course. A sample import file
 * lies in docs/users-import-sample.csv.
 */
export function seedGroupsDemo(db: TenantConn) {
  const learners = db.select().from(users).where(eq(users.role, "learner")).orderBy(asc(users.id)).all();
  const firstCourse = db.select().from(courses).orderBy(asc(courses.position)).get();
  const everyone = createGroup(db, {
    name: "All learners",
    description: "Everyone who learns here, kept up to date by a rule.",
    ruleMatch: "all",
  });
  addRule(db, everyone.id, { field: "role", operator: "equals", value: "learner" });
  const onboarding = createGroup(db, { name: "Onboarding", description: "New colleagues and the person who guides them." });
  // Hand-picked members; no demo account is made a group admin here, so each demo login keeps its role
  // (make one on the group's page: "Make group admin").
  addMembers(
    db,
    onboarding.id,
    learners.map((l) => l.id),
  );
  if (firstCourse) {
    attachCourses(db, everyone.id, [firstCourse.id]);
    attachCourses(db, onboarding.id, [firstCourse.id]);
  }
}
