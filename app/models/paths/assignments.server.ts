import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { preparedOnce, toSeconds } from "../../../db/prepared";
import {
  courses,
  groupMembers,
  groups,
  learningPaths,
  pathAssignmentPeople,
  pathAssignments,
  pathEnrolments,
  users,
} from "../../../db/tenant";
import { isPathVisible, visiblePaths, visiblePathsPrepared } from "../../access/paths";
import { mayAssign } from "../../access/rules";
import type { Viewer } from "../../access/viewer";
import { whoCannotOpen, type CannotOpen } from "../assignment-access.server";
import { assignmentState, localToday, refusedTargetOrDue, type AssignmentTarget, type DueRule } from "../assignment.server";
import type { PathCompleted } from "../events.server";
import { completionTimes, stepRules } from "./enrolments.server";

/*
 * Learning paths assigned (issue 49, docs/decisions/045-learning-paths.md) exactly as courses are (decision 035):
 * to a person or a group's members, due on a local day or N days after each is assigned or joins; the people
 * enrolled on the path as assigned, those joining the group later too, those leaving kept as history, and each
 * person's row done when the path is. Who may assign is the same rule as for courses (app/access `mayAssign`).
 */

export type PathAssignmentWrite =
  | { ok: true; assignmentId: number; assigned: number; cannotOpen: Array<{ courseId: number; title: string; people: CannotOpen[] }> }
  | { ok: false; status: 400 | 403; field?: string; message: string };

/** The due day of a path assignment's rule for people assigned `today`, in SQL over `path_assignments`. */
const dueOn = (today: string) =>
  sql`case when ${pathAssignments.dueKind} = 'date' then ${pathAssignments.dueDate} else date(${today}, '+' || ${pathAssignments.dueDays} || ' days') end`;

/** A path done and still valid on `today` counts as done for an assignment made now (SQL over `path_enrolments pe`). */
const stillDone = (today: string) => sql`pe.completed_at is not null and (pe.expires_on is null or pe.expires_on >= ${today})`;

/**
 * Adds the people `who` (SQL choosing `user_id`s) to the assignments chosen by `which`: their rows, due by each
 * assignment's rule from `now`, done when the path already is; each enrolled on the path as assigned (someone
 * already on it stays as they were). Someone who had left and comes back is assigned afresh unless they were done.
 */
function addPeople(tx: TenantConn, which: SQL, who: SQL, now: Date) {
  const today = localToday(tx, now);
  const at = toSeconds(now);
  tx.run(sql`insert into ${pathAssignmentPeople} (assignment_id, user_id, assigned_at, due_on, completed_at)
    select ${pathAssignments.id}, m.user_id, ${at}, ${dueOn(today)}, case when ${stillDone(today)} then pe.completed_at end
    from ${pathAssignments} join (${who}) m
    left join path_enrolments pe on pe.path_id = ${pathAssignments.pathId} and pe.user_id = m.user_id
    where ${which}
    on conflict (assignment_id, user_id) do update set
      left_at = null,
      assigned_at = case when path_assignment_people.completed_at is null then excluded.assigned_at else path_assignment_people.assigned_at end,
      due_on = case when path_assignment_people.completed_at is null then excluded.due_on else path_assignment_people.due_on end
    where path_assignment_people.left_at is not null`);
  tx.run(sql`insert into ${pathEnrolments} (path_id, user_id, source, enrolled_at)
    select distinct ${pathAssignments.pathId}, m.user_id, 'assigned', ${at}
    from ${pathAssignments} join (${who}) m where ${which}
    on conflict (path_id, user_id) do nothing`);
}

/** The path's courses each person among `people` could not open, per course (the path does not open them). */
function cannotOpenOnPath(db: TenantConn, viewer: Viewer, pathId: number, people: SQL) {
  const ids = [...new Set(stepRules(db, pathId).flatMap((r) => r.courseIds))];
  return ids.flatMap((courseId) => {
    const course = db.select().from(courses).where(eq(courses.id, courseId)).get();
    if (!course) return [];
    const refused = whoCannotOpen(db, viewer, course, people);
    return refused.length ? [{ courseId, title: course.title, people: refused }] : [];
  });
}

