import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import { groupMembers, users } from "../../db/tenant";
import { mayAddToGroup, mayChangeGroupAdmins, mayRemoveFromGroup, type GroupCandidate } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { recordAudit, type AuditChange, type AuditVia } from "./admin-audit.server";
import { addMembers, getMembership, groupMembershipsOf, removeMembers, setMemberAdmin } from "./group-members.server";
import { canManageGroup, getGroup } from "./group.server";
import { findUserByEmail } from "./user.server";

/**
 * A group's membership changed by someone who manages it (issue 44; docs/decisions/017-groups-and-import.md
 * "Who a group admin may add"): the group screens' buttons and `POST /api/groups/{id}/attach`. Whom a
 * viewer may add, remove or make an admin is app/access/rules.ts's answer; every change lands in the
 * audit (app/models/admin-audit.server.ts) in the same transaction. The plain writes these wrap
 * (app/models/group-members.server.ts `addMembers`, `removeMember`, `setMemberAdmin`) are for the demo and for what
 * the organization's settings do by themselves.
 */
export type MembershipRefusal = "not_managed" | "unknown";

type Person = GroupCandidate & { id: number; email: string };

/** The people named, with their role and groups, as the access rules need them. */
export function candidates(db: TenantConn, ids: number[]): Map<number, Person> {
  const people = new Map<number, Person>();
  if (ids.length === 0) return people;
  for (const u of db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(inArray(users.id, ids)).all())
    people.set(u.id, { ...u, groupIds: [] });
  const rows = db
    .select({ userId: groupMembers.userId, groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(inArray(groupMembers.userId, ids))
    .all();
  for (const r of rows) {
    const person = people.get(r.userId);
    if (person) person.groupIds = [...person.groupIds, r.groupId];
  }
  return people;
}

/** The group's current memberships of the people named: whether each is in it, and as an admin. */
function membershipsIn(db: TenantConn, groupId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, boolean>();
  const rows = db
    .select({ userId: groupMembers.userId, isAdmin: groupMembers.isAdmin })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, ids)))
    .all();
  return new Map(rows.map((r) => [r.userId, r.isAdmin]));
}

export type AddOutcome =
  | { ok: true; added: number; admins: number }
  | { ok: false; refused: MembershipRefusal; ids: number[] }
  | { ok: false; refused: "no_group" };

/**
 * Adds people by id (and, for organization admins, makes `adminIds` the group's admins): all or nothing.
 * Anyone the viewer may not add refuses the whole change; an organization admin's unknown ids are skipped
 * (and not counted), as they always were.
 */
export function addToGroup(
  db: TenantConn,
  viewer: Viewer,
  groupId: number,
  { userIds, adminIds = [] }: { userIds: number[]; adminIds?: number[] },
  via: AuditVia,
  at = new Date(),
): AddOutcome {
  const group = getGroup(db, groupId);
  if (!group || !canManageGroup(viewer, groupId)) return { ok: false, refused: "no_group" };
  if (adminIds.length && !mayChangeGroupAdmins(viewer)) return { ok: false, refused: "not_managed", ids: adminIds };
  const ids = [...new Set([...userIds, ...adminIds])];
  return db.transaction((tx) => {
    const people = candidates(tx, ids);
    const refused = ids.filter((id) => mayAddToGroup(viewer, people.get(id)) === "not_managed");
    if (refused.length) return { ok: false as const, refused: "not_managed" as const, ids: refused };
    const known = (list: number[]) => [...new Set(list)].filter((id) => people.has(id));
    const before = membershipsIn(tx, groupId, ids);
    const changes: AuditChange[] = [];
    const note = (action: AuditChange["action"], id: number) =>
      changes.push({ action, subject: { id, email: people.get(id)!.email }, group: { id: group.id, name: group.name } });
    const members = known(userIds);
    const admins = known(adminIds);
    addMembers(tx, groupId, members);
    addMembers(tx, groupId, admins, { admin: true });
    for (const id of admins) setMemberAdmin(tx, groupId, id, true);
    for (const id of new Set([...members, ...admins])) if (!before.has(id)) note("member_added", id);
    for (const id of admins) if (!before.get(id)) note("admin_granted", id);
    recordAudit(tx, viewer, via, changes, at);
    return { ok: true as const, added: members.length, admins: admins.length };
  });
}

