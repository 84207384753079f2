import { and, asc, eq, or, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { toSeconds } from "../../db/prepared";
import { assignmentPeople, assignments, courses, groupMembers, groups, users, type Assignment } from "../../db/tenant";
import { isVisible } from "../access/courses";
import { mayAssign } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { dayIn, isDate } from "../utils/calendar";
import { whoCannotOpen, type CannotOpen } from "./assignment-access.server";
import { renewExpiredAssignees } from "./completion-cycle.server";
import { MAX_DUE_DAYS } from "./forms/assignments";
import { tenantTimeZone } from "./time-zone.server";

/**
 * Compliance assignments (issue 34): "this course, for this person or this group's members, due on a day".
 * An assignment's people are materialized in `assignment_people` (db/tenant.ts) — when it is made, and for
 * one person at a time when they join its group later (by hand, by default groups, SSO, an import or a
 * rule's recomputation: those places call `assignJoined` / `markLeft`,
 * app/models/assignment-membership.server.ts), so nothing is rescanned per request. Due days are local days
 * in the organization's time zone (app/models/time-zone.server.ts `tenantTimeZone`); a person's state is
 * worked out against a clock the caller passes. Who may assign is app/access/rules.ts `mayAssign`; whether
 * the people may open the course is the one access policy, app/access/courses.ts `courseAccess`
 * (app/models/assignment-access.server.ts).
 *
 * This module makes and takes back assignments, and finds the people to assign. A learner's own
 * assignments are app/models/assignment-learner.server.ts; what the management screens and /api read,
 * app/models/assignment-reports.server.ts.
 */

export type DueRule = { kind: "date"; date: string } | { kind: "days"; days: number };
export type AssignmentTarget = { kind: "person"; userId: number } | { kind: "group"; groupId: number };
export type AssignmentState = "not_started" | "in_progress" | "overdue" | "done";

export type AssignmentWrite =
  | { ok: true; assignment: Assignment; assigned: number; cannotOpen: CannotOpen[] }
  | { ok: false; status: 400 | 403 | 404; field?: string; message: string };

/** The state of one person's assignment on the local day `today` (YYYY-MM-DD): due by the end of `dueOn`. */
export function assignmentState(row: { dueOn: string; completedAt: Date | null }, started: boolean, today: string): AssignmentState {
  if (row.completedAt) return "done";
  if (today > row.dueOn) return "overdue";
  return started ? "in_progress" : "not_started";
}

/** The organization's local day at an instant. */
export function localToday(db: TenantConn, now: Date) {
  return dayIn(tenantTimeZone(db), now);
}

export function targetOf(a: Pick<Assignment, "target" | "groupId">) {
  return a.target === "person" ? { kind: "person" as const } : { kind: "group" as const, groupId: a.groupId };
}

/**
 * Recertification (app/models/recertification.server.ts): a completion counts as done for a new assignment
 * only while it has not expired on `today` and is not being renewed; SQL over `course_completions cc`.
 */
export const stillValid = (today: string) => sql`(cc.expires_on is null or cc.expires_on >= ${today}) and cc.renewal_started_at is null`;

/** The due day of `days` rules, in SQL over `assignments`: `today` plus the assignment's days. */
export const dueOnSql = (today: string) =>
  sql`case when ${assignments.dueKind} = 'date' then ${assignments.dueDate} else date(${today}, '+' || ${assignments.dueDays} || ' days') end`;

/**
 * What an assignment names, checked the same way for a course and a learning path: the person or group exists in
 * this organization, and the due rule is a real day or a number of days within bounds. A refusal, or null.
 */
export function refusedTargetOrDue(
  db: TenantConn,
  target: AssignmentTarget,
  due: DueRule,
): { ok: false; status: 400; field: string; message: string } | null {
  if (target.kind === "person" && !db.select({ id: users.id }).from(users).where(eq(users.id, target.userId)).get())
    return { ok: false, status: 400, field: "userId", message: "assignments.errors.person" };
  if (target.kind === "group" && !db.select({ id: groups.id }).from(groups).where(eq(groups.id, target.groupId)).get())
    return { ok: false, status: 400, field: "groupId", message: "assignments.errors.group" };
  if (due.kind === "date" && !isDate(due.date)) return { ok: false, status: 400, field: "dueDate", message: "assignments.errors.dueDate" };
  if (due.kind === "days" && (!Number.isInteger(due.days) || due.days < 0 || due.days > MAX_DUE_DAYS))
    return { ok: false, status: 400, field: "dueDays", message: "assignments.errors.dueDays" };
  return null;
}

/**
 * Assigns a course to a person or a group, due on a day or N days after each person is assigned. The
 * group's current members are assigned now (a course they already completed counts as done), later ones
 * when they join. Returns the people among them the access policy does not let open the course (a draft,
 * a course kept to other groups, a prerequisite, no access to the organization): the assignment is made,
 * but never opens the course for them, and the admin is told who they are.
 */
export function createAssignment(
  db: TenantConn,
  viewer: Viewer,
  input: { courseId: number; target: AssignmentTarget; due: DueRule },
  now = new Date(),
): AssignmentWrite {
  const { target, due } = input;
  if (!mayAssign(viewer, target.kind === "person" ? { kind: "person" } : { kind: "group", groupId: target.groupId }))
    return { ok: false, status: 403, message: "errors.forbidden" };
  const course = db.select().from(courses).where(eq(courses.id, input.courseId)).get();
  // Only a course the assigner sees listed (a group admin does not learn of drafts or others' courses).
  if (!course || !isVisible(db, viewer, course)) return { ok: false, status: 400, field: "courseId", message: "assignments.errors.course" };
  const refused = refusedTargetOrDue(db, target, due);
  if (refused) return refused;
  const sameTarget = target.kind === "person" ? eq(assignments.userId, target.userId) : eq(assignments.groupId, target.groupId);
  if (
    db
      .select({ id: assignments.id })
      .from(assignments)
      .where(and(eq(assignments.courseId, course.id), sameTarget))
      .get()
  )
    return { ok: false, status: 400, field: "courseId", message: "assignments.errors.duplicate" };

  const today = localToday(db, now);
  const assignment = db.transaction((tx) => {
    const row = tx
      .insert(assignments)
      .values({
        courseId: course.id,
        target: target.kind,
        userId: target.kind === "person" ? target.userId : null,
        groupId: target.kind === "group" ? target.groupId : null,
        dueKind: due.kind,
        dueDate: due.kind === "date" ? due.date : null,
        dueDays: due.kind === "days" ? due.days : null,
        // A super-admin managing the organization is no person of it (app/access/viewer.ts `viewerIn`).
        createdBy: viewer.role === "super_admin" ? null : (viewer.person?.id ?? null),
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    const people =
      target.kind === "person"
        ? sql`select ${target.userId} as user_id`
        : sql`select user_id from ${groupMembers} where group_id = ${target.groupId}`;
    tx.run(sql`insert into ${assignmentPeople} (assignment_id, user_id, assigned_at, due_on, completed_at)
      select ${assignments.id}, m.user_id, ${toSeconds(now)}, ${dueOnSql(today)}, cc.completed_at
      from ${assignments} join (${people}) m
      left join course_completions cc on cc.user_id = m.user_id and cc.course_id = ${assignments.courseId} and ${stillValid(today)}
      where ${assignments.id} = ${row.id}
      on conflict (assignment_id, user_id) do nothing`);
    // Recertification: those whose completion has expired take the course again.
    renewExpiredAssignees(tx, sql`ap.assignment_id = ${row.id}`, { today, now });
    return row;
  });
  const assigned = db
    .select({ userId: assignmentPeople.userId })
    .from(assignmentPeople)
    .where(eq(assignmentPeople.assignmentId, assignment.id))
    .all();
  return {
    ok: true,
    assignment,
    assigned: assigned.length,
    cannotOpen: whoCannotOpen(db, viewer, course, sql`(select user_id from assignment_people where assignment_id = ${assignment.id})`),
  };
}

/** Takes an assignment back with its people's rows; the same rule as assigning decides who may. */
export function deleteAssignment(
  db: TenantConn,
  viewer: Viewer,
  id: number,
): { ok: true } | { ok: false; status: 403 | 404; message: string } {
  const row = getAssignment(db, id);
  if (!row) return { ok: false, status: 404, message: "errors.notFound" };
  if (!mayAssign(viewer, targetOf(row))) return { ok: false, status: 403, message: "errors.forbidden" };
  db.delete(assignments).where(eq(assignments.id, id)).run();
  return { ok: true };
}

export function getAssignment(db: TenantConn, id: number) {
  return db.select().from(assignments).where(eq(assignments.id, id)).get();
}

/**
 * People to assign a course to, found by what an admin types: the one whose e-mail it is, else those whose
 * e-mail or name contains it (at most `limit`, by name). Disabled accounts are left out.
 */
export function findPeople(db: TenantConn, text: string, limit = 8) {
  const q = text.trim();
  if (!q) return [];
  const fields = { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName };
  const active = sql`${users.disabledAt} is null`;
  const exact = db
    .select(fields)
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${q})`, active))
    .get();
  if (exact) return [exact];
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: SQL) => sql`${column} like ${pattern} escape '\\'`;
  return db
    .select(fields)
    .from(users)
    .where(
      and(
        active,
        or(
          like(sql`${users.email}`),
          like(sql`${users.firstName}`),
          like(sql`${users.lastName}`),
          like(sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`),
        ),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(limit)
    .all();
}
