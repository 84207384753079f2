import { and, eq, sql } from "drizzle-orm";
import { preparedOnce } from "../../db/prepared";
import type { TenantConn } from "../../db/open";
import { groupMembers, groups } from "../../db/tenant";

export function createGroup(db: TenantConn, input: { name: string; description?: string }) {
  return db.insert(groups).values({ name: input.name, description: input.description ?? "" }).returning().get();
}

export function addGroupMember(db: TenantConn, { groupId, userId, isAdmin = false }: { groupId: number; userId: number; isAdmin?: boolean }) {
  db.insert(groupMembers)
    .values({ groupId, userId, isAdmin })
    .onConflictDoUpdate({ target: [groupMembers.groupId, groupMembers.userId], set: { isAdmin } })
    .run();
}

/** The groups a person administers (spec §6: groups have admins who manage the group). */
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
