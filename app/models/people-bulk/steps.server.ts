import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { toSeconds } from "../../../db/prepared";
import { assignmentPeople, assignments, courses, sessions, users } from "../../../db/tenant";
import { manageableGroupIds, mayAddToGroup, mayChangeAccountOf } from "../../access/rules";
import type { Viewer } from "../../access/viewer";
import { recordAudit, type AuditChange, type AuditVia } from "../admin-audit.server";
import { dueOnSql, localToday, stillValid } from "../assignment.server";
import { renewExpiredAssignees } from "../completion-cycle.server";
import { manualMemberIds } from "../group-members.server";
import { addToGroup, candidates, removeManyFromGroup } from "../group-membership.server";
import { recomputeUserMemberships } from "../group-rule-members.server";
import { invitationSlice, type InvitationMail } from "./invitations.server";
import { outcome, refuse, type BulkParams, type SliceContext, type SliceOutcome } from "./outcome.server";
import { pathSlice } from "./paths.server";

/**
 * One slice of a bulk action on people (issue 50; app/models/people-bulk/job.server.ts runs them): a few hundred
 * people, in one transaction, each person done, left as they were (nothing to change), or refused with a
 * reason. Whether the viewer may touch each person is app/access/rules.ts's answer, asked here per person.
 */
export type { BulkParams, BulkRefusal, SliceOutcome } from "./outcome.server";

/** People added to a group by hand: those the viewer may add (`mayAddToGroup`), in the audit as one change each. */
function addSlice(db: TenantConn, viewer: Viewer, groupId: number, ids: number[], via: AuditVia, now: Date): SliceOutcome {
  const o = outcome();
  const people = candidates(db, ids);
  // A group admin learns nothing of who has an account here: nobody by an id is out of their reach, as for mayAddToGroup.
  refuse(o, manageableGroupIds(viewer) === null ? "gone" : "not_managed", ids.length - people.size);
  const allowed: number[] = [];
  const byHand = manualMemberIds(db, groupId, [...people.keys()]);
  for (const [id, person] of people) {
    if (mayAddToGroup(viewer, person) !== "allowed") refuse(o, "not_managed");
    else if (byHand.has(id)) o.unchanged++;
    else allowed.push(id);
  }
  if (allowed.length) {
    const added = addToGroup(db, viewer, groupId, { userIds: allowed }, via, now);
    if (!added.ok) refuse(o, "not_managed", allowed.length);
    else o.done += allowed.length;
  }
  return o;
}

/** People taken out of a group: never one of its admins by a group admin (`mayRemoveFromGroup`). */
function removeSlice(db: TenantConn, viewer: Viewer, groupId: number, ids: number[], via: AuditVia, now: Date): SliceOutcome {
  const o = outcome();
  const removed = removeManyFromGroup(db, viewer, groupId, ids, via, now);
  if (!removed) {
    refuse(o, "not_managed", ids.length);
    return o;
  }
  o.done += removed.removed;
  refuse(o, "not_member", removed.notMember);
  refuse(o, "not_managed", removed.notManaged);
  return o;
}

/**
 * A course assigned to each person on their own, due on one day, as the course's assignments screen assigns to a
 * person (app/models/assignment.server.ts `createAssignment`, whose checks of the course and the viewer the job
 * made before its first slice): someone it is assigned to already is left as they are.
 */
