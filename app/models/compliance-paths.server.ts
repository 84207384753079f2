import { sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { addDays } from "../utils/calendar";
import { EXPIRING_WITHIN_DAYS, type ComplianceColumn, type ComplianceQuery } from "../utils/compliance-query";
import { localToday } from "./assignment.server";
import { progressInCycle } from "./completion-cycle.server";
import {
  complianceStateOf,
  dueAndNameFilters,
  type ComplianceCounts,
  type ComplianceScope,
  type CompliancePerson,
} from "./compliance.server";

/**
 * Learning paths in the compliance report (issue 49; docs/decisions/045-learning-paths.md): per path, how many
 * people are assigned it, done, in progress, not started, overdue and expiring within 30 days, and the people
 * behind each number, by the same rules as a course's (app/models/compliance.server.ts): a person counts while
 * one of their assignment rows of the path is current; assigned a path twice, they count once, done when every
 * current row is done, otherwise due on the earliest open row's day; in progress with any lesson progress in
 * a course of the path (in its current cycle); expiring when their completion of the path
 * (`path_enrolments.expires_on`, recertification) ends within 30 days.
 *
 * Read from the assignments themselves rather than from counters kept by triggers as the courses' are: an
 * organization has few paths, and a path's rows are found by its index. The bench's "compliance report with
 * paths" row measures it over 10,000 people assigned a path.
 */

export interface PathCounts extends ComplianceCounts {
  path_id: number;
  title: string;
}

const idList = (ids: readonly number[]) => JSON.stringify(ids);

/** The current rows of `path_assignment_people pp` (joined to `path_assignments pa`) of the scope's people. */
function currentRows(scope: ComplianceScope, { groupId, pathId }: { groupId?: number; pathId?: number }) {
  const where: SQL[] = [sql`pp.left_at is null`];
  const members = (ids: readonly number[]) =>
    sql`pp.user_id in (select user_id from group_members where group_id in (select value from json_each(${idList(ids)})))`;
  if (scope.kind === "groups") where.push(members(scope.groupIds));
  if (groupId !== undefined) where.push(members([groupId]));
  if (pathId !== undefined) where.push(sql`pa.path_id = ${pathId}`);
  return sql.join(where, sql` and `);
}

/**
 * One row per person and path assigned (user_id, path_id, done, due_on, completed_at, expires_on), as SQL to
 * select from: the people of the scope, narrowed to a group's current members and to a path.
 */
function assignedRows(scope: ComplianceScope, filters: { groupId?: number; pathId?: number }) {
  return sql`select r.*, pe.expires_on
    from (select pp.user_id, pa.path_id, min(pp.completed_at is not null) as done,
        coalesce(min(case when pp.completed_at is null then pp.due_on end), max(pp.due_on)) as due_on,
        max(pp.completed_at) as completed_at
      from path_assignment_people pp join path_assignments pa on pa.id = pp.assignment_id
      where ${currentRows(scope, filters)}
      group by pa.path_id, pp.user_id) r
    left join path_enrolments pe on pe.path_id = r.path_id and pe.user_id = r.user_id`;
}

/**
 * Whether the person of row `k` has begun a course of its path (lesson progress in its current cycle), as SQL.
 * Asked only where a state needs it (open and not overdue) or for the rows of a page, never of every row.
 */
const startedOf = sql`exists (select 1 from path_steps ps join path_step_courses psc on psc.step_id = ps.id
  join lesson_progress lp on lp.user_id = k.user_id and lp.course_id = psc.course_id
  where ps.path_id = k.path_id and ${progressInCycle})`;

/** The report's rows per path (by title), for the scope, narrowed to a group's current members. */
export function pathComplianceCounts(db: TenantConn, scope: ComplianceScope, groupId?: number, now = new Date()): PathCounts[] {
  if (scope.kind === "groups" && scope.groupIds.length === 0) return [];
  const today = localToday(db, now);
  const until = addDays(today, EXPIRING_WITHIN_DAYS);
  // CASE asks `startedOf` only of the open rows not yet due.
  const rows = db.all<PathCounts & { open: number }>(sql`select k.path_id, p.title, count(*) as assigned,
      coalesce(sum(k.done), 0) as done,
      coalesce(sum(case when not k.done and k.due_on >= ${today} then 1 else 0 end), 0) as open,
      coalesce(sum(case when not k.done and k.due_on >= ${today} then ${startedOf} else 0 end), 0) as in_progress,
      coalesce(sum(not k.done and k.due_on < ${today}), 0) as overdue,
      coalesce(sum(k.expires_on between ${today} and ${until}), 0) as expiring
    from (${assignedRows(scope, { groupId })}) k join learning_paths p on p.id = k.path_id
    group by k.path_id order by p.title, k.path_id`);
  return rows.map(({ open, ...r }) => ({ ...r, not_started: open - r.in_progress }));
}

/** What a column's number counts, as a condition on the rows of `assignedRows`. */
function stateWhere(state: ComplianceColumn, today: string, until: string): SQL {
  const where: Record<ComplianceColumn, SQL> = {
    assigned: sql`1`,
    done: sql`k.done = 1`,
    overdue: sql`k.done = 0 and k.due_on < ${today}`,
    in_progress: sql`k.done = 0 and k.due_on >= ${today} and ${startedOf}`,
    not_started: sql`k.done = 0 and k.due_on >= ${today} and not ${startedOf}`,
    expiring: sql`k.expires_on between ${today} and ${until}`,
  };
  return where[state];
}

type PathPersonRow = {
  user_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  path_id: number;
  path_title: string;
  done: number;
  due_on: string;
  started: number;
  completed_at: number | null;
  expires_on: string | null;
};

/**
 * The people behind a path's number (`query.pathId`), with the people list's filters, overdue first; a page at a
 * time, or all of them (`perPage` null: the CSV download). Each is a CompliancePerson naming the path.
 */
export function pathCompliancePeople(
  db: TenantConn,
  scope: ComplianceScope,
  query: Omit<ComplianceQuery, "page" | "perPage"> & { pathId: number; page?: number; perPage?: number | null },
  now = new Date(),
) {
  const today = localToday(db, now);
  if (scope.kind === "groups" && scope.groupIds.length === 0) return { today, total: 0, people: [] as CompliancePerson[] };
  const until = addDays(today, EXPIRING_WITHIN_DAYS);
  const where: SQL[] = [stateWhere(query.state, today, until), ...dueAndNameFilters(query)];
  const matching = sql`select k.* from (${assignedRows(scope, { groupId: query.groupId, pathId: query.pathId })}) k
    where ${sql.join(where, sql` and `)}`;
  const perPage = query.perPage ?? null;
  // The page is cut first (`limit -1`: all, for the CSV), counting every match on the way (one pass over the
  // assignments, not one for the count and one for the page); then its people's names and whether they began.
  const window = perPage === null ? sql`limit -1` : sql`limit ${perPage} offset ${((query.page ?? 1) - 1) * perPage}`;
  const rows = db.all<PathPersonRow & { total: number }>(sql`select k.user_id, u.email, u.first_name, u.last_name, k.path_id,
      p.title as path_title, k.done, k.due_on, ${startedOf} as started, k.completed_at, k.expires_on, k.total
    from (select m.*, count(*) over () as total from (${matching}) m order by m.done, m.due_on, m.user_id ${window}) k
    join users u on u.id = k.user_id join learning_paths p on p.id = k.path_id
    order by k.done, k.due_on, k.user_id`);
  // A page past the last has no row to carry the count.
  const total = rows[0]?.total ?? db.get<{ n: number }>(sql`select count(*) as n from (${matching})`)?.n ?? 0;
  const people = rows.map(
    (r): CompliancePerson => ({
      user_id: r.user_id,
      email: r.email,
      first_name: r.first_name,
      last_name: r.last_name,
      course_id: null,
      course_title: null,
      path_id: r.path_id,
      path_title: r.path_title,
      state: complianceStateOf({ done: r.done, dueOn: r.due_on, started: r.started }, today),
      due_on: r.due_on,
      started: Boolean(r.started),
      completed_at: r.completed_at === null ? null : new Date(r.completed_at * 1000),
      expires_on: r.expires_on,
    }),
  );
  return { today, total, people };
}

/** The paths anyone in scope is assigned (the filters' choices), by title. */
export function assignedPathOptions(db: TenantConn, scope: ComplianceScope) {
  if (scope.kind === "groups" && scope.groupIds.length === 0) return [];
  return db.all<{ id: number; title: string }>(sql`select p.id, p.title from learning_paths p
    where p.id in (select pa.path_id from path_assignment_people pp join path_assignments pa on pa.id = pp.assignment_id
      where ${currentRows(scope, {})}) order by p.title, p.id`);
}

export function pathExists(db: TenantConn, pathId: number) {
  return Boolean(db.get(sql`select 1 as found from learning_paths where id = ${pathId}`));
}