/**
 * Assigns a path to a person or a group, due on a day or N days after each person is assigned. Answers how many
 * were assigned, and for each of the path's courses the people the access policy does not let open it: the
 * assignment is made, but the path never opens those courses for them, and the admin is told who they are.
 */
export function assignPath(
  db: TenantConn,
  viewer: Viewer,
  input: { pathId: number; target: AssignmentTarget; due: DueRule },
  now = new Date(),
): PathAssignmentWrite {
  const { target, due } = input;
  if (!mayAssign(viewer, target.kind === "person" ? { kind: "person" } : { kind: "group", groupId: target.groupId }))
    return { ok: false, status: 403, message: "errors.forbidden" };
  const path = db.select().from(learningPaths).where(eq(learningPaths.id, input.pathId)).get();
  if (!path || !isPathVisible(db, viewer, path)) return { ok: false, status: 400, field: "pathId", message: "paths.assign.errors.path" };
  const refused = refusedTargetOrDue(db, target, due);
  if (refused) return refused;
  const sameTarget = target.kind === "person" ? eq(pathAssignments.userId, target.userId) : eq(pathAssignments.groupId, target.groupId);
  if (
    db
      .select({ id: pathAssignments.id })
      .from(pathAssignments)
      .where(and(eq(pathAssignments.pathId, path.id), sameTarget))
      .get()
  )
    return { ok: false, status: 400, field: "target", message: "assignments.errors.duplicate" };
  const row = db.transaction((tx) => {
    const made = tx
      .insert(pathAssignments)
      .values({
        pathId: path.id,
        target: target.kind,
        userId: target.kind === "person" ? target.userId : null,
        groupId: target.kind === "group" ? target.groupId : null,
        dueKind: due.kind,
        dueDate: due.kind === "date" ? due.date : null,
        dueDays: due.kind === "days" ? due.days : null,
        createdBy: viewer.role === "super_admin" ? null : (viewer.person?.id ?? null),
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    const who =
      target.kind === "person"
        ? sql`select ${target.userId} as user_id`
        : sql`select user_id from ${groupMembers} where group_id = ${target.groupId}`;
    addPeople(tx, sql`${pathAssignments.id} = ${made.id}`, who, now);
    return made;
  });
  const people = sql`(select user_id from path_assignment_people where assignment_id = ${row.id})`;
  const assigned =
    db.select({ n: sql<number>`count(*)` }).from(pathAssignmentPeople).where(eq(pathAssignmentPeople.assignmentId, row.id)).get()?.n ?? 0;
  return { ok: true, assignmentId: row.id, assigned, cannotOpen: cannotOpenOnPath(db, viewer, path.id, people) };
}

/**
 * A path assigned to each of many people on their own (issue 50's bulk action, app/models/people-bulk/), as
 * `assignPath` assigns it to one person — the same rule (`mayAssign`), one assignment a person due on one day, each
 * enrolled on the path as assigned — for a slice of people at once: a row each in one insert, their people's rows
 * and enrolments in one statement each. Someone the path is assigned to on their own already is left as they are
 * (`assignPath` refuses that one as a duplicate). The caller checked the path as `assignPath` does, once.
 */
export function assignPathToPeople(
  db: TenantConn,
  viewer: Viewer,
  { pathId, userIds, dueDate }: { pathId: number; userIds: readonly number[]; dueDate: string },
  now = new Date(),
): { ok: true; made: Array<{ id: number; userId: number }>; already: number[] } | { ok: false } {
  if (!mayAssign(viewer, { kind: "person" })) return { ok: false };
  if (userIds.length === 0) return { ok: true, made: [], already: [] };
  const already = db
    .select({ userId: pathAssignments.userId })
    .from(pathAssignments)
    .where(and(eq(pathAssignments.pathId, pathId), inArray(pathAssignments.userId, [...userIds])))
    .all()
    .map((r) => r.userId!);
  const fresh = userIds.filter((id) => !already.includes(id));
  if (fresh.length === 0) return { ok: true, made: [], already };
  const createdBy = viewer.role === "super_admin" ? null : (viewer.person?.id ?? null);
  const made = db
    .insert(pathAssignments)
    .values(
      fresh.map((userId) => ({
        pathId,
        target: "person" as const,
        userId,
        dueKind: "date" as const,
        dueDate,
        createdBy,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: pathAssignments.id, userId: pathAssignments.userId })
    .all()
    .map((r) => ({ id: r.id, userId: r.userId! }));
  addPeople(
    db,
    sql`${pathAssignments.id} in (select value from json_each(${JSON.stringify(made.map((r) => r.id))})) and m.user_id = ${pathAssignments.userId}`,
    sql`select value as user_id from json_each(${JSON.stringify(fresh)})`,
    now,
  );
  return { ok: true, made, already };
}

/** The paths a viewer may assign, by title (a bulk action's choice). */
export function assignablePaths(db: TenantConn, viewer: Viewer) {
  return db
    .select({ id: learningPaths.id, title: learningPaths.title, published: learningPaths.published })
    .from(learningPaths)
    .where(visiblePaths(viewer))
    .orderBy(asc(learningPaths.title), asc(learningPaths.id))
    .all();
}

/** For a path assignment: its path's courses each of its open people could not open, per course. */
export function cannotOpenOfPathAssignment(db: TenantConn, viewer: Viewer, assignmentId: number) {
  const row = db.select({ pathId: pathAssignments.pathId }).from(pathAssignments).where(eq(pathAssignments.id, assignmentId)).get();
  if (!row) return [];
  return cannotOpenOnPath(
    db,
    viewer,
    row.pathId,
    sql`(select user_id from path_assignment_people where assignment_id = ${assignmentId} and left_at is null)`,
  );
}

/** Takes a path assignment back with its people's rows (their enrolments stay, with what they did); the same rule decides who may. */
export function unassignPath(db: TenantConn, viewer: Viewer, id: number): { ok: true } | { ok: false; status: 403 | 404; message: string } {
  const row = db.select().from(pathAssignments).where(eq(pathAssignments.id, id)).get();
  if (!row) return { ok: false, status: 404, message: "errors.notFound" };
  if (!mayAssign(viewer, row.target === "person" ? { kind: "person" } : { kind: "group", groupId: row.groupId }))
    return { ok: false, status: 403, message: "errors.forbidden" };
  db.delete(pathAssignments).where(eq(pathAssignments.id, id)).run();
  return { ok: true };
}

/** People joined a group: assigned its path assignments now. One indexed read when the group has none. */
export function assignPathsJoined(db: TenantConn, groupId: number, userIds: readonly number[], now = new Date()) {
  if (userIds.length === 0) return;
  const any = preparedOnce(db, "paths.groupHasAssignment", () =>
    db
      .select({ id: pathAssignments.id })
      .from(pathAssignments)
      .where(eq(pathAssignments.groupId, sql.placeholder("groupId")))
      .limit(1)
      .prepare(),
  ).get({ groupId });
  if (!any) return;
  addPeople(db, sql`${pathAssignments.groupId} = ${groupId}`, sql`select value as user_id from json_each(${JSON.stringify(userIds)})`, now);
}

/** People left a group: their rows of its path assignments stay as history, no longer open. */
export function markLeftPaths(db: TenantConn, groupId: number, userIds: readonly number[], now = new Date()) {
  if (userIds.length === 0) return;
  db.run(sql`update ${pathAssignmentPeople} set left_at = ${toSeconds(now)}
    where left_at is null and user_id in (select value from json_each(${JSON.stringify(userIds)}))
    and assignment_id in (select id from ${pathAssignments} where group_id = ${groupId})`);
}

/** Learning event: a path done marks the person's open assignments of it done. */
export function pathAssignmentsDone(tx: TenantConn, e: PathCompleted) {
  tx.run(sql`update ${pathAssignmentPeople} set completed_at = ${toSeconds(e.at)}
    where user_id = ${e.userId} and completed_at is null
    and assignment_id in (select id from ${pathAssignments} where path_id = ${e.pathId})`);
}

/** A path's assignments, each with its target's name and how many of its people are open and done. */
export function pathAssignmentList(db: TenantConn, pathId: number) {
  return db
    .select({
      id: pathAssignments.id,
      target: pathAssignments.target,
      groupName: groups.name,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      dueKind: pathAssignments.dueKind,
      dueDate: pathAssignments.dueDate,
      dueDays: pathAssignments.dueDays,
      people: sql<number>`(select count(*) from path_assignment_people p where p.assignment_id = ${pathAssignments.id} and p.left_at is null)`,
      done: sql<number>`(select count(*) from path_assignment_people p where p.assignment_id = ${pathAssignments.id} and p.left_at is null and p.completed_at is not null)`,
    })
    .from(pathAssignments)
    .leftJoin(groups, eq(groups.id, pathAssignments.groupId))
    .leftJoin(users, eq(users.id, pathAssignments.userId))
    .where(eq(pathAssignments.pathId, pathId))
    .orderBy(asc(pathAssignments.id))
    .all();
}

/**
 * A person's due day on a path they were assigned (the earliest of their open assignments of it, or the latest
 * done), read by their id as their kept pages read (docs/caching.md), with its state; null when not assigned.
 */
export function pathDueFor(
  db: TenantConn,
  userId: number,
  pathId: number,
  { started, now = new Date() }: { started: boolean; now?: Date },
) {
  const row = preparedOnce(db, "paths.dueFor", () =>
    db
      .select({ dueOn: pathAssignmentPeople.dueOn, completedAt: pathAssignmentPeople.completedAt })
      .from(pathAssignmentPeople)
      .innerJoin(pathAssignments, eq(pathAssignments.id, pathAssignmentPeople.assignmentId))
      .where(
        and(
          eq(pathAssignmentPeople.userId, sql.placeholder("userId")),
          eq(pathAssignments.pathId, sql.placeholder("pathId")),
          sql`${pathAssignmentPeople.leftAt} is null`,
        ),
      )
      .orderBy(sql`${pathAssignmentPeople.completedAt} is not null`, asc(pathAssignmentPeople.dueOn))
      .prepare(),
  ).get({ userId, pathId });
  if (!row) return null;
  return { dueOn: row.dueOn, completedAt: row.completedAt, state: assignmentState(row, started, localToday(db, now)) };
}

/**
 * A learner's assigned paths for the home's "Due soon" (issue 49), as its courses are: open ones by due day, then those
 * done within `doneWithinDays`. One prepared read by the person's id (`path_assignment_people_user_idx`) with the
 * paths they still see; nothing more for someone with no path assigned.
 */
export function pathsDueSoon(
  db: TenantConn,
  viewer: Viewer,
  { now = new Date(), doneWithinDays = 14 }: { now?: Date; doneWithinDays?: number } = {},
) {
  const person = viewer.person;
  if (!person) return [];
  const rule = visiblePathsPrepared(viewer);
  const rows = preparedOnce(db, `paths.dueSoon.${rule.key}`, () =>
    db
      .select({
        pathId: pathAssignments.pathId,
        title: learningPaths.title,
        dueOn: pathAssignmentPeople.dueOn,
        completedAt: pathAssignmentPeople.completedAt,
      })
      .from(pathAssignmentPeople)
      .innerJoin(pathAssignments, eq(pathAssignments.id, pathAssignmentPeople.assignmentId))
      .innerJoin(learningPaths, eq(learningPaths.id, pathAssignments.pathId))
      .where(and(eq(pathAssignmentPeople.userId, sql.placeholder("userId")), sql`${pathAssignmentPeople.leftAt} is null`, rule.where))
      .orderBy(asc(pathAssignmentPeople.dueOn))
      .prepare(),
  ).all({ userId: person.id, ...rule.params });
  if (rows.length === 0) return [];
  const today = localToday(db, now);
  const since = new Date(now.getTime() - doneWithinDays * 86_400_000);
  const seen = new Set<number>();
  const ordered = [...rows.filter((r) => !r.completedAt), ...rows.filter((r) => r.completedAt && r.completedAt >= since)];
  // Whether each path is begun: its courses against the person's completions, read once for all of them.
  const completed = completionTimes(db, person.id);
  return ordered.flatMap((r) => {
    if (seen.has(r.pathId)) return [];
    seen.add(r.pathId);
    const started = r.completedAt !== null || stepRules(db, r.pathId).some((s) => s.courseIds.some((c) => completed.has(c)));
    return [{ pathId: r.pathId, title: r.title, dueOn: r.dueOn, completedAt: r.completedAt, state: assignmentState(r, started, today) }];
  });
}
