import { eq } from "drizzle-orm";
import type { TenantConn, TenantDb } from "../../../db/open";
import { courses, learningPaths, type Job } from "../../../db/tenant";
import type { UserImportServices } from "../../../server/services";
import { isVisible } from "../../access/courses";
import { isPathVisible } from "../../access/paths";
import { mayStartPeopleBulk, type PeopleBulkAction } from "../../access/rules";
import { snapshotOf, viewerOfSnapshot, type Viewer, type ViewerSnapshot } from "../../access/viewer";
import type { Role } from "../../utils/capabilities";
import type { AuditVia } from "../admin-audit.server";
import { organizationRealm, type AuthRealm } from "../auth/realm.server";
import { bulkJobOf, bulkJobView, runBulkSlices, type BulkResult, type BulkRun } from "../bulk-job.server";
import type { JobContext } from "../clone.server";
import { JobError } from "../job.server";
import { getGroup } from "../group.server";
import { getOrganization } from "../organization.server";
import { getPath } from "../paths/paths.server";
import { mailInvitations } from "./invitations.server";
import { runSlice, type BulkParams, type BulkRefusal } from "./steps.server";

/**
 * Bulk actions on people as background jobs (issue 50; docs/decisions/046-management-lists.md): the people list's
 * ticked rows or every person its filters match, and `POST /api/users/bulk`. The request checks what the action
 * needs (the viewer may start it, the group or course is theirs to use) and fixes the people it is about; the job
 * then works through them a slice at a time, each slice one short transaction (the organization's write lock is
 * held for one slice, then other requests run), each person done, unchanged or refused with a reason, and
 * reports its progress. A slice is all-or-nothing, and keeps the job's place with it: a job stopped by the server
 * stopping or by a crash goes on from there (`runPeopleBulk`).
 */
export const PEOPLE_BULK_JOB = "people.bulk";

/** People a slice takes: 250 people added to a group hold the write lock 111 ms at most, 75 on average (npm run bench). */
export const SLICE = 250;

/** The most people one action may reach: every person of the largest organization the bench builds. */
export const MAX_PEOPLE = 200_000;

export type PeopleBulkPayload = {
  action: PeopleBulkAction;
  params: BulkParams;
  ids: number[];
  actor: ViewerSnapshot;
  via: AuditVia;
};

export type PeopleBulkResult = BulkResult<PeopleBulkAction, BulkRefusal>;

type Refusal = { ok: false; status: 400 | 403; field?: string; message: string };

/**
 * Checks a bulk action before any person is touched, and gives the job's payload: the action may be started by
 * this viewer, its group is one they manage, its course one they see and may assign. A refusal changes nothing.
 */
export function preparePeopleBulk(
  db: TenantConn,
  viewer: Viewer,
  input: { action: PeopleBulkAction; params: BulkParams; ids: number[] },
  via: AuditVia,
): { ok: true; payload: PeopleBulkPayload } | Refusal {
  const { action, params, ids } = input;
  const role = action === "change_role" ? (params.role ?? null) : undefined;
  if (!viewer.role || !mayStartPeopleBulk(viewer, action, { groupId: params.groupId, role: role as Role | null | undefined }))
    return { ok: false, status: 403, message: "errors.forbidden" };
  if ((action === "add_to_group" || action === "remove_from_group") && !getGroup(db, params.groupId!))
    return { ok: false, status: 400, field: "bulkGroup", message: "bulk.errors.group" };
  if (action === "assign_course") {
    const course = db.select().from(courses).where(eq(courses.id, params.courseId!)).get();
    if (!course || !isVisible(db, viewer, course)) return { ok: false, status: 400, field: "bulkCourse", message: "bulk.errors.course" };
  }
  if (action === "assign_path") {
    const path = getPath(db, params.pathId ?? 0);
    if (!path || !isPathVisible(db, viewer, path)) return { ok: false, status: 400, field: "bulkPath", message: "bulkMore.errors.path" };
  }
  if (ids.length === 0) return { ok: false, status: 400, field: "ids", message: "bulk.errors.none" };
  if (ids.length > MAX_PEOPLE) return { ok: false, status: 400, field: "ids", message: "bulk.errors.tooMany" };
  const actor = snapshotOf(viewer as Viewer & { role: Role });
  return { ok: true, payload: { action, params, ids: [...new Set(ids)].sort((a, b) => a - b), actor, via } };
}

