import type Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import type { TenantConn, TenantDb } from "../../db/open";
import { toSeconds } from "../../db/prepared";
import type { Organization } from "../../db/platform";
import { courses, reminderOptOuts, reminderSettings, users, type Course, type User } from "../../db/tenant";
import type { ReminderServices } from "../../server/services";
import { isVisible } from "../access/courses";
import { viewerOfMember } from "../access/viewer";
import { addDays, dayIn, daysBetween, isoWeek, localMidnight } from "../utils/calendar";
import type { TFunction } from "i18next";
import { getFixedT } from "../utils/i18n.server";
import type { Language } from "../utils/i18n";
import { mailLanguage } from "./auth/mail.server";
import type { JobContext } from "./clone.server";
import { getOrganization } from "./organization.server";
import {
  composeDigest,
  composeReminder,
  DIGEST_MAX_LINES,
  type DigestLine,
  type DigestSection,
  type OpenState,
  type ReminderItem,
  type ReminderKind,
} from "./reminder-mail.server";
import { tenantTimeZone } from "./time-zone.server";

/**
 * Reminders by e-mail and the weekly digest (issue 34; docs/decisions/038-reminders.md). A background job
 * (REMINDERS_JOB, queued for each organization every few minutes by server/reminders.ts) works out, on the
 * clock it is given, which reminders are due:
 *  - `assigned`: the person was assigned within the last week and has not been told;
 *  - `before`: the due day is 1–N days away (N per organization, 3 by default);
 *  - `due`: the due day is today;
 *  - `overdue`: once in each week of being overdue (days 1–7 after the due day are week 1, and so on).
 * Day kinds go from 08:00 in the organization's time zone; an `assigned` mail goes at once and stands in
 * for the day kind that also applies that day (recorded as skipped). A person gets one mail per run, listing
 * every course due for a reminder.
 *
 * Exactly once: every reminder has a key (assignment, person, kind, due day, overdue week) that is unique in
 * `reminders` (db/tenant.ts). A run claims a person's keys in one transaction (status `sending`), sends,
 * then records the outcome. A claim found still `sending` by a later run belongs to a process that stopped
 * mid-send: the mail may have gone, so it is marked `unknown` and never sent again (the next reminder kind
 * still comes). A refused or failed send is marked `failed` and claimed again by a later run from
 * `retry_at`, while that same reminder still applies, at most MAX_ATTEMPTS times in all.
 *
 * Nobody who left the group (`left_at`), completed the course, is disabled, has no role here, turned
 * reminders off, or cannot see the course (the access policy's visibility rule, as on their "Due soon")
 * gets one.
 */

export const REMINDERS_JOB = "reminders.send";

/** The local hour from which day kinds (before, due, overdue) and digests go. */
export const SEND_FROM_HOUR = 8;
/** An assignment older than this gets no "assigned" mail (reminders turned on later, a long outage). */
const ASSIGNED_WITHIN_DAYS = 7;
/** Sends of one reminder at most (the first and the retries). */
export const MAX_ATTEMPTS = 5;
/** Minutes before a failed send is tried again, by attempts so far. */
const RETRY_MINUTES = [15, 60, 240, 720];
/** One run sends for at most this long; what is left goes in the next run (other organizations' jobs wait meanwhile). */
const RUN_BUDGET_MS = 30_000;
/**
 * People claimed in one transaction, at most: a run claims 1, then 2, 4 … up to this many at a time, so
 * a small run claims each person on their own and a large one does not pay a commit per person (a fifth
 * of the bench's first run). A crash loses the reminders of the claimed people not yet mailed (never sent
 * twice: they become `unknown`); a stop gives them back.
 */
const CLAIMS_AT_ONCE = 16;
/** Failed sends in a row after which a run stops: the mail server is down, the next run tries again. */
const FAILURES_IN_A_ROW = 3;
const UNSUBSCRIBE_PURPOSE = "reminders-unsubscribe";

// ---- Settings ---------------------------------------------------------------------------------------------

