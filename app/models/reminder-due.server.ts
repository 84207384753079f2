import type Database from "better-sqlite3";
import type { TenantDb } from "../../db/open";
import { groupMembers, type User } from "../../db/tenant";
import { addDays } from "../utils/calendar";
import { MAX_ATTEMPTS } from "./reminder-claims.server";
import type { ReminderKind } from "./reminder-mail.server";
import type { RunContext } from "./reminder-run.server";
import type { ReminderSettingsValues } from "./reminder-settings.server";

/**
 * Who is due for which reminder on a run's clock (docs/decisions/038-reminders.md "Which reminder is due"):
 * one pass over the open rows of `assignment_people` and of `path_assignment_people` (learning paths, issue
 * 49: the same kinds and days), with the person read alongside. Whether each course or path is visible to them
 * is asked of the access policy when they are claimed (app/models/reminder-person.server.ts).
 */

/** An assignment older than this gets no "assigned" mail (reminders turned on later, a long outage). */
const ASSIGNED_WITHIN_DAYS = 7;

export interface Candidate {
  assignmentId: number;
  userId: number;
  /** [email, first name, last name, language, role] (the same on each of the person's rows). */
  person: string;
  /** What the assignment assigns: a course, or a learning path. */
  subject: "course" | "path";
  /** The course's or the path's id. */
  itemId: number;
  dueOn: string;
  dayKind: Exclude<ReminderKind, "assigned"> | null;
  week: number;
  assignedDue: number;
  dayDue: number;
  /** No row yet for the day kind's key (so an `assigned` mail can stand in for it). */
  dayFree: number;
}

/** The reminders due now, ordered by person (then due day): each person's rows are together. */
export function dueReminders(
  db: TenantDb,
  settings: ReminderSettingsValues,
  { today, at, dayKindsNow }: Pick<RunContext, "today" | "at" | "dayKindsNow">,
): Candidate[] {
  return candidatesQuery(db.$client).all({
    today,
    beforeUntil: settings.beforeDue ? addDays(today, settings.daysBefore) : today,
    assignedSince: at - ASSIGNED_WITHIN_DAYS * 86_400,
    now: at,
    maxAttempts: MAX_ATTEMPTS,
    onAssignment: Number(settings.onAssignment),
    beforeDue: Number(settings.beforeDue),
    onDueDate: Number(settings.onDueDate),
    whileOverdue: Number(settings.whileOverdue),
    dayKindsNow: Number(dayKindsNow),
  });
}

/**
 * In SQL as written: the day kind and overdue week are worked out per row, and the reminder rows are joined
 * on them (the `assigned` key, and the day kind's). Drizzle's builder would only wrap these same fragments.
 */
function candidatesQuery(sqlite: Database.Database) {
  return sqlite.prepare<Record<string, string | number>, Candidate>(`
    with open_rows as (
      select ap.assignment_id, ap.user_id, ap.due_on, ap.assigned_at, 'course' as subject, a.course_id as item_id
      from assignment_people ap
      join assignments a on a.id = ap.assignment_id
      where ap.completed_at is null and ap.left_at is null
        and (ap.assigned_at >= @assignedSince or ap.due_on <= @beforeUntil)
      union all
      select pp.assignment_id, pp.user_id, pp.due_on, pp.assigned_at, 'path', pa.path_id
      from path_assignment_people pp
      join path_assignments pa on pa.id = pp.assignment_id
      where pp.completed_at is null and pp.left_at is null
        and (pp.assigned_at >= @assignedSince or pp.due_on <= @beforeUntil)
    ), open as (
      select r.*,
        case when @today > r.due_on then 'overdue' when @today = r.due_on then 'due'
             when r.due_on <= @beforeUntil then 'before' end as day_kind,
        case when @today > r.due_on then (cast(julianday(@today) - julianday(r.due_on) as integer) - 1) / 7 + 1 else 0 end as week
      from open_rows r
      join users u on u.id = r.user_id
      where u.disabled_at is null and u.role is not null
        and not exists (select 1 from reminder_opt_outs o where o.user_id = r.user_id)
    ), keyed as (
      select o.*,
        (@onAssignment and o.assigned_at >= @assignedSince
          and (ra.id is null or (ra.status = 'failed' and ra.attempts < @maxAttempts and ra.retry_at <= @now))) as assigned_due,
        (o.day_kind is not null and (case o.day_kind when 'overdue' then @whileOverdue when 'due' then @onDueDate else @beforeDue end)) as day_enabled,
        rd.id is null as day_free,
        (rd.id is null or (rd.status = 'failed' and rd.attempts < @maxAttempts and rd.retry_at <= @now)) as day_open
      from open o
      left join reminders ra on ra.assignment_id = o.assignment_id and ra.user_id = o.user_id and ra.subject = o.subject
        and ra.kind = 'assigned' and ra.due_on = o.due_on and ra.week = 0
      left join reminders rd on rd.assignment_id = o.assignment_id and rd.user_id = o.user_id and rd.subject = o.subject
        and rd.kind = o.day_kind and rd.due_on = o.due_on and rd.week = o.week
    )
    select assignment_id as assignmentId, user_id as userId, subject, item_id as itemId, due_on as dueOn,
      (select json_array(u.email, u.first_name, u.last_name, u.language, u.role) from users u where u.id = user_id) as person,
      day_kind as dayKind, week, assigned_due as assignedDue, (day_enabled and day_open and @dayKindsNow) as dayDue,
      (day_enabled and day_free) as dayFree
    from keyed
    where assigned_due or (day_enabled and day_open and @dayKindsNow)
    order by user_id, due_on, subject, assignment_id`);
}

/** The candidates split into each person's rows (they come ordered by person). */
export function byPerson(rows: Candidate[]): Candidate[][] {
  const people: Candidate[][] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j].userId === rows[i].userId) j++;
    people.push(rows.slice(i, j));
    i = j;
  }
  return people;
}

/**
 * A candidate's person as the access policy reads them (app/access/viewer.ts `viewerOfMember`: their role;
 * disabled people are no candidates) and the mail names them; read with the candidates, not one by one.
 */
export function personOf(id: number, json: string): User {
  const [email, firstName, lastName, language, role] = JSON.parse(json) as [string, string, string, string | null, User["role"]];
  const epoch = new Date(0);
  return {
    id,
    email,
    firstName,
    lastName,
    language,
    role,
    phone: null,
    passwordHash: null,
    managedExternally: false,
    disabledAt: null,
    createdAt: epoch,
    updatedAt: epoch,
    watchCreditedUntil: null,
    playerInstructionsShownAt: null,
  };
}

/** Each person's groups (for the access policy), read once for a run that has anyone to remind. */
export function membershipsByPerson(db: TenantDb) {
  const memberships = new Map<number, { groupId: number; isAdmin: boolean }[]>();
  const rows = db
    .select({ userId: groupMembers.userId, groupId: groupMembers.groupId, isAdmin: groupMembers.isAdmin })
    .from(groupMembers)
    .all();
  for (const m of rows) {
    const list = memberships.get(m.userId) ?? memberships.set(m.userId, []).get(m.userId)!;
    list.push({ groupId: m.groupId, isAdmin: m.isAdmin });
  }
  return memberships;
}
