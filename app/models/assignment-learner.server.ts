import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { plannedLimit } from "../../db/planned-limit";
import { preparedOnce, toSeconds } from "../../db/prepared";
import { assignmentPeople, assignments, courses } from "../../db/tenant";
import { prerequisiteDone, visibleCoursesPrepared, type Access } from "../access/courses";
import { isSignedIn, mayPreview } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { addDays, dayIn } from "../utils/calendar";
import { assignmentState, localToday, type AssignmentState } from "./assignment.server";
import { progressInCycle } from "./completion-cycle.server";
import { tenantTimeZone } from "./time-zone.server";

/** A learner's own assignments (issue 34): their "Due soon", and the notice on an assigned course's page. */

export interface DueItem {
  assignmentId: number;
  courseId: number;
  title: string;
  dueOn: string;
  assignedAt: Date;
  completedAt: Date | null;
  state: AssignmentState;
  /** What the access policy says of opening the course now (a prerequisite may still be ahead). */
  access: Access;
}

/**
 * The statement behind "Due soon": one person's open assignments and those done lately, with the course,
 * whether they started it and whether its prerequisite is done, in one indexed read
 * (`assignment_people_user_idx`). The visibility rule is the access policy's prepared form
 * (app/access/courses.ts `visibleCoursesPrepared`), so a course the person may not see listed is not read.
 */
function dueSoonStatement(db: TenantConn, viewer: Viewer) {
  const rule = visibleCoursesPrepared(viewer);
  const statement = preparedOnce(db, `assignment.dueSoon.${rule.key}`, () =>
    db
      .select({
        assignmentId: assignmentPeople.assignmentId,
        courseId: courses.id,
        title: courses.title,
        dueOn: assignmentPeople.dueOn,
        assignedAt: assignmentPeople.assignedAt,
        completedAt: assignmentPeople.completedAt,
        started: sql<number>`exists (select 1 from lesson_progress lp where lp.user_id = ${assignmentPeople.userId} and lp.course_id = ${courses.id} and ${progressInCycle})`,
        prerequisiteDone: prerequisiteDone(assignmentPeople.userId),
      })
      .from(assignmentPeople)
      .innerJoin(assignments, eq(assignments.id, assignmentPeople.assignmentId))
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(
        and(
          eq(assignmentPeople.userId, sql.placeholder("userId")),
          sql`${assignmentPeople.leftAt} is null`,
          sql`(${assignmentPeople.completedAt} is null or ${assignmentPeople.completedAt} >= ${sql.placeholder("doneSince")})`,
          rule.where,
        ),
      )
      .orderBy(asc(assignmentPeople.dueOn), asc(assignmentPeople.assignmentId))
      .prepare(),
  );
  return { statement, params: rule.params };
}

/**
 * A learner's "Due soon" (issue 34): their open assignments by due day (overdue first, as theirs are the
 * earliest), then those done within the last `doneWithinDays` days, newest first. A course assigned twice
 * (to them and to a group) shows once, by its earliest open due day. Assignments of a course the visibility
 * rule hides from them are left out, as everywhere else (docs/decisions/031-request-kernel.md): the admin
 * who assigned it was told.
 *
 * The learner's home reads it on every request (scripts/bench): one prepared statement, and for someone
 * with no assignments nothing else (not even the organization's time zone).
 */
export function dueSoon(
  db: TenantConn,
  viewer: Viewer,
  { now = new Date(), doneWithinDays = 14 }: { now?: Date; doneWithinDays?: number } = {},
): DueItem[] {
  const person = viewer.person;
  if (!person || !isSignedIn(viewer)) return [];
  const { statement, params } = dueSoonStatement(db, viewer);
  // Completions a day and a half earlier than the window may still fall in it in the organization's zone.
  const rows = statement.all({ ...params, userId: person.id, doneSince: toSeconds(now) - (doneWithinDays + 2) * 86_400 });
  if (rows.length === 0) return [];
  const zone = tenantTimeZone(db);
  const today = dayIn(zone, now);
  const doneSince = addDays(today, -doneWithinDays);
  const previews = mayPreview(viewer);
  const open: DueItem[] = [];
  const done: DueItem[] = [];
  const seen = new Set<number>();
  // Open rows first (by due day), so a course's earliest open assignment is the one kept.
  const ordered = [...rows.filter((r) => !r.completedAt), ...rows.filter((r) => r.completedAt)];
  for (const r of ordered) {
    if (seen.has(r.courseId)) continue;
    seen.add(r.courseId);
    const item: DueItem = {
      assignmentId: r.assignmentId,
      courseId: r.courseId,
      title: r.title,
      dueOn: r.dueOn,
      assignedAt: r.assignedAt,
      completedAt: r.completedAt,
      state: assignmentState(r, Boolean(r.started), today),
      // The listed course is published and given to them (the rule above): what is left of
      // app/access/courses.ts `courseAccess` is its prerequisite (`prerequisiteDone`, same file).
      access: previews || r.prerequisiteDone ? { allowed: true } : { allowed: false, reason: "prerequisite" },
    };
    if (!r.completedAt) open.push(item);
    else if (dayIn(zone, r.completedAt) >= doneSince) done.push(item);
  }
  done.sort((a, b) => b.completedAt!.getTime() - a.completedAt!.getTime());
  return [...open, ...done];
}

/**
 * The person's assignment of one course, for the notice on its page ("Assigned to you — due …"): their
 * earliest open one, else the one they completed last; null when the course is not assigned to them. One
 * indexed read; the page already found the course visible to them.
 */
export function courseAssignment(db: TenantConn, viewer: Viewer, courseId: number, now = new Date()) {
  const person = viewer.person;
  if (!person || !isSignedIn(viewer)) return null;
  const row = preparedOnce(db, "assignment.ofCourse", () =>
    db
      .select({
        assignmentId: assignmentPeople.assignmentId,
        dueOn: assignmentPeople.dueOn,
        completedAt: assignmentPeople.completedAt,
        started: sql<number>`exists (select 1 from lesson_progress lp where lp.user_id = ${assignmentPeople.userId} and lp.course_id = ${assignments.courseId} and ${progressInCycle})`,
      })
      .from(assignmentPeople)
      .innerJoin(assignments, eq(assignments.id, assignmentPeople.assignmentId))
      .where(
        and(
          eq(assignmentPeople.userId, sql.placeholder("userId")),
          eq(assignments.courseId, sql.placeholder("courseId")),
          sql`${assignmentPeople.leftAt} is null`,
        ),
      )
      .orderBy(sql`${assignmentPeople.completedAt} is not null`, asc(assignmentPeople.dueOn), desc(assignmentPeople.completedAt))
      .limit(plannedLimit(1))
      .prepare(),
  ).get({ userId: person.id, courseId });
  if (!row) return null;
  return { ...row, state: assignmentState(row, Boolean(row.started), localToday(db, now)) };
}
