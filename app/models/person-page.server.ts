import { sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { assignmentState, localToday } from "./assignment.server";
import { agentKeysOf } from "./personal-data/xapi.server";
import { getUser } from "./user.server";

/**
 * A person, whole (issue 50; the person's page under the people screens, and `GET /api/users/{id}/overview`): their
 * profile and when they were last seen, their groups, each course they have begun with its progress and last
 * activity, their learning paths, what is assigned to them and its state, their latest quiz attempts, certificates,
 * points and badges, SCORM results and xAPI statements, and what admins changed about them. Each list is the most
 * recent `LIMIT` rows with how many there are; the page reads one person's rows through their indexes.
 */
const LIMIT = 50;
const when = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

function groupsOf(db: TenantConn, id: number) {
  return db.all<{ id: number; name: string; is_admin: number; source: string }>(sql`
    select g.id, g.name, gm.is_admin, gm.source from group_members gm join groups g on g.id = gm.group_id
    where gm.user_id = ${id} order by g.name, g.id`);
}

function coursesOf(db: TenantConn, id: number) {
  return db
    .all<{ id: number; title: string; done: number; lessons: number; last: number | null; completed_at: number | null }>(
      sql`select c.id, c.title, count(lp.completed_at) as done,
        (select count(*) from lessons l where l.course_id = c.id) as lessons,
        max(lp.updated_at) as last, cc.completed_at
      from lesson_progress lp join courses c on c.id = lp.course_id
      left join course_completions cc on cc.user_id = lp.user_id and cc.course_id = c.id
      where lp.user_id = ${id} group by c.id order by last desc, c.id limit ${LIMIT}`,
    )
    .map((c) => ({ ...c, last: when(c.last), completed_at: when(c.completed_at) }));
}

function pathsOf(db: TenantConn, id: number) {
  return db
    .all<{ id: number; title: string; enrolled_at: number; completed_at: number | null; expires_on: string | null }>(
      sql`select p.id, p.title, e.enrolled_at, e.completed_at, e.expires_on from path_enrolments e
      join learning_paths p on p.id = e.path_id where e.user_id = ${id} order by e.enrolled_at desc, p.id limit ${LIMIT}`,
    )
    .map((p) => ({ ...p, enrolled_at: when(p.enrolled_at), completed_at: when(p.completed_at) }));
}

function assignmentsOf(db: TenantConn, id: number, today: string) {
  const courses = db.all<{ title: string; due_on: string; completed_at: number | null; started: number; group_name: string | null }>(sql`
    select c.title, ap.due_on, ap.completed_at, g.name as group_name,
      exists (select 1 from lesson_progress lp where lp.user_id = ap.user_id and lp.course_id = a.course_id) as started
    from assignment_people ap join assignments a on a.id = ap.assignment_id join courses c on c.id = a.course_id
    left join groups g on g.id = a.group_id
    where ap.user_id = ${id} and ap.left_at is null order by ap.due_on desc limit ${LIMIT}`);
  const paths = db.all<{ title: string; due_on: string; completed_at: number | null; started: number; group_name: string | null }>(sql`
    select p.title, pap.due_on, pap.completed_at, g.name as group_name,
      exists (select 1 from path_enrolments e where e.path_id = a.path_id and e.user_id = pap.user_id) as started
    from path_assignment_people pap join path_assignments a on a.id = pap.assignment_id
    join learning_paths p on p.id = a.path_id left join groups g on g.id = a.group_id
    where pap.user_id = ${id} and pap.left_at is null order by pap.due_on desc limit ${LIMIT}`);
  const state = (r: { due_on: string; completed_at: number | null }, started: boolean) =>
    assignmentState({ dueOn: r.due_on, completedAt: r.completed_at === null ? null : new Date(r.completed_at * 1000) }, started, today);
  return [
    ...courses.map((r) => ({
      kind: "course" as const,
      title: r.title,
      due_on: r.due_on,
      group: r.group_name,
      state: state(r, r.started === 1),
    })),
    ...paths.map((r) => ({
      kind: "path" as const,
      title: r.title,
      due_on: r.due_on,
      group: r.group_name,
      state: state(r, r.started === 1),
    })),
  ].sort((a, b) => b.due_on.localeCompare(a.due_on));
}

function quizAttemptsOf(db: TenantConn, id: number) {
  return db
    .all<{ title: string; attempt_number: number; score: number | null; passed: number | null; ended_at: number | null }>(
      sql`select q.title, qa.attempt_number, qa.score, qa.passed, qa.ended_at from quiz_attempts qa join quizzes q on q.id = qa.quiz_id
      where qa.user_id = ${id} order by qa.id desc limit ${LIMIT}`,
    )
    .map((a) => ({ ...a, passed: a.passed === null ? null : a.passed === 1, ended_at: when(a.ended_at) }));
}

function certificatesOf(db: TenantConn, id: number) {
  return db
    .all<{ public_id: string; course_title: string; issued_at: number; revoked_at: number | null }>(
      // A course's and a path's, each along its unique index by person (a partial index, so named by its condition):
      // certificates has no index by person alone, and at 200,000 certificates SQLite walked them all by issue day.
      sql`select public_id, course_title, issued_at, revoked_at from (
        select public_id, course_title, issued_at, revoked_at, id from certificates where user_id = ${id} and issued_for_path_id is null
        union all
        select public_id, course_title, issued_at, revoked_at, id from certificates where user_id = ${id} and issued_for_path_id is not null
      ) order by issued_at desc, id desc limit ${LIMIT}`,
    )
    .map((c) => ({ ...c, issued_at: when(c.issued_at), revoked_at: when(c.revoked_at) }));
}

function rewardsOf(db: TenantConn, id: number) {
  const points =
    db.get<{ points: number } | undefined>(sql`select points from points_totals where user_id = ${id} and period = 'life'`)?.points ?? 0;
  const badges = db
    .all<{ name: string; awarded_at: number }>(sql`select b.name, ub.awarded_at from user_badges ub join badges b on b.id = ub.badge_id
      where ub.user_id = ${id} order by ub.awarded_at desc limit ${LIMIT}`)
    .map((b) => ({ ...b, awarded_at: when(b.awarded_at) }));
  return { points, badges };
}

function scormOf(db: TenantConn, id: number) {
  return db
    .all<{
      course: string;
      lesson: string;
      completion_status: string | null;
      success_status: string | null;
      score_raw: number | null;
      updated_at: number;
    }>(
      sql`select c.title as course, l.title as lesson, sa.completion_status, sa.success_status, sa.score_raw, sa.updated_at
      from scorm_attempts sa join lessons l on l.id = sa.lesson_id join courses c on c.id = l.course_id
      where sa.user_id = ${id} order by sa.updated_at desc limit ${LIMIT}`,
    )
    .map((s) => ({ ...s, updated_at: when(s.updated_at) }));
}

function xapiOf(db: TenantConn, person: { id: number; email: string }, origins: string[]) {
  const keys = agentKeysOf(person, origins);
  const row = db.get<{ n: number; last: number | null }>(sql`select count(*) as n, max(stored) / 1000 as last from xapi_statements
    where actor_key in (${sql.join(keys, sql`, `)}) and voided = 0`);
  return { statements: row?.n ?? 0, last: when(row?.last ?? null) };
}

function auditOf(db: TenantConn, id: number) {
  return db
    .all<{
      at: number;
      action: string;
      actor_email: string | null;
      actor_role: string;
      via: string;
      group_name: string | null;
      detail: string | null;
    }>(sql`select at, action, actor_email, actor_role, via, group_name, detail from admin_audit
      where subject_id = ${id} order by id desc limit ${LIMIT}`)
    .map((a) => ({ ...a, at: when(a.at) }));
}

/**
 * What a viewer may see of the person besides their learning (app/access/rules.ts decides): the groups among those
 * they manage (null: all), whether the audit about them, and the organization's origins, which name the person in
 * statements of content Lectern launched.
 */
export interface OverviewReach {
  groups: readonly number[] | null;
  audit: boolean;
  origins: string[];
}

/** Everything the person's page shows, or undefined when nobody has that id here. */
export function personOverview(db: TenantConn, id: number, reach: OverviewReach, now = new Date()) {
  const person = getUser(db, id);
  if (!person) return undefined;
  // Kept as they sign in and use their sessions (user_activity), so it outlives a session signed out of.
  const seen = db.get<{ last: number | null }>(sql`select last_active_at as last from user_activity where user_id = ${id}`);
  return {
    profile: {
      id: person.id,
      email: person.email,
      first_name: person.firstName,
      last_name: person.lastName,
      phone: person.phone,
      role: person.role,
      language: person.language,
      disabled: person.disabledAt !== null,
      created_at: person.createdAt.toISOString(),
      last_seen_at: when(seen?.last ?? null),
    },
    groups: groupsOf(db, id)
      .filter((g) => reach.groups === null || reach.groups.includes(g.id))
      .map((g) => ({ id: g.id, name: g.name, admin: g.is_admin === 1, source: g.source })),
    courses: coursesOf(db, id),
    paths: pathsOf(db, id),
    assignments: assignmentsOf(db, id, localToday(db, now)),
    quiz_attempts: quizAttemptsOf(db, id),
    certificates: certificatesOf(db, id),
    ...rewardsOf(db, id),
    scorm: scormOf(db, id),
    xapi: xapiOf(db, person, reach.origins),
    audit: reach.audit ? auditOf(db, id) : [],
  };
}

export type PersonOverview = NonNullable<ReturnType<typeof personOverview>>;
