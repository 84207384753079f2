import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { assignmentPeople, jobs, pathAssignmentPeople } from "../../db/tenant";
import type { ReminderServices } from "../../server/services";
import type { JobContext } from "./clone.server";
import { getOrganization } from "./organization.server";
import { markCutOffClaims, reminderClaims, SentQueue } from "./reminder-claims.server";
import { sendDigests } from "./reminder-digests.server";
import { byPerson, dueReminders, membershipsByPerson, type Candidate } from "./reminder-due.server";
import { claimPerson, giveBack, personScope, sendPerson, type PersonScope } from "./reminder-person.server";
import { runContext } from "./reminder-run.server";
import { getReminderSettings } from "./reminder-settings.server";

/**
 * Reminders by e-mail and the weekly digest (issue 34; docs/decisions/038-reminders.md). A background job
 * (REMINDERS_JOB, queued for each organization every few minutes by server/reminders.ts) works out, on the
 * clock it is given, which reminders are due:
 * Course assignments and learning path assignments (issue 49) alike:
 *  - `assigned`: the person was assigned within the last week and has not been told;
 *  - `before`: the due day is 1–N days away (N per organization, 3 by default);
 *  - `due`: the due day is today;
 *  - `overdue`: once in each week of being overdue (days 1–7 after the due day are week 1, and so on).
 * Day kinds go from 08:00 in the organization's time zone; an `assigned` mail goes at once and stands in
 * for the day kind that also applies that day (recorded as skipped). A person gets one mail per run, listing
 * every course and path due for a reminder.
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
 *
 * The parts, each in its own module: the settings (reminder-settings), turning reminders off
 * (reminder-opt-outs), who is due (reminder-due), claiming and recording (reminder-claims), one person's
 * claim and mail (reminder-person), the digests (reminder-digests, reminder-digest-sections) and the mails'
 * texts (reminder-mail). This module is the job and the order of a run.
 */

export const REMINDERS_JOB = "reminders.send";

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
  const settings = getReminderSettings(db);
  const run = runContext(db, services, organization, now);
  const result: RunResult = { reminders: 0, mails: 0, digests: 0, failed: 0, unknown: 0, more: false };
  const deadline = Date.now() + budgetMs;
  result.unknown += markCutOffClaims(db);

  if (settings.onAssignment || settings.beforeDue || settings.onDueDate || settings.whileOverdue) {
    const rows = dueReminders(db, settings, run);
    const claims = reminderClaims(db);
    const sent = new SentQueue(claims, run.at);
    const scope = personScope(run, claims, sent, rows.length ? membershipsByPerson(db) : new Map());
    const stop = () => stopping() || Date.now() > deadline;
    await sendReminders(scope, services, byPerson(rows), result, { pause, stop });
    db.$client.transaction(() => sent.flush())();
  }

  if (settings.weeklyDigest && run.dayKindsNow && !result.more && !stopping()) {
    const digests = await sendDigests(run, services);
    result.digests += digests.sent;
    result.failed += digests.failed;
  }
  return result;
}

/**
 * The people's reminders: claimed a chunk of people at a time (one commit, with the previous chunk's `sent`),
 * then mailed one by one. When the run must stop, those not tried yet are given back (`result.more`).
 */
async function sendReminders(
  scope: PersonScope,
  services: ReminderServices,
  people: Candidate[][],
  result: RunResult,
  { pause, stop }: { pause: () => Promise<void>; stop: () => boolean },
) {
  const sqlite = scope.run.db.$client;
  let failuresInARow = 0;
  let done = 0;
  for (let i = 0, size = 1; i < people.length; i += size, size = Math.min(size * 2, CLAIMS_AT_ONCE)) {
    const chunk = people.slice(i, i + size);
    const claims = sqlite.transaction(() => {
      scope.sent.flush();
      return chunk.map((mine) => claimPerson(scope, mine)).filter((c) => c !== null);
    })();
    for (const [k, claim] of claims.entries()) {
      if (stop() || failuresInARow >= FAILURES_IN_A_ROW) {
        // Those not tried yet are given back: the next run claims them again.
        sqlite.transaction(() => claims.slice(k).forEach((c) => giveBack(scope, c)))();
        result.more = true;
        return;
      }
      result.reminders += claim.claimed.length;
      if (await sendPerson(scope, services, claim)) {
        result.mails++;
        failuresInARow = 0;
      } else {
        result.failed++;
        failuresInARow++;
      }
      if (++done % 50 === 0) await pause();
    }
  }
}

// ---- What the schedule asks ----------------------------------------------------------------------------------

/** Whether the organization has anything a run could act on: an open assignment of a course or a learning path. */
export function hasReminderWork(db: TenantDb) {
  // No LIMIT: `get` steps to the first row only.
  const open = db
    .select({ one: sql`1` })
    .from(assignmentPeople)
    .where(and(isNull(assignmentPeople.completedAt), isNull(assignmentPeople.leftAt)))
    .get();
  if (open !== undefined) return true;
  const openPath = db
    .select({ one: sql`1` })
    .from(pathAssignmentPeople)
    .where(and(isNull(pathAssignmentPeople.completedAt), isNull(pathAssignmentPeople.leftAt)))
    .get();
  return openPath !== undefined;
}

/** Finished reminder runs older than a week leave the jobs table (one is queued every few minutes). */
export function pruneReminderJobs(db: TenantDb, now = new Date()) {
  db.delete(jobs)
    .where(
      and(
        eq(jobs.kind, REMINDERS_JOB),
        inArray(jobs.status, ["done", "failed"]),
        lt(jobs.finishedAt, new Date(now.getTime() - 7 * 86_400_000)),
      ),
    )
    .run();
}
