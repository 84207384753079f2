import { and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import {
  adminAudit,
  ADMIN_AUDIT_ACTIONS,
  ADMIN_AUDIT_ROLES,
  ADMIN_AUDIT_SUBJECTS,
  ADMIN_AUDIT_VIA,
  type AdminAuditAction,
  type AdminAuditEntry,
} from "../../db/tenant";
import { manageableGroupIds } from "../access/rules";
import { contains } from "../utils/pagination";
import type { AuditListQuery } from "./forms/audit-list";
import { listPage } from "./list-page.server";
import { getUserSettings } from "./user-settings.server";
import type { Viewer } from "../access/viewer";

/**
 * The audit of what admins did (issue 44; docs/decisions/017-groups-and-import.md "Who a group admin may
 * add"): each change of a group's membership made by an organization admin, a group admin or a super-admin
 * managing the organization, and each person a bulk action deactivated, reactivated, gave a type, assigned a
 * course or a learning path, or mailed the invitation again (issue 50), recorded in the transaction of the change itself. Organization admins read it
 * on /dashboard/users/audit and through `GET /api/audit`, newest first.
 */
export { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_ROLES, ADMIN_AUDIT_SUBJECTS, ADMIN_AUDIT_VIA };
export type AuditVia = (typeof ADMIN_AUDIT_VIA)[number];
export type AdminAuditSubject = (typeof ADMIN_AUDIT_SUBJECTS)[number];

export interface AuditChange {
  action: AdminAuditAction;
  subject: { id: number; email: string };
  /** The group whose members or admins changed; none for the other actions. */
  group?: { id: number; name: string } | null;
  /** The course's title and due day assigned, or the type given (issue 50). */
  detail?: string | null;
  /** What the change is about: a person (the default; `subject.email` their address) or a course (`subject.email` its title). */
  subjectKind?: AdminAuditSubject;
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
        subjectKind: c.subjectKind ?? "person",
        ip: viewer.address,
      })),
    )
    .run();
}

/** What the audit list's search and filters ask of an entry. */
function auditWhere(query: Pick<AuditListQuery, "q" | "filters">) {
  const { action, via, subject } = query.filters;
  return and(
    query.q
      ? contains(
          sql`(${adminAudit.subjectEmail} || ' ' || coalesce(${adminAudit.actorEmail}, '') || ' ' || coalesce(${adminAudit.groupName}, '') || ' ' || coalesce(${adminAudit.detail}, '') || ' ' || coalesce(${adminAudit.ip}, ''))`,
          query.q,
        )
      : undefined,
    action ? eq(adminAudit.action, action as AdminAuditAction) : undefined,
    via ? eq(adminAudit.via, via as AuditVia) : undefined,
    subject ? eq(adminAudit.subjectKind, subject as AdminAuditSubject) : undefined,
  );
}

/** One page of the audit as its list asks (issue 50): searched and filtered, newest first unless asked otherwise (ids grow with time). */
export function auditList(db: TenantConn, query: AuditListQuery) {
  const where = auditWhere(query);
  const order = query.dir === "asc" ? asc(adminAudit.id) : desc(adminAudit.id);
  return listPage(query, {
    count: () => db.select({ n: count() }).from(adminAudit).where(where).get()?.n ?? 0,
    rows: (limit, offset): AdminAuditEntry[] => db.select().from(adminAudit).where(where).orderBy(order).limit(limit).offset(offset).all(),
  });
}

/** The most entries a CSV export holds: the newest that match. */
export const AUDIT_EXPORT_MAX = 100_000;

/** The entries the list's search and filters match, newest first, for its CSV: at most `AUDIT_EXPORT_MAX`. */
export function auditExportRows(db: TenantConn, query: Pick<AuditListQuery, "q" | "filters">) {
  return db.select().from(adminAudit).where(auditWhere(query)).orderBy(desc(adminAudit.id)).limit(AUDIT_EXPORT_MAX).all();
}

/** An entry as /api shows it. */
export function auditView(entry: AdminAuditEntry) {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    via: entry.via,
    actor: { id: entry.actorId, email: entry.actorEmail, role: entry.actorRole, token: entry.actorToken },
    subject: { kind: entry.subjectKind, id: entry.subjectId, name: entry.subjectEmail },
    person: entry.subjectKind === "person" ? { id: entry.subjectId, email: entry.subjectEmail } : null,
    group: entry.groupId === null ? null : { id: entry.groupId, name: entry.groupName ?? "" },
    detail: entry.detail,
    address: entry.ip,
  };
}

/** The most entries one turn of the retention sweep deletes: a short hold of the organization's write lock. */
export const AUDIT_PURGE_BATCH = 2_000;

/**
 * The moment before which the organization's audit is no longer kept (its `audit_retention_days`, issue 50), or
 * null when it keeps everything.
 */
export function auditCutoff(db: TenantConn, now = new Date()): Date | null {
  const days = getUserSettings(db).auditRetentionDays;
  return days === null ? null : new Date(now.getTime() - days * 86_400_000);
}

/** Whether some entry is older than `cutoff` (along admin_audit_at_idx). */
export function hasAuditBefore(db: TenantConn, cutoff: Date): boolean {
  return db.select({ id: adminAudit.id }).from(adminAudit).where(lt(adminAudit.at, cutoff)).limit(1).get() !== undefined;
}

/** Deletes up to `AUDIT_PURGE_BATCH` entries older than `cutoff`, oldest first; how many it deleted. */
export function purgeAuditBefore(db: TenantConn, cutoff: Date): number {
  const oldest = db
    .select({ id: adminAudit.id })
    .from(adminAudit)
    .where(lt(adminAudit.at, cutoff))
    .orderBy(asc(adminAudit.at))
    .limit(AUDIT_PURGE_BATCH);
  return db.delete(adminAudit).where(inArray(adminAudit.id, oldest)).run().changes;
}
