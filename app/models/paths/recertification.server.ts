import { sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { toSeconds } from "../../../db/prepared";
import { openRenewal } from "../completion-cycle.server";
import { stepRules } from "./enrolments.server";

/**
 * Recertification of learning paths (issue 49; docs/decisions/045-learning-paths.md), as a course's
 * (app/models/recertification.server.ts): a path valid N months gives each completion an expiry day
 * (`path_enrolments.expires_on`); `reassign_days_before` days before it, the recertification job assigns the
 * path again to its holders who are assigned it. In one transaction per person: their enrolment starts its
 * next cycle (only course completions from now on count towards it, as when a learner takes an expired path
 * again: `renewPath`), their done assignment rows of the path are due again on the expiry day, and a renewal
 * opens on each course of the path. The enrolment's cycle is the key: the update that starts the next cycle
 * names the one it found, so a second or concurrent run changes nothing. People who left the assignment's
 * group, whose assignment was taken back, or whose account is disabled are not re-assigned.
 */

interface Candidate {
  userId: number;
  pathId: number;
  expiresOn: string;
  cycle: number;
}

/**
 * Path completions whose re-assignment day has come on `today`: of a path that still has a validity, held by
 * an enabled person who has an assignment of the path they have not left. Read per path (a cross join keeps the
 * paths the outer loop) by the (path, expiry) index up to its day. The days before are at most the validity less
 * a day (a month counted as its shortest, as the editor checks): a one-month path given the default 30 would
 * otherwise be re-assigned the day it is done.
 */
function dueForPathReassignment(db: TenantConn, today: string, limit: number): Candidate[] {
  return db.all<Candidate>(sql`select pe.user_id as userId, pe.path_id as pathId, pe.expires_on as expiresOn, pe.cycle as cycle
    from learning_paths p
    cross join path_enrolments pe on pe.path_id = p.id
      and pe.expires_on is not null
      and pe.expires_on <= date(${today}, '+' || min(p.reassign_days_before, p.validity_months * 28 - 1) || ' days')
    join users u on u.id = pe.user_id
    where p.validity_months is not null
      and u.disabled_at is null
      and exists (select 1 from path_assignment_people pp join path_assignments pa on pa.id = pp.assignment_id
        where pa.path_id = pe.path_id and pp.user_id = pe.user_id and pp.left_at is null)
    order by pe.expires_on, pe.user_id, pe.path_id
    limit ${limit}`);
}

/** Whether anyone's path is due for re-assignment on `today` (the scheduler's cheap look). */
export function pathRecertificationDue(db: TenantConn, today: string) {
  return dueForPathReassignment(db, today, 1).length > 0;
}

/** Re-assigns one person's path for one expiry, in one transaction; whether this call did it. */
function reassignPath(db: TenantConn, c: Candidate, now: Date) {
  const courseIds = [...new Set(stepRules(db, c.pathId).flatMap((r) => r.courseIds))];
  return db.transaction((tx) => {
    const next = tx.run(sql`update path_enrolments set cycle = cycle + 1, completed_at = null, expires_on = null,
        enrolled_at = ${toSeconds(now)}
      where path_id = ${c.pathId} and user_id = ${c.userId} and cycle = ${c.cycle} and expires_on = ${c.expiresOn}`);
    if (next.changes === 0) return false;
    tx.run(sql`update path_assignment_people set assigned_at = ${toSeconds(now)}, due_on = ${c.expiresOn}, completed_at = null
      where user_id = ${c.userId} and left_at is null and completed_at is not null
      and assignment_id in (select id from path_assignments where path_id = ${c.pathId})`);
    for (const courseId of courseIds) openRenewal(tx, { userId: c.userId, courseId, now });
    return true;
  });
}

/**
 * Re-assigns every path due on `today`, a person at a time (`pause` between them so requests are answered
 * meanwhile). Safe to run again: what was done is not done twice. Returns how many were re-assigned.
 */
export async function reassignExpiringPaths(db: TenantConn, today: string, now: Date, pause?: () => Promise<void>) {
  let reassigned = 0;
  for (;;) {
    // Each one re-assigned leaves the list (its expiry is cleared); one refused would come back, so a batch that
    // re-assigns nobody ends the run.
    const batch = dueForPathReassignment(db, today, 100);
    let done = 0;
    for (const c of batch) {
      if (reassignPath(db, c, now)) done++;
      if (pause) await pause();
    }
    reassigned += done;
    if (done === 0) return reassigned;
  }
}
