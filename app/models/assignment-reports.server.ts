import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { assignmentPeople, assignments, courses, groupRules, groups, users } from "../../db/tenant";
import { isVisible } from "../access/courses";
import { mayAssign } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { whoCannotOpen, type CannotOpen } from "./assignment-access.server";
import { assignmentState, getAssignment, localToday, targetOf, type AssignmentState } from "./assignment.server";
import { progressInCycle } from "./completion-cycle.server";
import { PERSON_STATES, type AssignmentPeopleQuery, type PersonState } from "./forms/assignment-people-list";
import { listOrder, listPage } from "./list-page.server";
import { contains } from "../utils/pagination";

/**
 * What the management screens and /api read of assignments (issue 34): the assignments a viewer may manage
 * (app/access/rules.ts `mayAssign`), their people and their states on the organization's clock.
 */

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
  /** The group's members come from its rules (app/models/group-rule-members.server.ts). */
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
  const rows = db
    .select({
      assignment: assignments,
      course: courses,
      groupName: groups.name,
      ruleGroup: sql<number>`exists (select 1 from ${groupRules} r where r.group_id = ${assignments.groupId})`,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
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
  const counts = peopleCounts(
    db,
    rows.map((r) => r.assignment.id),
    today,
  );
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
        ...(counts.get(r.assignment.id) ?? { assigned: 0, done: 0, overdue: 0 }),
      }))
  );
}

/**
 * The assignments' people still in their group, and of them those done and those overdue: one pass over each
 * assignment's people rather than one a figure (three of 50,000 for a course assigned to a big group).
 */
function peopleCounts(db: TenantConn, ids: number[], today: string) {
  const rows = ids.length
    ? db
        .select({
          id: assignmentPeople.assignmentId,
          assigned: count(),
          done: sql<number>`sum(${assignmentPeople.completedAt} is not null)`,
          overdue: sql<number>`sum(${assignmentPeople.completedAt} is null and ${assignmentPeople.dueOn} < ${today})`,
        })
        .from(assignmentPeople)
        .where(
          and(
            sql`${assignmentPeople.assignmentId} in (select value from json_each(${JSON.stringify(ids)}))`,
            isNull(assignmentPeople.leftAt),
          ),
        )
        .groupBy(assignmentPeople.assignmentId)
        .all()
    : [];
  return new Map(rows.map(({ id, ...n }) => [id, n]));
}

/** One assignment as `assignmentSummaries` gives it, or null when there is none the viewer may manage. */
export function assignmentSummary(db: TenantConn, viewer: Viewer, id: number, now = new Date()) {
  const row = getAssignment(db, id);
  if (!row || !mayAssign(viewer, targetOf(row))) return null;
  return assignmentSummaries(db, viewer, { courseId: row.courseId }, now).find((a) => a.id === id) ?? null;
}

export { PERSON_STATES, type PersonState } from "./forms/assignment-people-list";

/**
 * A page of an assignment's people with their states on the organization's clock, optionally searched by name or
 * e-mail address and of one state, sorted by name (the default), due day or state (in `PERSON_STATES`' order; issue
 * 50, app/models/forms/assignment-people-list.ts), with how many of the search's people are in each state; null when
 * there is no such assignment the viewer may manage.
 */
