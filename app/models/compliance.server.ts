import { progressInCycle } from "./completion-cycle.server";
import { sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { complianceReach } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { addDays } from "../utils/calendar";
import {
  COMPLIANCE_COLUMNS,
  EXPIRING_WITHIN_DAYS,
  type ComplianceColumn,
  type ComplianceQuery,
  type ComplianceState,
} from "../utils/compliance-query";
import { localToday } from "./assignment.server";

/**
 * The compliance report (issue 34; docs/decisions/037-compliance-report.md): per course and per group, how
 * many people are assigned, done, in progress, not started, overdue and expiring within 30 days, and the
 * people behind each number.
 *
 * **Who counts.** A person is assigned a course while at least one of their assignment rows of it is current
 * (no `left_at`): their own assignment, one through a group they are still a member of, or one through a
 * group since deleted. Someone who leaves a group keeps their rows as history (app/models/assignment-membership.server.ts
 * `markLeft`) but is no longer counted through it; if they are still assigned the course another way, they
 * count once, through that. A person assigned one course twice counts once: done when every current row is
 * done, otherwise due on the earliest open row's day. Per course the numbers are people; per group they are
 * the group's **current members** and the courses each is assigned (however they were assigned it), so a
 * team's row says how compliant the team is now; a person in two groups counts in both.
 *
 * **States** are worked out on the organization's local day (`localToday`), the assignment model's
 * `assignmentState`: done; overdue once the due day is over; otherwise in progress with any lesson progress in
 * the course, else not started. **Expiring**: assigned people whose completion expires from today to
 * 30 days ahead, whatever their state (`compliance_people.expires_on`; none expire until recertification
 * gives completions an expiry, so the column is null for now and the counts 0: `completionExpiresOnSql`).
 *
 * **Speed.** Nothing here scans assignments: triggers (migration `compliance_triggers`) keep one row per
 * person and course assigned (`compliance_people`), its totals per group and course (`compliance_totals`) and
 * its counters by group, due day, course and started (`compliance_counts`, db/tenant.ts) current on every
 * write, so a report reads one totals row per group and course and the counters of days already past due. A group admin of several groups gets their counters added up, less the people the groups
 * share (at least the admin, a member of each); only when thousands are shared are their people's rows
 * counted, each person once.
 */

/** Whose people a report covers: the organization, or the current members of some groups. */
export type ComplianceScope = { kind: "organization" } | { kind: "groups"; groupIds: readonly number[] };

/** The scope of what the viewer may read of the report, or null when they may not read it (app/access/rules.ts). */
export function complianceScope(viewer: Viewer): ComplianceScope | null {
  const reach = complianceReach(viewer);
  if (reach === false) return null;
  return reach === null ? { kind: "organization" } : { kind: "groups", groupIds: [...reach] };
}

export type ComplianceCounts = Record<ComplianceColumn, number>;
export interface CourseCounts extends ComplianceCounts {
  course_id: number;
  title: string;
}
export interface GroupCounts extends ComplianceCounts {
  group_id: number;
  name: string;
}

export interface ComplianceReport {
  /** The organization's local day the states are worked out on, and the last day "expiring" reaches. */
  today: string;
  expiringUntil: string;
  totals: ComplianceCounts;
  courses: CourseCounts[];
  groups: GroupCounts[];
}

export const emptyCounts = (): ComplianceCounts => Object.fromEntries(COMPLIANCE_COLUMNS.map((c) => [c, 0])) as ComplianceCounts;

/** The state of a person's assignment of a course on `today` (as app/models/assignment.server.ts `assignmentState`). */
export function complianceStateOf(
  row: { done: boolean | number; dueOn: string; started: boolean | number },
  today: string,
): ComplianceState {
  if (row.done) return "done";
  if (today > row.dueOn) return "overdue";
  return row.started ? "in_progress" : "not_started";
}

/** The columns as sums over `k` (compliance_counts with weight `n`, or compliance_people with weight 1). */
function sums(weight: SQL, today: string, until: string) {
  return sql`coalesce(sum(${weight}), 0) as assigned,
    coalesce(sum(case when k.done then ${weight} else 0 end), 0) as done,
    coalesce(sum(case when not k.done and k.due_on >= ${today} and k.started then ${weight} else 0 end), 0) as in_progress,
    coalesce(sum(case when not k.done and k.due_on >= ${today} and not k.started then ${weight} else 0 end), 0) as not_started,
    coalesce(sum(case when not k.done and k.due_on < ${today} then ${weight} else 0 end), 0) as overdue,
    coalesce(sum(case when k.expires_on between ${today} and ${until} then ${weight} else 0 end), 0) as expiring`;
}

const idList = (ids: readonly number[]) => JSON.stringify(ids);
/** `column` is a current member of one of these groups. */
const memberOf = (column: SQL, groupIds: readonly number[]) =>
  sql`${column} in (select user_id from group_members where group_id in (select value from json_each(${idList(groupIds)})))`;

/** Whether the scope reaches a group (its report and people), and the group exists. */
export function groupInScope(db: TenantConn, scope: ComplianceScope, groupId: number) {
  if (scope.kind === "groups" && !scope.groupIds.includes(groupId)) return false;
  return Boolean(db.get(sql`select 1 as found from groups where id = ${groupId}`));
}

export function courseExists(db: TenantConn, courseId: number) {
  return Boolean(db.get(sql`select 1 as found from courses where id = ${courseId}`));
}

type Filters = Pick<ComplianceQuery, "courseId" | "groupId">;

/** At most this many people in two or more of a group admin's groups are taken off the groups' added counters. */
const MAX_SHARED = 2000;

/**
 * How to count several groups' members once each: `buckets` to add up, less each person they share counted
 * once for every group beyond their first (`shared`, as SQL rows of user_id and extra); null when so many
 * share that their rows are better counted directly. One group holding all the others' members is its
 * counters alone; groups sharing nobody (or only their admin, who is a member of each) need little or no
 * taking off.
 */
function bucketsOf(
  db: TenantConn,
  groupIds: readonly number[],
  maxShared: number,
): { buckets: readonly number[]; shared: SQL | null } | null {
  if (groupIds.length <= 1) return { buckets: groupIds, shared: null };
  const inGroups = sql`group_id in (select value from json_each(${idList(groupIds)}))`;
  const { rows, people } = db.get<{ rows: number; people: number }>(
    sql`select count(*) as rows, count(distinct user_id) as people from group_members where ${inGroups}`,
  )!;
  if (rows === people) return { buckets: groupIds, shared: null };
  const whole = db.get<{ groupId: number }>(
    sql`select group_id as groupId from group_members where ${inGroups} group by group_id having count(*) = ${people} limit 1`,
  );
  if (whole) return { buckets: [whole.groupId], shared: null };
  const shared = sql`select user_id, count(*) - 1 as extra from group_members where ${inGroups} group by user_id having count(*) > 1`;
  const many = db.get<{ n: number }>(sql`select count(*) as n from (${shared} limit ${maxShared + 1})`)!.n;
  return many > maxShared ? null : { buckets: groupIds, shared };
}

/**
 * The report per course and per group on the local day of `now`, narrowed to a course and/or a group (whose
 * current members then are the people). The caller checks that the group is in scope (`groupInScope`).
 */
export function complianceReport(
  db: TenantConn,
  scope: ComplianceScope,
  filters: Filters = {},
  now = new Date(),
  {
    maxShared = MAX_SHARED,
    withGroups = true,
  }: {
    /** How many shared people a group admin's groups may have before their rows are counted instead (tests lower it). */
    maxShared?: number;
    /** False: the courses and totals only (the dashboard overview's chart). */
    withGroups?: boolean;
  } = {},
): ComplianceReport {
  const today = localToday(db, now);
  const until = addDays(today, EXPIRING_WITHIN_DAYS);
  const course = filters.courseId;

  // Per course: the counters of everyone (group 0), of one group's members, or of several groups added up
  // less the people they share; only when many are shared are their people's rows counted, each person once.
  const onCourse = course === undefined ? sql`` : sql`and k.course_id = ${course}`;
  const plan =
    filters.groupId !== undefined
      ? { buckets: [filters.groupId], shared: null }
      : scope.kind === "organization"
        ? { buckets: [0], shared: null }
        : bucketsOf(db, scope.groupIds, maxShared);
  let courses: CourseCounts[];
  if (plan) {
    courses = counted(db, "course", plan.buckets, course, today, until) as CourseCounts[];
    if (plan.shared) {
      const extra = new Map(
        db
          .all<CourseCounts>(
            sql`with m as (${plan.shared}) select k.course_id, ${sums(sql`m.extra`, today, until)}
            from m join compliance_people k on k.user_id = m.user_id where true ${onCourse} group by k.course_id`,
          )
          .map((r) => [r.course_id, r]),
      );
      courses = courses
        .map((row) => {
          const less = extra.get(row.course_id);
          if (!less) return row;
          const out = { ...row };
          for (const c of COMPLIANCE_COLUMNS) out[c] -= less[c];
          return out;
        })
        .filter((row) => row.assigned > 0);
    }
  } else
    courses = db.all<CourseCounts>(sql`select k.course_id, c.title, ${sums(sql`1`, today, until)}
      from compliance_people k join courses c on c.id = k.course_id
      where ${memberOf(sql`k.user_id`, scope.kind === "groups" ? scope.groupIds : [])} ${onCourse}
      group by k.course_id order by c.title, k.course_id`);

  // Per group: each group's own counters, for the groups in scope (or the one filtered).
  const groupIds = !withGroups
    ? []
    : filters.groupId !== undefined
      ? [filters.groupId]
      : scope.kind === "organization"
        ? db.all<{ id: number }>(sql`select id from groups`).map((g) => g.id)
        : scope.groupIds;
  const groups = counted(db, "group", groupIds, course, today, until) as GroupCounts[];

  const totals = emptyCounts();
  for (const row of courses) for (const c of COMPLIANCE_COLUMNS) totals[c] += row[c];
  return { today, expiringUntil: until, totals, courses, groups };
}

/**
 * The columns per course, or per group, from the counters of `groupIds` (added up: the caller makes sure they
 * share no member when it asks per course). Three reads, each of only what it needs: the day-independent
 * totals (one row per group and course), the open rows due before today (a range of each group's counters),
 * and those expiring from today (a range of the expiry index). Open is in progress or not started unless
 * overdue.
 */
function counted(
  db: TenantConn,
  by: "course" | "group",
  groupIds: readonly number[],
  courseId: number | undefined,
  today: string,
  until: string,
) {
  if (groupIds.length === 0) return [];
  const ids = idList(groupIds);
  const key = by === "course" ? sql`course_id` : sql`group_id`;
  const course = courseId === undefined ? sql`` : sql`and course_id = ${courseId}`;
  const inGroups = sql`group_id in (select value from json_each(${ids}))`;
  const totals = db.all<{ id: number; assigned: number; done: number; started: number }>(sql`select ${key} as id,
    sum(assigned) as assigned, sum(done) as done, sum(started) as started
    from compliance_totals where ${inGroups} ${course} group by ${key}`);
  const overdue = new Map(
    db
      .all<{ id: number; overdue: number; started: number }>(
        sql`select ${key} as id, sum(n) as overdue, sum(case when started then n else 0 end) as started
        from compliance_counts where ${inGroups} and done = 0 and due_on < ${today} ${course} group by ${key}`,
      )
      .map((r) => [r.id, r]),
  );
  const expiring = new Map(
    db
      .all<{ id: number; n: number }>(
        sql`select ${key} as id, sum(n) as n from compliance_counts
        where ${inGroups} and expires_on between ${today} and ${until} ${course} group by ${key}`,
      )
      .map((r) => [r.id, r.n]),
  );
  const names = new Map(
    (by === "course"
      ? db.all<{ id: number; name: string }>(
          sql`select id, title as name from courses where id in (select value from json_each(${idList(totals.map((t) => t.id))}))`,
        )
      : db.all<{ id: number; name: string }>(sql`select id, name from groups where id in (select value from json_each(${ids}))`)
    ).map((r) => [r.id, r.name]),
  );
  const rows = totals
    .filter((t) => names.has(t.id))
    .map((t) => {
      const late = overdue.get(t.id) ?? { overdue: 0, started: 0 };
      const counts: ComplianceCounts = {
        assigned: t.assigned,
        done: t.done,
        in_progress: t.started - late.started,
        not_started: t.assigned - t.done - t.started - (late.overdue - late.started),
        overdue: late.overdue,
        expiring: expiring.get(t.id) ?? 0,
      };
      return { id: t.id, name: names.get(t.id)!, counts };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  return by === "course"
    ? rows.map((r): CourseCounts => ({ course_id: r.id, title: r.name, ...r.counts }))
    : rows.map((r): GroupCounts => ({ group_id: r.id, name: r.name, ...r.counts }));
}

export interface CompliancePerson {
  user_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  /** The course assigned, or (app/models/compliance-paths.server.ts) the learning path: one pair is null. */
  course_id: number | null;
  course_title: string | null;
  path_id: number | null;
  path_title: string | null;
  state: ComplianceState;
  due_on: string;
  started: boolean;
  completed_at: Date | null;
  expires_on: string | null;
}

type PersonRow = Omit<CompliancePerson, "state" | "started" | "completed_at" | "course_id" | "course_title" | "path_id" | "path_title"> & {
  course_id: number;
  course_title: string;
  done: number;
  started: number;
  completed_at: number | null;
};

/** `%text%` for LIKE, where the text's own % _ and \ match only themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The people list's due days and name or e-mail, as conditions on a row `k` with `user_id` and `due_on` (a
 * course's row of `compliance_people`, or a path's: app/models/compliance-paths.server.ts).
 */
export function dueAndNameFilters(query: Pick<ComplianceQuery, "dueFrom" | "dueTo" | "q">): SQL[] {
  const where: SQL[] = [];
  if (query.dueFrom) where.push(sql`k.due_on >= ${query.dueFrom}`);
  if (query.dueTo) where.push(sql`k.due_on <= ${query.dueTo}`);
  if (query.q) {
    const p = likePattern(query.q);
    where.push(sql`k.user_id in (select id from users where email like ${p} escape '\\' or first_name like ${p} escape '\\'
      or last_name like ${p} escape '\\' or (coalesce(first_name, '') || ' ' || coalesce(last_name, '')) like ${p} escape '\\')`);
  }
  return where;
}

/** The conditions of the people list on `compliance_people k`. */
function peopleWhere(scope: ComplianceScope, query: Omit<ComplianceQuery, "page" | "perPage">, today: string, until: string) {
  const where: SQL[] = [];
  if (scope.kind === "groups") where.push(memberOf(sql`k.user_id`, scope.groupIds));
  if (query.courseId !== undefined) where.push(sql`k.course_id = ${query.courseId}`);
  if (query.groupId !== undefined) where.push(memberOf(sql`k.user_id`, [query.groupId]));
  const state: Record<ComplianceColumn, SQL | null> = {
    assigned: null,
    done: sql`k.done = 1`,
    overdue: sql`k.done = 0 and k.due_on < ${today}`,
    in_progress: sql`k.done = 0 and k.due_on >= ${today} and k.started = 1`,
    not_started: sql`k.done = 0 and k.due_on >= ${today} and k.started = 0`,
    expiring: sql`k.expires_on between ${today} and ${until}`,
  };
  const s = state[query.state];
  if (s) where.push(s);
  where.push(...dueAndNameFilters(query));
  return where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
}

function toPerson(r: PersonRow, today: string): CompliancePerson {
  return {
    user_id: r.user_id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    course_id: r.course_id,
    course_title: r.course_title,
    path_id: null,
    path_title: null,
    state: complianceStateOf({ done: r.done, dueOn: r.due_on, started: r.started }, today),
    due_on: r.due_on,
    started: Boolean(r.started),
    completed_at: r.completed_at === null ? null : new Date(r.completed_at * 1000),
    expires_on: r.expires_on,
  };
}

const PEOPLE_COLUMNS = sql`k.user_id, u.email, u.first_name, u.last_name, k.course_id, c.title as course_title,
  k.done, k.due_on, k.started, k.completed_at, k.expires_on`;
/** Overdue first (earliest due), then the open ones by due day, then those done; a stable order for pages. */
const PEOPLE_ORDER = sql`order by k.done, k.due_on, k.course_id, k.user_id`;

/**
 * The people behind a number: each assigned person and course matching the filters, a page at a time, with
 * the total. `state` is one of the report's columns (`assigned`: everyone).
 */
export function compliancePeople(db: TenantConn, scope: ComplianceScope, query: ComplianceQuery, now = new Date()) {
  const today = localToday(db, now);
  const until = addDays(today, EXPIRING_WITHIN_DAYS);
  const where = peopleWhere(scope, query, today, until);
  if (scope.kind === "groups" && scope.groupIds.length === 0) return { today, total: 0, people: [] as CompliancePerson[] };
  const total = db.get<{ n: number }>(sql`select count(*) as n from compliance_people k ${where}`)?.n ?? 0;
  // The page is cut from compliance_people alone (its index gives the order), then joined: the names and
  // titles of the skipped rows are never read, and the planner cannot start from users and sort every row
  // (it did once the bench's organization had statistics for both: page 100 took 100 ms instead of 7).
  const rows = db.all<PersonRow>(sql`select ${PEOPLE_COLUMNS}
    from (select * from compliance_people k ${where} ${PEOPLE_ORDER} limit ${query.perPage} offset ${(query.page - 1) * query.perPage}) k
    join users u on u.id = k.user_id join courses c on c.id = k.course_id ${PEOPLE_ORDER}`);
  return { today, total, people: rows.map((r) => toPerson(r, today)) };
}

/** Every person matching the filters (the CSV download), in the list's order. */
export function allCompliancePeople(
  db: TenantConn,
  scope: ComplianceScope,
  query: Omit<ComplianceQuery, "page" | "perPage">,
  now = new Date(),
) {
  const today = localToday(db, now);
  if (scope.kind === "groups" && scope.groupIds.length === 0) return { today, people: [] as CompliancePerson[] };
  const until = addDays(today, EXPIRING_WITHIN_DAYS);
  // As in `compliancePeople`: ordered on compliance_people alone (`limit -1`, no limit, keeps SQLite from
  // merging the subquery into the join and sorting the joined rows).
  const rows = db.all<PersonRow>(sql`select ${PEOPLE_COLUMNS}
    from (select * from compliance_people k ${peopleWhere(scope, query, today, until)} ${PEOPLE_ORDER} limit -1) k
    join users u on u.id = k.user_id join courses c on c.id = k.course_id ${PEOPLE_ORDER}`);
  return { today, people: rows.map((r) => toPerson(r, today)) };
}

/** What the filters offer: the courses anyone in scope is assigned, and the groups in scope, by name. */
export function complianceOptions(db: TenantConn, scope: ComplianceScope) {
  const inScope = scope.kind === "organization" ? sql`` : sql`where g.id in (select value from json_each(${idList(scope.groupIds)}))`;
  const assigned =
    scope.kind === "organization"
      ? sql`select course_id from compliance_totals where group_id = 0`
      : sql`select course_id from compliance_totals where group_id in (select value from json_each(${idList(scope.groupIds)}))`;
  return {
    courses: db.all<{ id: number; title: string }>(
      sql`select c.id, c.title from courses c where c.id in (${assigned}) order by c.title, c.id`,
    ),
    groups: db.all<{ id: number; name: string }>(sql`select g.id, g.name from groups g ${inScope} order by g.name, g.id`),
  };
}

/**
 * The day a person's completion of a course expires (recertification: a course's completion valid for N
 * months, docs/decisions/035-recertification.md), as SQL over their user and course ids; null when it never
 * does. Migration `compliance_expiry` puts the same expression in the `compliance_assignment_people_*`
 * triggers and keeps it current as completions are written (docs/decisions/037-compliance-report.md, "Expiry").
 */
export function completionExpiresOnSql(userId: SQL, courseId: SQL): SQL<string | null> {
  return sql<string | null>`(select cc.expires_on from course_completions cc where cc.user_id = ${userId} and cc.course_id = ${courseId})`;
}

/**
 * Recounts compliance_people (and through its triggers compliance_counts) from the assignments, in one
 * transaction: the migration's backfill, for a database whose counters are in doubt (a restored copy edited
 * by hand). The triggers keep them current otherwise.
 */
export function rebuildCompliance(db: TenantConn) {
  db.transaction((tx) => {
    tx.run(sql`delete from compliance_people`);
    tx.run(sql`delete from compliance_counts`);
    tx.run(sql`delete from compliance_totals`);
    tx.run(sql`insert into compliance_people (course_id, user_id, done, due_on, started, completed_at, expires_on)
      select a.course_id, ap.user_id, min(ap.completed_at is not null),
        coalesce(min(case when ap.completed_at is null then ap.due_on end), max(ap.due_on)),
        exists (select 1 from lesson_progress lp where lp.user_id = ap.user_id and lp.course_id = a.course_id and ${progressInCycle}),
        max(ap.completed_at), ${completionExpiresOnSql(sql`ap.user_id`, sql`a.course_id`)}
      from assignment_people ap join assignments a on a.id = ap.assignment_id
      where ap.left_at is null group by a.course_id, ap.user_id`);
  });
}
