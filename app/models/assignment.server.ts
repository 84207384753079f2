import { and, asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce, toSeconds } from "../../db/prepared";
import {
  assignmentPeople,
  assignments,
  courses,
  groupMembers,
  groupRules,
  groups,
  users,
  type Assignment,
  type Course,
} from "../../db/tenant";
import {
  courseAccess,
  isVisible,
  mayBeRefused,
  prerequisiteDone,
  visibleCoursesPrepared,
  type Access,
  type AccessDenied,
} from "../access/courses";
import { isSignedIn, mayAssign, mayPreview } from "../access/rules";
import { viewerOfMember, type Viewer } from "../access/viewer";
import { addDays, dayIn, isDate } from "../utils/calendar";
import { MAX_DUE_DAYS } from "./forms/assignments";
import type { CourseCompleted } from "./events.server";
import { tenantTimeZone } from "./time-zone.server";
import { progressInCycle, renewExpiredAssignees } from "./completion-cycle.server";

/**
 * Compliance assignments (issue 34): "this course, for this person or this group's members, due on a day".
 * An assignment's people are materialized in `assignment_people` (db/tenant.ts) — when it is made, and for
 * one person at a time when they join its group later (by hand, by default groups, SSO, an import or a
 * rule's recomputation: app/models/group.server.ts and the other places that add memberships call
 * `assignJoined` / `markLeft`), so nothing is rescanned per request. Due days are local days in the
 * organization's time zone (app/models/time-zone.server.ts `tenantTimeZone`); a person's state is worked out
 * against a clock the caller passes. Who may assign is app/access/rules.ts `mayAssign`; whether the people
 * may open the course is the one access policy, app/access/courses.ts `courseAccess`.
 */

export type DueRule = { kind: "date"; date: string } | { kind: "days"; days: number };
export type AssignmentTarget = { kind: "person"; userId: number } | { kind: "group"; groupId: number };
export type AssignmentState = "not_started" | "in_progress" | "overdue" | "done";

export { MAX_DUE_DAYS } from "./forms/assignments";

/** A person who is assigned a course the access policy does not let them open, and why (an `access.<reason>` message). */
export interface CannotOpen {
  userId: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  reason: AccessDenied;
}

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

function targetOf(a: Pick<Assignment, "target" | "groupId">) {
  return a.target === "person" ? { kind: "person" as const } : { kind: "group" as const, groupId: a.groupId };
}

/**
 * Recertification (app/models/recertification.server.ts): a completion counts as done for a new assignment
 * only while it has not expired on `today` and is not being renewed; SQL over `course_completions cc`.
 */
const stillValid = (today: string) => sql`(cc.expires_on is null or cc.expires_on >= ${today}) and cc.renewal_started_at is null`;

/** The due day of `days` rules, in SQL over `assignments`: `today` plus the assignment's days. */
const dueOnSql = (today: string) =>
  sql`case when ${assignments.dueKind} = 'date' then ${assignments.dueDate} else date(${today}, '+' || ${assignments.dueDays} || ' days') end`;

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
  if (target.kind === "person" && !db.select({ id: users.id }).from(users).where(eq(users.id, target.userId)).get())
    return { ok: false, status: 400, field: "userId", message: "assignments.errors.person" };
  if (target.kind === "group" && !db.select({ id: groups.id }).from(groups).where(eq(groups.id, target.groupId)).get())
    return { ok: false, status: 400, field: "groupId", message: "assignments.errors.group" };
  if (due.kind === "date" && !isDate(due.date)) return { ok: false, status: 400, field: "dueDate", message: "assignments.errors.dueDate" };
  if (due.kind === "days" && (!Number.isInteger(due.days) || due.days < 0 || due.days > MAX_DUE_DAYS))
    return { ok: false, status: 400, field: "dueDays", message: "assignments.errors.dueDays" };
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

/**
 * Of these people, those the access policy does not let open the course, each asked as the viewer they are
 * (app/access/viewer.ts `viewerOfMember`, their role and groups as they are now), by name. `people` is a list
 * of ids or SQL choosing `user_id`s (an assignment's open rows: read through their index, not a 10,000-id list).
 */