/** The job: the people a slice at a time, with progress, and what was done, left and refused. */
export function peopleBulkJob(
  { db, job, organizationId, progress, pause, stopping }: JobContext,
  platform?: UserImportServices,
): Promise<Record<string, unknown>> {
  const payload = job.payload as unknown as PeopleBulkPayload;
  let mail: Mailing | undefined;
  if (payload.action === "resend_invitation") {
    const organization = platform ? getOrganization(platform.db, organizationId) : undefined;
    if (!platform) throw new JobError("Mailing invitations needs the platform's mailer.");
    if (!organization) throw new JobError("The organization no longer exists.");
    mail = { platform, realm: organizationRealm(db, organization) };
  }
  return runPeopleBulk(db, payload, { progress, pause, stopping, now: new Date(), job, mail });
}

/** How a job that mails invitations sends them: the platform's mailer, and the organization's sign-in realm. */
type Mailing = { platform: UserImportServices; realm: AuthRealm };

/**
 * Works through a bulk action's people (the job, and the demo's seeding as of its moment), a slice at a time
 * (app/models/bulk-job.server.ts `runBulkSlices`: each slice one transaction, the job's place kept with it, so a job
 * stopped by the server stopping or by a crash goes on where it was, not from the start).
 */
export async function runPeopleBulk(
  db: TenantDb,
  payload: PeopleBulkPayload,
  { now, mail, ...run }: BulkRun & { now: Date; mail?: Mailing },
): Promise<Record<string, unknown>> {
  const viewer = viewerOfSnapshot({ organization: null, db, language: "en" }, payload.actor);
  const result: PeopleBulkResult = await runBulkSlices(
    db,
    {
      action: payload.action,
      ids: payload.ids,
      size: SLICE,
      slice: (tx, ids) => runSlice(tx, viewer, payload.action, payload.params, ids, { via: payload.via, now, realm: mail?.realm }),
      // Invitations go once their slice has committed: at most once each, even if the job stops here (its place is kept).
      committed: async (slice, counts) => {
        if (!slice.mails?.length || !mail) return;
        const failed = await mailInvitations(mail.platform, mail.realm, slice.mails);
        counts.done -= failed;
        if (failed) counts.refused.mail_failed = (counts.refused.mail_failed ?? 0) + failed;
      },
    },
    run,
  );
  return result as unknown as Record<string, unknown>;
}

/** A bulk job as its page and /api show it. */
export const peopleBulkView = (job: Job) => bulkJobView<PeopleBulkAction, BulkRefusal>(job);

/** What a bulk job's page names beside its action: the group, or the course or path and its due day, or the type given. */
export function peopleBulkDetail(db: TenantConn, job: Job) {
  const { params } = job.payload as unknown as PeopleBulkPayload;
  return {
    group: params.groupId ? (getGroup(db, params.groupId)?.name ?? null) : null,
    course: params.courseId
      ? (db.select({ title: courses.title }).from(courses).where(eq(courses.id, params.courseId)).get()?.title ?? null)
      : null,
    path: params.pathId
      ? (db.select({ title: learningPaths.title }).from(learningPaths).where(eq(learningPaths.id, params.pathId)).get()?.title ?? null)
      : null,
    due: params.dueDate ?? null,
    role: params.role === undefined ? null : (params.role ?? "none"),
  };
}

/** The job, when it is a bulk action on people. */
export const peopleBulkJobOf = (job: Job | undefined) => bulkJobOf(job, PEOPLE_BULK_JOB);