export function assignmentPeoplePage(
  db: TenantConn,
  viewer: Viewer,
  id: number,
  {
    page = 1,
    perPage = 50,
    state,
    q = "",
    sort = "name",
    dir = "asc",
  }: { page?: number; perPage?: number; state?: PersonState; q?: string; sort?: AssignmentPeopleQuery["sort"]; dir?: "asc" | "desc" } = {},
  now = new Date(),
) {
  const row = getAssignment(db, id);
  if (!row || !mayAssign(viewer, targetOf(row))) return null;
  const today = localToday(db, now);
  const started = sql`exists (select 1 from lesson_progress lp where lp.user_id = ${assignmentPeople.userId} and lp.course_id = ${row.courseId} and ${progressInCycle})`;
  const stateSql = sql<PersonState>`case
    when ${assignmentPeople.leftAt} is not null then 'left'
    when ${assignmentPeople.completedAt} is not null then 'done'
    when ${assignmentPeople.dueOn} < ${today} then 'overdue'
    when ${started} then 'in_progress'
    else 'not_started' end`;
  const searched = and(
    eq(assignmentPeople.assignmentId, id),
    q ? contains(sql`(${users.email} || ' ' || ${users.firstName} || ' ' || ${users.lastName})`, q) : undefined,
  );
  // The person's row is read only for a search, or to sort by name.
  const withPerson = <T extends { innerJoin: (...args: never[]) => unknown }>(query: T, needed: boolean) =>
    needed ? (query.innerJoin as (table: typeof users, on: SQL) => T)(users, eq(users.id, assignmentPeople.userId)) : query;
  // How many people are in each state (the screen's filter says so), and of them those asked for: those of a state
  // by their own row in one pass, then only the open ones not yet due asked about their progress (along
  // assignment_people_due_idx), rather than the state grouped by (its expression sorted, and worked out twice a row).
  const byRow = withPerson(
    db
      .select({
        all: count(),
        left: sql<number>`coalesce(sum(${assignmentPeople.leftAt} is not null), 0)`,
        done: sql<number>`coalesce(sum(${assignmentPeople.leftAt} is null and ${assignmentPeople.completedAt} is not null), 0)`,
        overdue: sql<number>`coalesce(sum(${stateIs("overdue", started, today)}), 0)`,
      })
      .from(assignmentPeople)
      .$dynamic(),
    Boolean(q),
  )
    .where(searched)
    .get() ?? { all: 0, left: 0, done: 0, overdue: 0 };
  const inProgress =
    withPerson(db.select({ n: count() }).from(assignmentPeople).$dynamic(), Boolean(q))
      .where(and(searched, stateIs("in_progress", started, today)))
      .get()?.n ?? 0;
  const counts: Record<PersonState, number> = {
    not_started: byRow.all - byRow.left - byRow.done - byRow.overdue - inProgress,
    in_progress: inProgress,
    overdue: byRow.overdue,
    done: byRow.done,
    left: byRow.left,
  };
  const total = state ? counts[state] : PERSON_STATES.reduce((sum, s) => sum + counts[s], 0);
  const stateRank = sql`case ${stateSql} ${sql.join(
    PERSON_STATES.map((s, i) => sql`when ${s} then ${i}`),
    sql` `,
  )} end`;
  const order = listOrder(
    { sort, dir },
    { name: [users.lastName, users.firstName], due: assignmentPeople.dueOn, state: stateRank },
    assignmentPeople.userId,
  );
  const columns = {
    userId: assignmentPeople.userId,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    assignedAt: assignmentPeople.assignedAt,
    dueOn: assignmentPeople.dueOn,
    completedAt: assignmentPeople.completedAt,
    leftAt: assignmentPeople.leftAt,
    state: stateSql,
  };
  const list = listPage(
    { page, perPage },
    {
      count: () => total,
      // The page's people first, by the sort alone, then their rows: SQLite keeps every selected column of every
      // sorted row, so the state (a probe of their progress) would otherwise be worked out for all 50,000 of a group.
      rows: (limit, offset) => {
        const ids = withPerson(
          db.select({ userId: assignmentPeople.userId }).from(assignmentPeople).$dynamic(),
          Boolean(q) || sort === "name",
        )
          .where(and(searched, state ? stateIs(state, started, today) : undefined))
          .orderBy(...order)
          .limit(limit)
          .offset(offset)
          .all()
          .map((r) => r.userId);
        if (ids.length === 0) return [];
        const rows = new Map(
          db
            .select(columns)
            .from(assignmentPeople)
            .innerJoin(users, eq(users.id, assignmentPeople.userId))
            .where(and(eq(assignmentPeople.assignmentId, id), inArray(assignmentPeople.userId, ids)))
            .all()
            .map((r) => [r.userId, r]),
        );
        return ids.map((userId) => rows.get(userId)!);
      },
    },
  );
  return { assignment: row, items: list.rows, total, counts, page: list.page, pages: list.pages };
}

/**
 * The people of one state: left, done and overdue by their own row, so that only the others' progress is probed
 * (what the state's expression says of each, without working it out for everyone).
 */
function stateIs(state: PersonState, started: SQL, today: string): SQL {
  const open = and(isNull(assignmentPeople.leftAt), isNull(assignmentPeople.completedAt))!;
  if (state === "left") return isNotNull(assignmentPeople.leftAt);
  if (state === "done") return and(isNull(assignmentPeople.leftAt), isNotNull(assignmentPeople.completedAt))!;
  if (state === "overdue") return and(open, lt(assignmentPeople.dueOn, today))!;
  return and(open, gte(assignmentPeople.dueOn, today), state === "in_progress" ? started : sql`not ${started}`)!;
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