export function whoCannotOpen(
  db: TenantConn,
  base: Pick<Viewer, "organization" | "db" | "language">,
  course: Course,
  people: number[] | SQL,
) {
  const out: CannotOpen[] = [];
  if (Array.isArray(people) && people.length === 0) return out;
  const listed = Array.isArray(people) ? sql`(select value from json_each(${JSON.stringify(people)}))` : people;
  // Only those the access policy might refuse are read and asked (`mayBeRefused`), not 10,000 people;
  // `courseAccess` decides for them.
  const chosen = sql`(select id from users where users.id in ${listed} and ${mayBeRefused(course)})`;
  const memberships = new Map<number, { groupId: number; isAdmin: boolean }[]>();
  for (const m of db
    .select({ userId: groupMembers.userId, groupId: groupMembers.groupId, isAdmin: groupMembers.isAdmin })
    .from(groupMembers)
    .where(sql`${groupMembers.userId} in ${chosen}`)
    .all()) {
    const list = memberships.get(m.userId);
    if (list) list.push({ groupId: m.groupId, isAdmin: m.isAdmin });
    else memberships.set(m.userId, [{ groupId: m.groupId, isAdmin: m.isAdmin }]);
  }
  for (const person of db
    .select()
    .from(users)
    .where(sql`${users.id} in ${chosen}`)
    .all()) {
    const access = courseAccess(db, viewerOfMember(base, person, memberships.get(person.id) ?? []), course);
    if (!access.allowed)
      out.push({ userId: person.id, email: person.email, firstName: person.firstName, lastName: person.lastName, reason: access.reason });
  }
  // By name, as the screen lists them (only those refused are sorted).
  const key = (p: CannotOpen) => [p.lastName ?? "", p.firstName ?? ""] as const;
  return out.sort((a, b) => {
    const [al, af] = key(a);
    const [bl, bf] = key(b);
    return al < bl ? -1 : al > bl ? 1 : af < bf ? -1 : af > bf ? 1 : a.userId - b.userId;
  });
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
 * People joined a group (by hand, a default group, SSO, an import, or a rule's recomputation): each is
 * assigned the group's assignments now, due N days from today for relative rules. Someone who had left
 * and comes back is assigned afresh unless they were done. Costs one indexed read when the group has no
 * assignments, which is the common case.
 */
export function assignJoined(db: TenantConn, groupId: number, userIds: readonly number[], now = new Date()) {
  if (userIds.length === 0) return;
  const any = preparedOnce(db, "assignment.groupHasAny", () =>
    db
      .select({ id: assignments.id })
      .from(assignments)
      .where(eq(assignments.groupId, sql.placeholder("groupId")))
      .limit(1)
      .prepare(),
  ).get({ groupId });
  if (!any) return;
  const today = localToday(db, now);
  const at = toSeconds(now);
  db.run(sql`insert into ${assignmentPeople} (assignment_id, user_id, assigned_at, due_on, completed_at)
    select ${assignments.id}, j.value, ${at}, ${dueOnSql(today)}, cc.completed_at
    from ${assignments} join json_each(${JSON.stringify(userIds)}) j
    left join course_completions cc on cc.user_id = j.value and cc.course_id = ${assignments.courseId} and ${stillValid(today)}
    where ${assignments.groupId} = ${groupId}
    on conflict (assignment_id, user_id) do update set
      left_at = null,
      assigned_at = case when assignment_people.completed_at is null then excluded.assigned_at else assignment_people.assigned_at end,
      due_on = case when assignment_people.completed_at is null then excluded.due_on else assignment_people.due_on end
    where assignment_people.left_at is not null`);
  // Recertification: those whose completion has expired take the course again.
  renewExpiredAssignees(
    db,
    sql`ap.assignment_id in (select id from ${assignments} where group_id = ${groupId}) and ap.user_id in (select value from json_each(${JSON.stringify(userIds)}))`,
    { today, now },
  );
}

/** People left a group: their rows of its assignments stay as history, no longer open. */
export function markLeft(db: TenantConn, groupId: number, userIds: readonly number[], now = new Date()) {
  if (userIds.length === 0) return;
  db.run(sql`update ${assignmentPeople} set left_at = ${toSeconds(now)}
    where left_at is null and user_id in (select value from json_each(${JSON.stringify(userIds)}))
    and assignment_id in (select id from ${assignments} where group_id = ${groupId})`);
}

/** Learning event (app/models/subscribers.server.ts): completing a course marks its open assignments done. */
export function assignmentsForCourseCompleted(tx: TenantConn, e: CourseCompleted) {
  tx.run(sql`update ${assignmentPeople} set completed_at = ${toSeconds(e.at)}
    where user_id = ${e.userId} and completed_at is null
    and assignment_id in (select id from ${assignments} where course_id = ${e.courseId})`);
}

export interface PersonAssignment {
  assignmentId: number;
  userId: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  assignedAt: Date;
  dueOn: string;
  completedAt: Date | null;
  leftAt: Date | null;
  state: AssignmentState;
}

/**
 * An assignment's people with their states on the clock `now` (those who left included, marked), for whoever
 * may manage it; null when there is no such assignment or the viewer may not see it.
 */
export function assignmentPeopleOf(db: TenantConn, viewer: Viewer, id: number, now = new Date()): PersonAssignment[] | null {
  const row = getAssignment(db, id);
  if (!row || !mayAssign(viewer, targetOf(row))) return null;
  const today = localToday(db, now);
  return db
    .select({
      assignmentId: assignmentPeople.assignmentId,
      userId: assignmentPeople.userId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      assignedAt: assignmentPeople.assignedAt,
      dueOn: assignmentPeople.dueOn,
      completedAt: assignmentPeople.completedAt,
      leftAt: assignmentPeople.leftAt,
      started: sql<number>`exists (select 1 from lesson_progress lp where lp.user_id = ${assignmentPeople.userId} and lp.course_id = ${row.courseId} and ${progressInCycle})`,
    })
    .from(assignmentPeople)
    .innerJoin(users, eq(users.id, assignmentPeople.userId))
    .where(eq(assignmentPeople.assignmentId, id))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .all()
    .map(({ started, ...p }) => ({ ...p, state: assignmentState(p, Boolean(started), today) }));
}

/** The assignments a viewer may manage (all for the organization's admins, their groups' for a group admin). */
export function listAssignments(db: TenantConn, viewer: Viewer, { courseId }: { courseId?: number } = {}) {
  const rows = db
    .select({ assignment: assignments, courseTitle: courses.title, groupName: groups.name, userEmail: users.email })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(groups, eq(groups.id, assignments.groupId))
    .leftJoin(users, eq(users.id, assignments.userId))
    .where(courseId === undefined ? undefined : eq(assignments.courseId, courseId))
    .orderBy(asc(courses.title), asc(assignments.id))
    .all();
  return rows.filter((r) => mayAssign(viewer, targetOf(r.assignment)));
}

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
      .limit(1)
      .prepare(),
  ).get({ userId: person.id, courseId });
  if (!row) return null;
  return { ...row, state: assignmentState(row, Boolean(row.started), localToday(db, now)) };
}