function assignSlice(db: TenantConn, viewer: Viewer, params: BulkParams, ids: number[], { via, now }: SliceContext): SliceOutcome {
  const o = outcome();
  const courseId = params.courseId!;
  const emails = new Map(
    db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, ids))
      .all()
      .map((r) => [r.id, r.email] as const),
  );
  const existing = new Set(emails.keys());
  refuse(o, "gone", ids.length - existing.size);
  const already = new Set(
    db
      .select({ userId: assignments.userId })
      .from(assignments)
      .where(and(eq(assignments.courseId, courseId), inArray(assignments.userId, [...existing])))
      .all()
      .map((r) => r.userId),
  );
  o.unchanged += already.size;
  const fresh = [...existing].filter((id) => !already.has(id));
  if (fresh.length === 0) return o;
  const createdBy = viewer.role === "super_admin" ? null : (viewer.person?.id ?? null);
  const made = db
    .insert(assignments)
    .values(
      fresh.map((userId) => ({
        courseId,
        target: "person" as const,
        userId,
        dueKind: "date" as const,
        dueDate: params.dueDate!,
        createdBy,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: assignments.id, userId: assignments.userId })
    .all();
  const title = db.select({ title: courses.title }).from(courses).where(eq(courses.id, courseId)).get()?.title ?? "";
  recordAudit(
    db,
    viewer,
    via,
    made.map((r) => ({
      action: "course_assigned" as const,
      subject: { id: r.userId!, email: emails.get(r.userId!) ?? "" },
      detail: `${title} · ${params.dueDate}`,
    })),
    now,
  );
  const today = localToday(db, now);
  db.run(sql`insert into ${assignmentPeople} (assignment_id, user_id, assigned_at, due_on, completed_at)
    select ${assignments.id}, ${assignments.userId}, ${toSeconds(now)}, ${dueOnSql(today)}, cc.completed_at
    from ${assignments}
    left join course_completions cc on cc.user_id = ${assignments.userId} and cc.course_id = ${assignments.courseId} and ${stillValid(today)}
    where ${inArray(
      assignments.id,
      made.map((r) => r.id),
    )}
    on conflict (assignment_id, user_id) do nothing`);
  // Recertification: those whose completion has expired take the course again.
  renewExpiredAssignees(
    db,
    sql`ap.assignment_id in (${sql.join(
      made.map((r) => r.id),
      sql`, `,
    )})`,
    { today, now },
  );
  o.done += made.length;
  return o;
}

/** People deactivated (signed out everywhere) or reactivated; never the viewer themselves. */
function activeSlice(db: TenantConn, viewer: Viewer, ids: number[], disable: boolean, { via, now }: SliceContext): SliceOutcome {
  const o = outcome();
  const people = db
    .select({ id: users.id, email: users.email, disabledAt: users.disabledAt })
    .from(users)
    .where(inArray(users.id, ids))
    .all();
  refuse(o, "gone", ids.length - people.length);
  const change: number[] = [];
  const changes: AuditChange[] = [];
  for (const p of people) {
    if (!mayChangeAccountOf(viewer, p.id)) refuse(o, "self");
    else if ((p.disabledAt !== null) === disable) o.unchanged++;
    else {
      change.push(p.id);
      changes.push({ action: disable ? "deactivated" : "reactivated", subject: { id: p.id, email: p.email } });
    }
  }
  if (change.length === 0) return o;
  db.update(users)
    .set({ disabledAt: disable ? now : null })
    .where(and(inArray(users.id, change), disable ? isNull(users.disabledAt) : isNotNull(users.disabledAt)))
    .run();
  if (disable) db.delete(sessions).where(inArray(sessions.userId, change)).run();
  recordAudit(db, viewer, via, changes, now);
  o.done += change.length;
  return o;
}

/** People given a role (or none); never the viewer themselves. Groups kept by rules follow the new role. */
function roleSlice(
  db: TenantConn,
  viewer: Viewer,
  ids: number[],
  role: "learner" | "admin" | null,
  { via, now }: SliceContext,
): SliceOutcome {
  const o = outcome();
  const people = db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(inArray(users.id, ids)).all();
  refuse(o, "gone", ids.length - people.length);
  for (const p of people) {
    if (!mayChangeAccountOf(viewer, p.id)) refuse(o, "self");
    else if (p.role === role) o.unchanged++;
    else {
      db.update(users).set({ role }).where(eq(users.id, p.id)).run();
      recomputeUserMemberships(db, p.id);
      recordAudit(db, viewer, via, [{ action: "role_changed", subject: { id: p.id, email: p.email }, detail: role ?? "none" }], now);
      o.done++;
    }
  }
  return o;
}

/** Runs one slice of an action in one transaction; invitations it issued are mailed by the caller once it commits. */
export function runSlice(
  db: TenantConn,
  viewer: Viewer,
  action: string,
  params: BulkParams,
  ids: number[],
  { via, now, realm }: SliceContext,
): SliceOutcome & { mails?: InvitationMail[] } {
  return db.transaction((tx): SliceOutcome & { mails?: InvitationMail[] } => {
    switch (action) {
      case "add_to_group":
        return addSlice(tx, viewer, params.groupId!, ids, via, now);
      case "remove_from_group":
        return removeSlice(tx, viewer, params.groupId!, ids, via, now);
      case "assign_course":
        return assignSlice(tx, viewer, params, ids, { via, now });
      case "assign_path":
        return pathSlice(tx, viewer, params, ids, { via, now });
      case "resend_invitation":
        return invitationSlice(tx, viewer, ids, { via, now, realm });
      case "deactivate":
      case "reactivate":
        return activeSlice(tx, viewer, ids, action === "deactivate", { via, now });
      case "change_role":
        return roleSlice(tx, viewer, ids, params.role ?? null, { via, now });
      default:
        throw new Error(`unknown bulk action: ${action}`);
    }
  });
}
