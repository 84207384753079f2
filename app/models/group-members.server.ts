import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { groupMembers, users } from "../../db/tenant";
import { assignJoined, markLeft } from "./assignment-membership.server";
import { recomputeUserMemberships } from "./group-rule-members.server";

/**
 * A group's members (docs/product.md §6): the plain writes (by hand: `source = manual`; each joins or leaves
 * the group's assignments and has their rule memberships recomputed), the groups a person belongs to, and
 * the members' progress in the group's courses. Changes made by someone who manages the group, checked and
 * audited, are app/models/group-membership.server.ts.
 */

export function addGroupMember(
  db: TenantConn,
  { groupId, userId, isAdmin = false }: { groupId: number; userId: number; isAdmin?: boolean },
) {
  db.insert(groupMembers)
    .values({ groupId, userId, isAdmin, source: "manual" })
    .onConflictDoUpdate({ target: [groupMembers.groupId, groupMembers.userId], set: { isAdmin, source: "manual" } })
    .run();
  assignJoined(db, groupId, [userId]);
}

/** The groups a person belongs to, and whether they administer each (the viewer's groups, app/kernel/viewer.server.ts). */
export function membershipsOf(db: TenantConn, userId: number): { groupId: number; isAdmin: boolean }[] {
  return preparedOnce(db, "group.membershipsOf", () =>
    db
      .select({ groupId: groupMembers.groupId, isAdmin: groupMembers.isAdmin })
      .from(groupMembers)
      .where(eq(groupMembers.userId, sql.placeholder("userId")))
      .orderBy(asc(groupMembers.groupId))
      .prepare(),
  ).all({ userId });
}

/** The groups a person administers (docs/product.md §6: groups have admins who manage the group). */
export function administeredGroupIds(db: TenantConn, userId: number): number[] {
  return preparedOnce(db, "administeredGroupIds", () =>
    db
      .select({ id: groupMembers.groupId })
      .from(groupMembers)
      .where(and(eq(groupMembers.userId, sql.placeholder("userId")), eq(groupMembers.isAdmin, true)))
      .prepare(),
  )
    .all({ userId })
    .map((r) => r.id);
}

/** Adds people by hand (they stay whatever the rules say); group admins are members who administer. */
export function addMembers(db: TenantConn, groupId: number, userIds: number[], { admin = false }: { admin?: boolean } = {}) {
  if (userIds.length === 0) return 0;
  return db.transaction((tx) => {
    const existing = tx
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, userIds))
      .all()
      .map((u) => u.id);
    for (const userId of existing) {
      tx.insert(groupMembers)
        .values({ groupId, userId, isAdmin: admin, source: "manual" })
        .onConflictDoUpdate({
          target: [groupMembers.groupId, groupMembers.userId],
          set: admin ? { isAdmin: true, source: "manual" } : { source: "manual" },
        })
        .run();
      assignJoined(tx, groupId, [userId]);
      recomputeUserMemberships(tx, userId);
    }
    return existing.length;
  });
}

/** Removes a person from the group; a rule member who still matches comes back at the next recompute. */
export function removeMember(db: TenantConn, groupId: number, userId: number) {
  return removeMembers(db, groupId, [userId]).length > 0;
}

/** Removes people from the group at once; each one's rule groups recomputed (a rule member who still matches comes back). */
export function removeMembers(db: TenantConn, groupId: number, userIds: number[], now = new Date()) {
  if (userIds.length === 0) return [];
  return db.transaction((tx) => {
    const gone = tx
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, userIds)))
      .returning({ userId: groupMembers.userId })
      .all()
      .map((m) => m.userId);
    markLeft(tx, groupId, gone, now);
    for (const userId of gone) recomputeUserMemberships(tx, userId);
    return gone;
  });
}

/** The group's memberships of these people, by person. */
export function groupMembershipsOf(db: TenantConn, groupId: number, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, typeof groupMembers.$inferSelect>();
  const rows = db
    .select()
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, userIds)))
    .all();
  return new Map(rows.map((m) => [m.userId, m]));
}

export function setMemberAdmin(db: TenantConn, groupId: number, userId: number, isAdmin: boolean) {
  // An admin is kept by hand: a rule change must not drop the person who manages the group.
  return (
    db
      .update(groupMembers)
      .set(isAdmin ? { isAdmin, source: "manual" } : { isAdmin })
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
      .run().changes > 0
  );
}

/** Which of these people are in the group by hand (not only by its rules), in one query. */
export function manualMemberIds(db: TenantConn, groupId: number, userIds: number[]): Set<number> {
  if (userIds.length === 0) return new Set();
  return new Set(
    db
      .select({ id: groupMembers.userId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.source, "manual"), inArray(groupMembers.userId, userIds)))
      .all()
      .map((r) => r.id),
  );
}

export function getMembership(db: TenantConn, groupId: number, userId: number) {
  return db
    .select()
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .get();
}

/** `POST groups/{id}/attach` (docs/product.md §7): what to attach, documented by this schema. */
export const attachSchema = z
  .object({
    user_ids: z.array(z.number().int().positive()).max(10_000).default([]),
    admin_ids: z.array(z.number().int().positive()).max(1_000).default([]),
    course_ids: z.array(z.number().int().positive()).max(1_000).default([]),
  })
  .refine((v) => v.user_ids.length + v.admin_ids.length + v.course_ids.length > 0, { message: "validation.required", path: ["user_ids"] });
export type AttachInput = z.infer<typeof attachSchema>;