// ——— What the management screens and /api read (issue 34) ———

export interface AssignmentSummary {
  id: number;
  courseId: number;
  courseTitle: string;
  target: "person" | "group";
  userId: number | null;
  groupId: number | null;
  /** The assigned person, for `target = person`. */
  person: { email: string; firstName: string | null; lastName: string | null } | null;
  /** The group's name; null for a person, or for a group deleted since (its people keep their rows). */
  groupName: string | null;
  /** The group's members come from its rules (app/models/group.server.ts). */
  ruleGroup: boolean;
  dueKind: "date" | "days";
  dueDate: string | null;
  dueDays: number | null;
  createdAt: Date;
  /** People assigned now (those who left the group are history, not counted). */
  assigned: number;
  done: number;
  overdue: number;
}

/**
 * The assignments a viewer may manage (app/access/rules.ts `mayAssign`) of the courses they see listed, with their target's name and
 * their people counted on the organization's clock: assigned (still in the group), done, and overdue.
 * Optionally of one course, one group or one assigned person.
 */
export function assignmentSummaries(
  db: TenantConn,
  viewer: Viewer,
  { courseId, groupId, userId }: { courseId?: number; groupId?: number; userId?: number } = {},
  now = new Date(),
): AssignmentSummary[] {
  const today = localToday(db, now);
  const people = (condition: SQL) =>
    sql<number>`(select count(*) from ${assignmentPeople} ap where ap.assignment_id = ${assignments.id} and ap.left_at is null and ${condition})`;
  const rows = db
    .select({
      assignment: assignments,
      course: courses,
      groupName: groups.name,
      ruleGroup: sql<number>`exists (select 1 from ${groupRules} r where r.group_id = ${assignments.groupId})`,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      assigned: people(sql`1`),
      done: people(sql`ap.completed_at is not null`),
      overdue: people(sql`ap.completed_at is null and ap.due_on < ${today}`),
    })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(groups, eq(groups.id, assignments.groupId))
    .leftJoin(users, eq(users.id, assignments.userId))
    .where(
      and(
        courseId === undefined ? undefined : eq(assignments.courseId, courseId),
        groupId === undefined ? undefined : eq(assignments.groupId, groupId),
        userId === undefined ? undefined : eq(assignments.userId, userId),
      ),
    )
    .orderBy(asc(courses.title), asc(assignments.id))
    .all();
  return (
    rows
      // As in assigning: only a course the viewer sees listed (a group admin learns nothing of drafts or other groups' courses).
      .filter((r) => mayAssign(viewer, targetOf(r.assignment)) && isVisible(db, viewer, r.course))
      .map((r) => ({
        id: r.assignment.id,
        courseId: r.assignment.courseId,
        courseTitle: r.course.title,
        target: r.assignment.target,
        userId: r.assignment.userId,
        groupId: r.assignment.groupId,
        person: r.email ? { email: r.email, firstName: r.firstName, lastName: r.lastName } : null,
        groupName: r.groupName,
        ruleGroup: Boolean(r.ruleGroup),
        dueKind: r.assignment.dueKind,
        dueDate: r.assignment.dueDate,
        dueDays: r.assignment.dueDays,
        createdAt: r.assignment.createdAt,
        assigned: r.assigned,
        done: r.done,
        overdue: r.overdue,
      }))
  );
}

