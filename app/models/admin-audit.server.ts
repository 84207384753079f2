import { count, desc } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import {
  adminAudit,
  ADMIN_AUDIT_ACTIONS,
  ADMIN_AUDIT_ROLES,
  ADMIN_AUDIT_VIA,
  type AdminAuditAction,
  type AdminAuditEntry,
} from "../../db/tenant";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";

/**
 * The audit of what admins did (issue 44; docs/decisions/017-groups-and-import.md "Who a group admin may
 * add"): each change of a group's membership made by an organization admin, a group admin or a super-admin
 * managing the organization, and each person a bulk action deactivated, reactivated, gave a type or assigned a
 * course (issue 50), recorded in the transaction of the change itself. Organization admins read it
 * on /dashboard/users/audit and through `GET /api/audit`, newest first.
 */
export { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_ROLES, ADMIN_AUDIT_VIA };
export type AuditVia = (typeof ADMIN_AUDIT_VIA)[number];

export interface AuditChange {
  action: AdminAuditAction;
  subject: { id: number; email: string };
  /** The group whose members or admins changed; none for the other actions. */
  group?: { id: number; name: string } | null;
  /** The course's title and due day assigned, or the type given (issue 50). */
  detail?: string | null;
}

/** Who the viewer is, as an entry names them: the person (a super-admin by address only), and the API token if one acted. */
function actorOf(viewer: Viewer) {
  const actorRole = viewer.role === "super_admin" ? "super_admin" : manageableGroupIds(viewer) === null ? "admin" : "group_admin";
  return {
    actorId: actorRole !== "super_admin" && viewer.person ? viewer.person.id : null,
    actorEmail: viewer.person?.email ?? null,
    actorRole,
    actorToken: viewer.token?.name ?? null,
  } as const;
}

/** Records changes the viewer made (`at`: now, or the demo's moment). */
export function recordAudit(db: TenantConn, viewer: Viewer, via: AuditVia, changes: AuditChange[], at = new Date()) {
  if (changes.length === 0) return;
  const who = actorOf(viewer);
  db.insert(adminAudit)
    .values(
      changes.map((c) => ({
        at,
        action: c.action,
        ...who,
        via,
        subjectId: c.subject.id,
        subjectEmail: c.subject.email,
        groupId: c.group?.id ?? null,
        groupName: c.group?.name ?? null,
        detail: c.detail ?? null,
      })),
    )
    .run();
}

/** One page of the audit, newest first (ids grow with time, so the primary key orders it). */
export function listAudit(db: TenantConn, { page, perPage }: { page: number; perPage: number }) {
  const items: AdminAuditEntry[] = db
    .select()
    .from(adminAudit)
    .orderBy(desc(adminAudit.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  const total = db.select({ n: count() }).from(adminAudit).get()?.n ?? 0;
  return { items, total };
}

/** An entry as /api shows it. */
export function auditView(entry: AdminAuditEntry) {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    via: entry.via,
    actor: { id: entry.actorId, email: entry.actorEmail, role: entry.actorRole, token: entry.actorToken },
    person: { id: entry.subjectId, email: entry.subjectEmail },
    group: entry.groupId === null ? null : { id: entry.groupId, name: entry.groupName ?? "" },
    detail: entry.detail,
  };
}