export interface ReminderSettingsValues {
  onAssignment: boolean;
  beforeDue: boolean;
  daysBefore: number;
  onDueDate: boolean;
  whileOverdue: boolean;
  weeklyDigest: boolean;
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettingsValues = {
  onAssignment: true,
  beforeDue: true,
  daysBefore: 3,
  onDueDate: true,
  whileOverdue: true,
  weeklyDigest: true,
};

export function getReminderSettings(db: TenantConn): ReminderSettingsValues {
  const row = db.select().from(reminderSettings).where(eq(reminderSettings.id, 1)).get();
  if (!row) return { ...DEFAULT_REMINDER_SETTINGS };
  const { onAssignment, beforeDue, daysBefore, onDueDate, whileOverdue, weeklyDigest } = row;
  return { onAssignment, beforeDue, daysBefore, onDueDate, whileOverdue, weeklyDigest };
}

/** Values checked by app/models/forms/reminders.ts (the screen and /api both). */
export function saveReminderSettings(db: TenantConn, values: ReminderSettingsValues) {
  const now = new Date();
  db.insert(reminderSettings)
    .values({ id: 1, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: reminderSettings.id, set: { ...values, updatedAt: now } })
    .run();
  return getReminderSettings(db);
}

export { reminderSettingsSchema, type ReminderSettingsForm } from "./forms/reminders";

// ---- Turning reminders off and on -------------------------------------------------------------------------

export function remindersOff(db: TenantConn, userId: number) {
  return Boolean(db.select({ userId: reminderOptOuts.userId }).from(reminderOptOuts).where(eq(reminderOptOuts.userId, userId)).get());
}

/** Reminders and digests off (or back on) for one person; sign-in codes and password mails are not affected. */
export function setRemindersOff(db: TenantConn, userId: number, off: boolean, now = new Date()) {
  if (off) db.insert(reminderOptOuts).values({ userId, at: now }).onConflictDoNothing().run();
  else db.delete(reminderOptOuts).where(eq(reminderOptOuts.userId, userId)).run();
}

type Signer = Pick<ReminderServices, "signValue" | "verifyValue">;

/**
 * The one-click unsubscribe token (RFC 8058): the person's id and an HMAC of the organization and the
 * person with the server's key. It does not expire (a mail's link keeps working) and does only one thing:
 * turn that person's reminders off in that organization.
 */
export function unsubscribeToken(signer: Signer, organizationId: number, userId: number) {
  return `${userId}.${signer.signValue(UNSUBSCRIBE_PURPOSE, `${organizationId}:${userId}`)}`;
}

function personOfToken(signer: Signer, organizationId: number, token: string) {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  return signer.verifyValue(UNSUBSCRIBE_PURPOSE, `${organizationId}:${userId}`, match[2]) ? userId : null;
}

/** `le***@acme.test`: enough for people to recognise their address on a page anyone with the link can open. */
function maskedEmail(email: string) {
  const at = email.indexOf("@");
  if (at < 0) return email;
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

/** Who a token unsubscribes and whether they already are; null for a token that is not valid here. */
export function unsubscribeTarget(db: TenantConn, signer: Signer, organizationId: number, token: string) {
  const userId = personOfToken(signer, organizationId, token);
  if (userId === null) return null;
  const person = db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!person) return null;
  return { userId, email: maskedEmail(person.email), off: remindersOff(db, userId) };
}

/** The one-click unsubscribe: true when the token is valid here (turning off twice is fine). */
export function unsubscribeByToken(db: TenantConn, signer: Signer, organizationId: number, token: string, now = new Date()) {
  const target = unsubscribeTarget(db, signer, organizationId, token);
  if (!target) return false;
  setRemindersOff(db, target.userId, true, now);
  return true;
}

// ---- The run -----------------------------------------------------------------------------------------------

export interface RunResult {
  /** Reminders (one per course) and the mails that carried them. */
  reminders: number;
  mails: number;
  digests: number;
  failed: number;
  /** Claims found from a run that stopped mid-send, now `unknown`. */
  unknown: number;
  /** Whether the run stopped before everything was sent (budget, stopping, mail server down). */
  more: boolean;
}

/** The job: the reminders due on the clock it was queued with (`now`, for tests and scripts), else now. */
export async function sendRemindersJob(context: JobContext, services: ReminderServices): Promise<Record<string, unknown>> {
  const given = context.job.payload.now;
  const now = typeof given === "string" && !Number.isNaN(Date.parse(given)) ? new Date(given) : new Date();
  const organization = getOrganization(services.db, context.organizationId);
  if (!organization) return { reminders: 0 };
  return { ...(await runReminders(context.db, services, organization, now, context)) };
}

interface Candidate {
  assignmentId: number;
  userId: number;
  /** [email, first name, last name, language, role] (the same on each of the person's rows). */
  person: string;
  courseId: number;
  dueOn: string;
  dayKind: Exclude<ReminderKind, "assigned"> | null;
  week: number;
  assignedDue: number;
  dayDue: number;
  /** No row yet for the day kind's key (so an `assigned` mail can stand in for it). */
  dayFree: number;
}

/** The statements of one run, prepared once per run on the organization's connection. */
function statements(sqlite: Database.Database) {
  return {
    candidates: sqlite.prepare<Record<string, string | number>, Candidate>(`
      with open as (
        select ap.assignment_id, ap.user_id, ap.due_on, ap.assigned_at, a.course_id,
          case when @today > ap.due_on then 'overdue' when @today = ap.due_on then 'due'
               when ap.due_on <= @beforeUntil then 'before' end as day_kind,
          case when @today > ap.due_on then (cast(julianday(@today) - julianday(ap.due_on) as integer) - 1) / 7 + 1 else 0 end as week
        from assignment_people ap
        join assignments a on a.id = ap.assignment_id
        join users u on u.id = ap.user_id
        where ap.completed_at is null and ap.left_at is null
          and (ap.assigned_at >= @assignedSince or ap.due_on <= @beforeUntil)
          and u.disabled_at is null and u.role is not null
          and not exists (select 1 from reminder_opt_outs o where o.user_id = ap.user_id)
      ), keyed as (
        select o.*,
          (@onAssignment and o.assigned_at >= @assignedSince
            and (ra.id is null or (ra.status = 'failed' and ra.attempts < @maxAttempts and ra.retry_at <= @now))) as assigned_due,
          (o.day_kind is not null and (case o.day_kind when 'overdue' then @whileOverdue when 'due' then @onDueDate else @beforeDue end)) as day_enabled,
          rd.id is null as day_free,
          (rd.id is null or (rd.status = 'failed' and rd.attempts < @maxAttempts and rd.retry_at <= @now)) as day_open
        from open o
        left join reminders ra on ra.assignment_id = o.assignment_id and ra.user_id = o.user_id
          and ra.kind = 'assigned' and ra.due_on = o.due_on and ra.week = 0
        left join reminders rd on rd.assignment_id = o.assignment_id and rd.user_id = o.user_id
          and rd.kind = o.day_kind and rd.due_on = o.due_on and rd.week = o.week
      )
      select assignment_id as assignmentId, user_id as userId, course_id as courseId, due_on as dueOn,
        (select json_array(u.email, u.first_name, u.last_name, u.language, u.role) from users u where u.id = user_id) as person,
        day_kind as dayKind, week, assigned_due as assignedDue, (day_enabled and day_open and @dayKindsNow) as dayDue,
        (day_enabled and day_free) as dayFree
      from keyed
      where assigned_due or (day_enabled and day_open and @dayKindsNow)
      order by user_id, due_on, assignment_id`),
    claim: sqlite.prepare<unknown[], { id: number; attempts: number }>(`
      insert into reminders (user_id, assignment_id, kind, due_on, week, status, attempts, claimed_at)
      values (?, ?, ?, ?, ?, 'sending', 1, ?)
      on conflict (user_id, assignment_id, kind, due_on, week) do update
        set status = 'sending', attempts = reminders.attempts + 1, claimed_at = excluded.claimed_at, retry_at = null
        where reminders.status = 'failed' and reminders.attempts < ? and reminders.retry_at <= ?
      returning id, attempts`),
    skip: sqlite.prepare<unknown[], { id: number }>(`
      insert into reminders (user_id, assignment_id, kind, due_on, week, status, attempts, claimed_at)
      values (?, ?, ?, ?, ?, 'skipped', 0, ?)
      on conflict (user_id, assignment_id, kind, due_on, week) do nothing
      returning id`),
    unclaim: sqlite.prepare("delete from reminders where id = ?"),
    reclaimLater: sqlite.prepare("update reminders set status = 'failed', attempts = attempts - 1, retry_at = ? where id = ?"),
    sent: sqlite.prepare("update reminders set status = 'sent', sent_at = ? where id = ?"),
    failed: sqlite.prepare("update reminders set status = 'failed', retry_at = ? where id = ?"),
    memberships: sqlite.prepare<[], { userId: number; groupId: number; isAdmin: number }>(
      "select user_id as userId, group_id as groupId, is_admin as isAdmin from group_members",
    ),
    started: sqlite.prepare<[number, number], { one: number }>(
      "select 1 as one from lesson_progress where user_id = ? and course_id = ? limit 1",
    ),
  };
}

const fullName = (p: { firstName: string; lastName: string; email: string }) =>
  [p.firstName, p.lastName].filter(Boolean).join(" ") || p.email;

interface RunOptions {
  pause?: () => Promise<void>;
  stopping?: () => boolean;
  budgetMs?: number;
}

/**
 * One run for one organization on the clock `now`: the reminders, then the week's digests. Safe to run
 * again at any time on any clock: what was claimed is never claimed twice.
 */
export async function runReminders(
  db: TenantDb,
  services: ReminderServices,
  organization: Organization,
  now: Date,
  { pause = () => Promise.resolve(), stopping = () => false, budgetMs = RUN_BUDGET_MS }: RunOptions = {},
): Promise<RunResult> {
  const sqlite = db.$client;
  const settings = getReminderSettings(db);
  const zone = tenantTimeZone(db);
  const today = dayIn(zone, now);
  const dayKindsNow = now.getTime() - localMidnight(today, zone) >= SEND_FROM_HOUR * 3_600_000;
  const at = toSeconds(now);
  const result: RunResult = { reminders: 0, mails: 0, digests: 0, failed: 0, unknown: 0, more: false };
  const deadline = Date.now() + budgetMs;

  // A claim still `sending` is from a run that stopped mid-send (runs of one organization never overlap:
  // server/jobs.ts runs its jobs one at a time). Its mail may have gone out, so it is never sent again.
  result.unknown += sqlite.prepare("update reminders set status = 'unknown' where status = 'sending'").run().changes;
  result.unknown += sqlite.prepare("update reminder_digests set status = 'unknown' where status = 'sending'").run().changes;

  const anyKind = settings.onAssignment || settings.beforeDue || settings.onDueDate || settings.whileOverdue;
  const s = statements(sqlite);
  const origin = services.originFor(organization);
  const base = { organization, db, language: mailLanguage({ language: null }, organization) };
  const translators = new Map<Language, TFunction>();
  const translator = async (language: Language): Promise<TFunction> => {
    let t = translators.get(language);
    if (!t) translators.set(language, (t = await getFixedT(language)));
    return t;
  };
  const known = new Map<number, Course | null>();
  const courseOf = (id: number) => {
    if (!known.has(id)) known.set(id, db.select().from(courses).where(eq(courses.id, id)).get() ?? null);
    return known.get(id)!;
  };

  if (anyKind) {
    const rows = s.candidates.all({
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
    const sent = new SentQueue(s.sent, at);
    const memberships = new Map<number, { groupId: number; isAdmin: boolean }[]>();
    if (rows.length) {
      for (const m of s.memberships.all()) {
        const list = memberships.get(m.userId) ?? memberships.set(m.userId, []).get(m.userId)!;
        list.push({ groupId: m.groupId, isAdmin: Boolean(m.isAdmin) });
      }
    }
    const scope: RunScope = { memberships, sent, translator, organization, origin, base, today, at, courseOf };
    const people: Candidate[][] = [];
    for (let i = 0; i < rows.length;) {
      let j = i;
      while (j < rows.length && rows[j].userId === rows[i].userId) j++;
      people.push(rows.slice(i, j));
      i = j;
    }
    let failuresInARow = 0;
    let size = 1;
    let done = 0;
    outer: for (let i = 0; i < people.length; i += size, size = Math.min(size * 2, CLAIMS_AT_ONCE)) {
      const chunk = people.slice(i, i + size);
      // Claimed together (one commit, with the previous chunk's `sent`), then sent one by one.
      const claims = sqlite.transaction(() => {
        sent.flush();
        return chunk.map((mine) => claimPerson(s, scope, mine)).filter((c) => c !== null);
      })();
      for (const [k, claim] of claims.entries()) {
        if (stopping() || Date.now() > deadline || failuresInARow >= FAILURES_IN_A_ROW) {
          // Those not tried yet are given back: the next run claims them again.
          sqlite.transaction(() => claims.slice(k).forEach((c) => unclaim(s, at, c)))();
          result.more = true;
          break outer;
        }
        result.reminders += claim.claimed.length;
        if (await sendPerson(s, services, scope, claim)) {
          result.mails++;
          failuresInARow = 0;
        } else {
          result.failed++;
          failuresInARow++;
        }
        if (++done % 50 === 0) await pause();
      }
    }
    sqlite.transaction(() => sent.flush())();
  }

  if (settings.weeklyDigest && dayKindsNow && !result.more && !stopping()) {
    const digests = await sendDigests(sqlite, services, { translator, organization, origin, today, at });
    result.digests += digests.sent;
    result.failed += digests.failed;
  }
  return result;
}

/** Reminders sent but not yet recorded as such: written in the next transaction of the run. */
class SentQueue {
  #ids: number[] = [];
  constructor(
    readonly statement: Database.Statement,
    readonly at: number,
  ) {}
  add(ids: number[]) {
    this.#ids.push(...ids);
  }
  /** Inside a transaction. */
  flush() {
    for (const id of this.#ids.splice(0)) this.statement.run(this.at, id);
  }
}

/**
 * A candidate's person as the access policy reads them (app/access/viewer.ts `viewerOfMember`: their role;
 * disabled people are no candidates) and the mail names them; read with the candidates, not one by one.
 */
function personOf(id: number, json: string): User {
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

interface RunScope {
  /** Each person's groups, read once for the run. */
  memberships: Map<number, { groupId: number; isAdmin: boolean }[]>;
  sent: SentQueue;
  /** The mail's texts in a language (app/models/reminder-mail.server.ts keeps what repeats). */
  translator: (language: Language) => Promise<TFunction>;
  organization: Organization;
  origin: string;
  base: { organization: Organization; db: TenantDb; language: ReturnType<typeof mailLanguage> };
  today: string;
  at: number;
  courseOf: (id: number) => Course | null;
}

interface Claim {
  person: User;
  claimed: { id: number; attempts: number; item: ReminderItem }[];
  /** `skipped` rows this claim wrote (an assignment mail standing in for the day's reminder). */
  skipped: number[];
}

/**
 * One person's reminders of this run, claimed (inside the chunk's transaction). Null: nothing to send,
 * because the courses are hidden from them (as on their "Due soon") or another run holds the keys.
 */
function claimPerson(s: ReturnType<typeof statements>, scope: RunScope, rows: Candidate[]): Claim | null {
  const { origin, base, today, at, courseOf } = scope;
  const userId = rows[0].userId;
  const person = personOf(userId, rows[0].person);
  const viewer = viewerOfMember(base, person, scope.memberships.get(userId) ?? []);
  const claim: Claim = { person, claimed: [], skipped: [] };
  for (const r of rows) {
    const course = courseOf(r.courseId);
    if (!course || !isVisible(base.db, viewer, course)) continue;
    const kind: ReminderKind = r.assignedDue ? "assigned" : r.dayKind!;
    const week = kind === "assigned" ? 0 : r.week;
    const got = s.claim.get(userId, r.assignmentId, kind, r.dueOn, week, at, MAX_ATTEMPTS, at);
    if (!got) continue;
    // The assignment mail says what the day's reminder would have: that one is not sent as well.
    if (kind === "assigned" && r.dayKind && r.dayFree) {
      const skipped = s.skip.get(userId, r.assignmentId, r.dayKind, r.dueOn, r.week, at);
      if (skipped) claim.skipped.push(skipped.id);
    }
    const daysLeft = daysBetween(today, r.dueOn);
    const state: OpenState = daysLeft < 0 ? "overdue" : s.started.get(userId, r.courseId) ? "in_progress" : "not_started";
    claim.claimed.push({
      id: got.id,
      attempts: got.attempts,
      item: { kind, courseTitle: course.title, courseUrl: `${origin}/courses/${r.courseId}`, dueOn: r.dueOn, state, daysLeft },
    });
  }
  return claim.claimed.length ? claim : null;
}

/** A claim not tried (the run stops): as it was before, so a later run claims it again. In a transaction. */
function unclaim(s: ReturnType<typeof statements>, at: number, claim: Claim) {
  for (const c of claim.claimed) {
    if (c.attempts === 1) s.unclaim.run(c.id);
    else s.reclaimLater.run(at, c.id);
  }
  for (const id of claim.skipped) s.unclaim.run(id);
}

/** One person's mail for their claimed reminders; true when the mail server took it. */
async function sendPerson(s: ReturnType<typeof statements>, services: ReminderServices, scope: RunScope, { person, claimed }: Claim) {
  const { organization, origin, base, at } = scope;
  const language = mailLanguage(person, organization);
  const t = await scope.translator(language);
  const unsubscribeUrl = `${origin}/reminders/unsubscribe?token=${unsubscribeToken(services, organization.id, person.id)}`;
  const mail = composeReminder(t, {
    language,
    organization: organization.name,
    name: fullName(person),
    items: claimed.map((c) => c.item),
    unsubscribeUrl,
    settingsUrl: `${origin}/profile/settings`,
  });
  try {
    await services.mailer.send({ to: person.email, ...mail, headers: unsubscribeHeaders(unsubscribeUrl) });
  } catch {
    base.db.$client.transaction(() => {
      for (const c of claimed) s.failed.run(at + retryMinutes(c.attempts) * 60, c.id);
    })();
    return false;
  }
  // Recorded with the next claims (one commit for both): if the process stops before, these stay `sending`
  // and become `unknown`, which is never sent again either.
  scope.sent.add(claimed.map((c) => c.id));
  return true;
}

const retryMinutes = (attempts: number) => RETRY_MINUTES[Math.min(attempts, RETRY_MINUTES.length) - 1] ?? RETRY_MINUTES[0];

/** RFC 8058: the address a mail client posts `List-Unsubscribe=One-Click` to, without asking anything more. */
function unsubscribeHeaders(url: string) {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

// ---- The weekly digest ---------------------------------------------------------------------------------------

interface OverdueRow {
  userId: number;
  person: { firstName: string; lastName: string; email: string };
  courseId: number;
  courseTitle: string;
  groupId: number | null;
  dueOn: string;
}

/**
 * Once in each ISO week of the organization (from Monday 08:00, or the first run after it): organization
 * admins get every overdue person, group admins those of their groups' assignments. Decided once a week
 * per admin: with nobody overdue then, it is recorded as `empty` and nothing is sent.
 */
async function sendDigests(
  sqlite: Database.Database,
  services: ReminderServices,
  {
    translator,
    organization,
    origin,
    today,
    at,
  }: { translator: RunScope["translator"]; organization: Organization; origin: string; today: string; at: number },
) {
  const week = isoWeek(today).key;
  const out = { sent: 0, failed: 0 };
  const recipients = sqlite
    .prepare<
      [string, number, number],
      { id: number; email: string; firstName: string; lastName: string; language: string | null; role: string }
    >(
      `select u.id, u.email, u.first_name as firstName, u.last_name as lastName, u.language, u.role
       from users u
       left join reminder_digests d on d.user_id = u.id and d.week = ?
       where u.disabled_at is null and u.role is not null
         and (u.role = 'admin' or exists (select 1 from group_members m where m.user_id = u.id and m.is_admin = 1))
         and not exists (select 1 from reminder_opt_outs o where o.user_id = u.id)
         and (d.id is null or (d.status = 'failed' and d.attempts < ? and d.retry_at <= ?))
       order by u.id`,
    )
    .all(week, MAX_ATTEMPTS, at);
  if (recipients.length === 0) return out;
  // Overdue rows, then the people and courses they name, each read once (no join or sort in SQL: this
  // reads every open row of the organization, 200,000 in the bench).
  const people = new Map(
    sqlite
      .prepare<[], { id: number; firstName: string; lastName: string; email: string }>(
        "select id, first_name as firstName, last_name as lastName, email from users where disabled_at is null and role is not null",
      )
      .all()
      .map((p) => [p.id, p]),
  );
  const titles = new Map(
    sqlite
      .prepare<[], { id: number; title: string }>("select id, title from courses")
      .all()
      .map((c) => [c.id, c.title]),
  );
  const overdue: OverdueRow[] = [];
  for (const r of sqlite
    .prepare<[string], { userId: number; courseId: number; groupId: number | null; dueOn: string }>(
      `select ap.user_id as userId, a.course_id as courseId, a.group_id as groupId, ap.due_on as dueOn
       from assignment_people ap join assignments a on a.id = ap.assignment_id
       where ap.completed_at is null and ap.left_at is null and ap.due_on < ?`,
    )
    .iterate(today)) {
    const person = people.get(r.userId);
    if (person) overdue.push({ ...r, person, courseTitle: titles.get(r.courseId) ?? "" });
  }
  const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  overdue.sort(
    (a, b) =>
      before(a.courseTitle, b.courseTitle) ||
      a.courseId - b.courseId ||
      before(a.person.lastName, b.person.lastName) ||
      before(a.person.firstName, b.person.firstName) ||
      a.userId - b.userId,
  );
  const groupNames = new Map(
    sqlite
      .prepare<[], { id: number; name: string }>("select id, name from groups")
      .all()
      .map((g) => [g.id, g.name]),
  );
  const administered = sqlite.prepare<[number], { groupId: number }>(
    "select group_id as groupId from group_members where user_id = ? and is_admin = 1",
  );
  const claim = sqlite.prepare<unknown[], { id: number; attempts: number }>(`
    insert into reminder_digests (user_id, week, status, overdue, attempts, claimed_at) values (?, ?, ?, ?, ?, ?)
    on conflict (user_id, week) do update set status = excluded.status, overdue = excluded.overdue,
      attempts = reminder_digests.attempts + excluded.attempts, claimed_at = excluded.claimed_at, retry_at = null
      where reminder_digests.status = 'failed' and reminder_digests.attempts < ? and reminder_digests.retry_at <= ?
    returning id, attempts`);
  const line = (r: OverdueRow): DigestLine => ({
    name: fullName(r.person),
    email: r.person.email,
    courseTitle: r.courseTitle,
    dueOn: r.dueOn,
    daysOverdue: daysBetween(r.dueOn, today),
  });

  // Each section is worked out once, whoever gets it: the whole organization's by course, and each group's.
  let everything: { sections: DigestSection[]; people: number } | null = null;
  const ofGroup = new Map<number, OverdueRow[]>();
  for (const r of overdue) if (r.groupId !== null) (ofGroup.get(r.groupId) ?? ofGroup.set(r.groupId, []).get(r.groupId)!).push(r);
  const groupSections = new Map<number, DigestSection>();

  for (const admin of recipients) {
    let sections: DigestSection[];
    let overdueCount: number;
    const scope = admin.role === "admin" ? "organization" : "groups";
    if (scope === "organization") {
      if (!everything) {
        const byCourse = new Map<number, DigestSection>();
        for (const r of overdue) {
          let section = byCourse.get(r.courseId);
          if (!section)
            byCourse.set(r.courseId, (section = { title: r.courseTitle, url: `${origin}/courses/${r.courseId}`, lines: [], hidden: 0 }));
          if (section.lines.length < DIGEST_MAX_LINES) section.lines.push(line(r));
          else section.hidden!++;
        }
        everything = { sections: [...byCourse.values()], people: new Set(overdue.map((r) => r.userId)).size };
      }
      ({ sections, people: overdueCount } = everything);
    } else {
      const mine = administered
        .all(admin.id)
        .map((g) => g.groupId)
        .filter((id) => ofGroup.has(id));
      sections = mine
        .map((id) => {
          let section = groupSections.get(id);
          if (!section) {
            const rows = ofGroup.get(id)!;
            section = {
              title: groupNames.get(id) ?? "",
              url: `${origin}/groups/${id}`,
              lines: rows.slice(0, DIGEST_MAX_LINES).map(line),
              hidden: Math.max(0, rows.length - DIGEST_MAX_LINES),
            };
            groupSections.set(id, section);
          }
          return section;
        })
        .sort((a, b) => a.title.localeCompare(b.title));
      overdueCount = new Set(mine.flatMap((id) => ofGroup.get(id)!.map((r) => r.userId))).size;
    }
    if (overdueCount === 0) {
      claim.get(admin.id, week, "empty", 0, 0, at, MAX_ATTEMPTS, at);
      continue;
    }
    const got = claim.get(admin.id, week, "sending", overdueCount, 1, at, MAX_ATTEMPTS, at);
    if (!got) continue;
    const language = mailLanguage(admin, organization);
    const t = await translator(language);
    const unsubscribeUrl = `${origin}/reminders/unsubscribe?token=${unsubscribeToken(services, organization.id, admin.id)}`;
    const mail = composeDigest(t, {
      language,
      organization: organization.name,
      name: fullName(admin),
      scope,
      sections,
      people: overdueCount,
      dashboardUrl: scope === "organization" ? `${origin}/dashboard` : `${origin}/groups`,
      unsubscribeUrl,
    });
    try {
      await services.mailer.send({ to: admin.email, ...mail, headers: unsubscribeHeaders(unsubscribeUrl) });
      sqlite.prepare("update reminder_digests set status = 'sent', sent_at = ? where id = ?").run(at, got.id);
      out.sent++;
    } catch {
      sqlite
        .prepare("update reminder_digests set status = 'failed', retry_at = ? where id = ?")
        .run(at + retryMinutes(got.attempts) * 60, got.id);
      out.failed++;
    }
  }
  return out;
}

// ---- What the schedule asks ----------------------------------------------------------------------------------

/** Whether the organization has anything a run could act on: an open assignment, or an admin to digest. */
export function hasReminderWork(db: TenantDb) {
  return Boolean(db.$client.prepare("select 1 from assignment_people where completed_at is null and left_at is null limit 1").get());
}

/** Finished reminder runs older than a week leave the jobs table (one is queued every few minutes). */
export function pruneReminderJobs(db: TenantDb, now = new Date()) {
  db.$client
    .prepare("delete from jobs where kind = ? and status in ('done', 'failed') and finished_at < ?")
    .run(REMINDERS_JOB, toSeconds(now) - 7 * 86_400);
}