/** One assignment as `assignmentSummaries` gives it, or null when there is none the viewer may manage. */
export function assignmentSummary(db: TenantConn, viewer: Viewer, id: number, now = new Date()) {
  const row = getAssignment(db, id);
  if (!row || !mayAssign(viewer, targetOf(row))) return null;
  return assignmentSummaries(db, viewer, { courseId: row.courseId }, now).find((a) => a.id === id) ?? null;
}

/** Where a person stands with an assignment, and "left" for someone no longer in its group. */
export const PERSON_STATES = ["not_started", "in_progress", "overdue", "done", "left"] as const;
export type PersonState = (typeof PERSON_STATES)[number];

/**
 * A page of an assignment's people with their states on the organization's clock (those who left the group
 * last, as `left`), optionally of one state; null when there is no such assignment the viewer may manage.
 */
export function assignmentPeoplePage(
  db: TenantConn,
  viewer: Viewer,
  id: number,
  { page = 1, perPage = 50, state }: { page?: number; perPage?: number; state?: PersonState } = {},
  now = new Date(),
) {
  const row = getAssignment(db, id);
  if (!row || !mayAssign(viewer, targetOf(row))) return null;
  const today = localToday(db, now);
  const stateSql = sql<PersonState>`case
    when ${assignmentPeople.leftAt} is not null then 'left'
    when ${assignmentPeople.completedAt} is not null then 'done'
    when ${assignmentPeople.dueOn} < ${today} then 'overdue'
    when exists (select 1 from lesson_progress lp where lp.user_id = ${assignmentPeople.userId} and lp.course_id = ${row.courseId} and ${progressInCycle}) then 'in_progress'
    else 'not_started' end`;
  const where = and(eq(assignmentPeople.assignmentId, id), state ? sql`${stateSql} = ${state}` : undefined);
  // How many people are in each state (the screen's filter says so), and of them those asked for.
  const counts = Object.fromEntries(PERSON_STATES.map((s) => [s, 0])) as Record<PersonState, number>;
  for (const r of db
    .select({ state: stateSql, n: count() })
    .from(assignmentPeople)
    .where(eq(assignmentPeople.assignmentId, id))
    .groupBy(stateSql)
    .all())
    counts[r.state] = r.n;
  const total = state ? counts[state] : PERSON_STATES.reduce((sum, s) => sum + counts[s], 0);
  const items = db
    .select({
      userId: assignmentPeople.userId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      assignedAt: assignmentPeople.assignedAt,
      dueOn: assignmentPeople.dueOn,
      completedAt: assignmentPeople.completedAt,
      leftAt: assignmentPeople.leftAt,
      state: stateSql,
    })
    .from(assignmentPeople)
    .innerJoin(users, eq(users.id, assignmentPeople.userId))
    .where(where)
    .orderBy(sql`${assignmentPeople.leftAt} is not null`, asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  return { assignment: row, items, total, counts };
}

/**
 * Of an assignment's open people (still in its group, not done), those the access policy does not let open
 * its course, and why: what the management screen names under the assignment.
 */
export function cannotOpenOf(db: TenantConn, viewer: Viewer, id: number): CannotOpen[] {
  const row = getAssignment(db, id);
  if (!row || !mayAssign(viewer, targetOf(row))) return [];
  const course = db.select().from(courses).where(eq(courses.id, row.courseId)).get();
  if (!course) return [];
  return whoCannotOpen(
    db,
    viewer,
    course,
    sql`(select user_id from assignment_people where assignment_id = ${id} and left_at is null and completed_at is null)`,
  );
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
