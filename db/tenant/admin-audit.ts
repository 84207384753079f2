import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id } from "../columns";
import { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_ROLES, ADMIN_AUDIT_SUBJECTS, ADMIN_AUDIT_VIA } from "../vocabulary";

/*
 * ——— The audit of what admins did (issue 44; app/models/admin-audit.server.ts,
 * docs/decisions/017-groups-and-import.md "Who a group admin may add") ———
 * One row per change an admin made: who, what, to whom, in which group (for a group's members and admins), what
 * else it was about (`detail`: the course and due day assigned, the type given), when and how (a page or /api).
 * Bulk actions on people (issue 50) write a row per person they changed.
 * The names are kept as they were, and the ids carry no foreign key: an entry outlives the person, the
 * group and the admin it names (ids are never reused), and deleting a person scans no audit for them.
 */
export { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_ROLES, ADMIN_AUDIT_SUBJECTS, ADMIN_AUDIT_VIA };
export type { AdminAuditAction } from "../vocabulary";

export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: id(),
    at: integer("at", { mode: "timestamp" }).notNull(),
    action: text("action", { enum: ADMIN_AUDIT_ACTIONS }).notNull(),
    /** The person who acted (a user of this organization); null for a super-admin or an organization's own API token. */
    actorId: integer("actor_id"),
    /** Their e-mail address as it was (a super-admin's too); null when an API token of the organization's own acted. */
    actorEmail: text("actor_email"),
    actorRole: text("actor_role", { enum: ADMIN_AUDIT_ROLES }).notNull(),
    via: text("via", { enum: ADMIN_AUDIT_VIA }).notNull(),
    /** The API token's name, when the change came through one. */
    actorToken: text("actor_token"),
    /** The person the change was about, and their e-mail address as it was. */
    subjectId: integer("subject_id").notNull(),
    subjectEmail: text("subject_email").notNull(),
    /** The group, for a change of its members or admins; null for the other actions. */
    groupId: integer("group_id"),
    groupName: text("group_name"),
    /** What else the change was about, as it was then: the course's title and due day, or the type given. */
    detail: text("detail"),
    /** What the change was about: a person (`subject_email` their address) or a course (`subject_email` its title). */
    subjectKind: text("subject_kind", { enum: ADMIN_AUDIT_SUBJECTS }).notNull().default("person"),
    /** From where: the address of the request that made the change (or started the bulk job); null before 30 Nov 2026. */
    ip: text("ip"),
  },
  // A person's page lists what admins changed about them (issue 50).
  // The retention sweep deletes what is older than the organization keeps (server/audit-retention.ts).
  (t) => [index("admin_audit_subject_idx").on(t.subjectId, t.id), index("admin_audit_at_idx").on(t.at)],
);

export type AdminAuditEntry = typeof adminAudit.$inferSelect;
