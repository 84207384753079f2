import { and, eq, lt, lte, sql } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import { reminderDigests, reminders } from "../../db/tenant";
import type { ReminderKind } from "./reminder-mail.server";

/**
 * What became of each reminder (docs/decisions/038-reminders.md "Exactly once"): a run claims a reminder's
 * key in a transaction (`sending`) before its mail goes, then records it `sent` or `failed`; a claim it does
 * not try is given back. The weekly digests are claimed the same way (app/models/reminder-digests.server.ts).
 */

/** Sends of one reminder or digest at most (the first and the retries). */
export const MAX_ATTEMPTS = 5;
/** Minutes before a failed send is tried again, by attempts so far. */
const RETRY_MINUTES = [15, 60, 240, 720];

/** When a send that failed on its `attempts`-th try is tried again, in whole seconds. */
export function retryAt(at: number, attempts: number) {
  return at + (RETRY_MINUTES[Math.min(attempts, RETRY_MINUTES.length) - 1] ?? RETRY_MINUTES[0]) * 60;
}

/**
 * A timestamp's placeholder, bound as stored: whole seconds (db/prepared.ts `toSeconds`). Drizzle would
 * encode a bare placeholder from a Date in values and SET but pass it as it is in a condition; this one is
 * the same number everywhere.
 */
export const secondsAt = (name: string) => sql<Date>`${sql.placeholder(name)}`;

/** A reminder's key: unique in `reminders`, never mailed twice. */
export interface ReminderKey {
  userId: number;
  /** A course's assignment or a learning path's (their ids are two sequences). */
  subject: "course" | "path";
  assignmentId: number;
  kind: ReminderKind;
  dueOn: string;
  /** The week of being overdue; 0 for the other kinds. */
  week: number;
}

/**
 * Claims still `sending` are from a run that stopped mid-send (runs of one organization never overlap:
 * server/jobs.ts runs its jobs one at a time). Their mails may have gone out: `unknown`, never sent again.
 * The condition is the partial indexes' own (a literal), so finding them reads only those claims.
 */
export function markCutOffClaims(db: TenantDb) {
  const reminderRows = db.update(reminders).set({ status: "unknown" }).where(sql`${reminders.status} = 'sending'`).run();
  const digestRows = db.update(reminderDigests).set({ status: "unknown" }).where(sql`${reminderDigests.status} = 'sending'`).run();
  return reminderRows.changes + digestRows.changes;
}

/** The statements a run claims and records reminders with, prepared once per run (a run comes every few minutes: nothing kept between). */
export function reminderClaims(db: TenantDb) {
  const key = {
    userId: sql.placeholder("userId"),
    subject: sql.placeholder("subject"),
    assignmentId: sql.placeholder("assignmentId"),
    kind: sql.placeholder("kind"),
    dueOn: sql.placeholder("dueOn"),
    week: sql.placeholder("week"),
  };
  const target = [reminders.userId, reminders.subject, reminders.assignmentId, reminders.kind, reminders.dueOn, reminders.week];
  // A key not claimed yet, or one that failed and is due to be tried again.
  const claim = db
    .insert(reminders)
    .values({ ...key, status: "sending", attempts: 1, claimedAt: secondsAt("at") })
    .onConflictDoUpdate({
      target,
      set: { status: "sending", attempts: sql`${reminders.attempts} + 1`, claimedAt: secondsAt("at"), retryAt: null },
      setWhere: and(eq(reminders.status, "failed"), lt(reminders.attempts, MAX_ATTEMPTS), lte(reminders.retryAt, secondsAt("at"))),
    })
    .returning({ id: reminders.id, attempts: reminders.attempts })
    .prepare();
  const skip = db
    .insert(reminders)
    .values({ ...key, status: "skipped", attempts: 0, claimedAt: secondsAt("at") })
    .onConflictDoNothing({ target })
    .returning({ id: reminders.id })
    .prepare();
  const byId = eq(reminders.id, sql.placeholder("id"));
  const unclaim = db.delete(reminders).where(byId).prepare();
  const reclaimLater = db
    .update(reminders)
    .set({ status: "failed", attempts: sql`${reminders.attempts} - 1`, retryAt: secondsAt("at") })
    .where(byId)
    .prepare();
  const sent = db
    .update(reminders)
    .set({ status: "sent", sentAt: secondsAt("at") })
    .where(byId)
    .prepare();
  const failed = db
    .update(reminders)
    .set({ status: "failed", retryAt: secondsAt("at") })
    .where(byId)
    .prepare();
  return {
    /** The key claimed (`sending`), with its sends so far; undefined when another run holds it or it is done. */
    claim: (k: ReminderKey, at: number) => claim.get({ ...k, at }),
    /** The key recorded as said by a more timely mail; undefined when it already has a row. */
    skip: (k: ReminderKey, at: number) => skip.get({ ...k, at }),
    /** A claim not tried, as before it: gone when it was the first, else failed and due again at once. */
    giveBack: (id: number, attempts: number, at: number) => (attempts === 1 ? unclaim.run({ id }) : reclaimLater.run({ id, at })),
    /** A `skipped` row written with a claim that is given back. */
    unskip: (id: number) => unclaim.run({ id }),
    sent: (id: number, at: number) => sent.run({ id, at }),
    failed: (id: number, attempts: number, at: number) => failed.run({ id, at: retryAt(at, attempts) }),
  };
}

export type ReminderClaims = ReturnType<typeof reminderClaims>;

/** Reminders sent but not yet recorded as such: written in the next transaction of the run. */
export class SentQueue {
  #ids: number[] = [];
  constructor(
    readonly claims: ReminderClaims,
    readonly at: number,
  ) {}
  add(ids: number[]) {
    this.#ids.push(...ids);
  }
  /** Inside a transaction. */
  flush() {
    for (const id of this.#ids.splice(0)) this.claims.sent(id, this.at);
  }
}