const emailSchema = z.string().trim().min(1, "validation.required").max(254, "validation.email").email("validation.email");

/**
 * The group screens' "add by e-mail": an error key for the form, or null when added (the screens have checked
 * the group is the viewer's). A group admin gets the same answer for an address outside their reach and for
 * an address nobody has (`groups.errors.notManaged`); an organization admin is told nobody has it.
 */
export function addToGroupByEmail(db: TenantConn, viewer: Viewer, groupId: number, email: unknown, via: AuditVia): string | null {
  const address = emailSchema.safeParse(email);
  if (!address.success) return address.error.issues[0].message;
  const person = findUserByEmail(db, address.data);
  const added = person ? addToGroup(db, viewer, groupId, { userIds: [person.id] }, via) : null;
  if (added?.ok) return null;
  if (added?.refused === "no_group") return "groups.errors.notManaged";
  // Nobody has the address: the rule is asked about nobody, and answers a group admin as for someone out of reach.
  return mayAddToGroup(viewer, undefined) === "unknown" ? "groups.errors.noSuchUser" : "groups.errors.notManaged";
}

/** Takes a member out of the group; null when they are not a member, false when the viewer may not. */
export function removeFromGroup(
  db: TenantConn,
  viewer: Viewer,
  groupId: number,
  userId: number,
  via: AuditVia,
  at = new Date(),
): boolean | null {
  const outcome = removeManyFromGroup(db, viewer, groupId, [userId], via, at);
  if (!outcome || outcome.notMember) return null;
  return outcome.removed === 1;
}

/**
 * Takes many people out of a group at once (a bulk action's slice), each as `removeFromGroup` would: only members,
 * never one the viewer may not remove (`mayRemoveFromGroup`), each in the audit. Null when the viewer may not
 * manage the group or it is gone.
 */
export function removeManyFromGroup(
  db: TenantConn,
  viewer: Viewer,
  groupId: number,
  userIds: number[],
  via: AuditVia,
  at = new Date(),
): { removed: number; notMember: number; notManaged: number } | null {
  const group = getGroup(db, groupId);
  if (!group || !canManageGroup(viewer, groupId)) return null;
  return db.transaction((tx) => {
    const memberships = groupMembershipsOf(tx, groupId, userIds);
    const leaving = userIds.filter((id) => memberships.has(id) && mayRemoveFromGroup(viewer, memberships.get(id)!));
    const gone = removeMembers(tx, groupId, leaving, at);
    const emails = new Map(
      gone.length
        ? tx
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.id, gone))
            .all()
            .map((u) => [u.id, u.email])
        : [],
    );
    const changes: AuditChange[] = gone.map((id) => ({
      action: "member_removed",
      subject: { id, email: emails.get(id) ?? "" },
      group: { id: group.id, name: group.name },
    }));
    if (changes.length) recordAudit(tx, viewer, via, changes, at);
    const notMember = userIds.filter((id) => !memberships.has(id)).length;
    return { removed: gone.length, notMember, notManaged: userIds.length - notMember - gone.length };
  });
}

/** Makes a member the group's admin or takes it back; null when they are not a member, false when the viewer may not. */
export function changeGroupAdmin(
  db: TenantConn,
  viewer: Viewer,
  groupId: number,
  userId: number,
  isAdmin: boolean,
  via: AuditVia,
): boolean | null {
  const group = getGroup(db, groupId);
  const membership = group && canManageGroup(viewer, groupId) ? getMembership(db, groupId, userId) : undefined;
  if (!group || !membership) return null;
  if (!mayChangeGroupAdmins(viewer)) return false;
  if (membership.isAdmin === isAdmin) return true;
  return db.transaction((tx) => {
    const email = tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email ?? "";
    setMemberAdmin(tx, groupId, userId, isAdmin);
    const action = isAdmin ? "admin_granted" : "admin_revoked";
    recordAudit(tx, viewer, via, [{ action, subject: { id: userId, email }, group: { id: group.id, name: group.name } }]);
    return true;
  });
}
