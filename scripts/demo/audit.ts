import { and, asc, eq, inArray } from "drizzle-orm";
import { viewerOfMember } from "../../app/access/viewer";
import { recordAudit, type AuditChange } from "../../app/models/admin-audit.server";
import { membershipsOf } from "../../app/models/group-members.server";
import type { TenantDb } from "../../db/open";
import { groupMembers, groups, users } from "../../db/tenant";

/**
 * The audit of what admins did (issue 44; /dashboard/users/audit): the organization admin added the
 * hand-picked groups' members ("Onboarding", and Acme's two teams), spread over the last four months, oldest
 * first, so the screen opens on recent entries and pages back. Run after the groups exist; `now` keeps the
 * demo the same when seeded again as of the same moment.
 */
const HAND_PICKED = ["Onboarding", "Warehouse team", "Office team"];
const DAY = 86_400_000;

export function seedAuditDemo(db: TenantDb, { language, now = new Date() }: { language: "en" | "da"; now?: Date }) {
  const admin = db.select().from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  if (!admin) return;
  // From where (issue 50): an address of the documentation range (RFC 5737), as an office's would be.
  const viewer = { ...viewerOfMember({ organization: null, db, language }, admin, membershipsOf(db, admin.id)), address: "198.51.100.23" };
  const rows = db
    .select({ groupId: groups.id, groupName: groups.name, userId: users.id, email: users.email })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(inArray(groups.name, HAND_PICKED), eq(groupMembers.source, "manual")))
    .orderBy(asc(groups.id), asc(users.id))
    .all();
  // A batch of ten people at a time, one batch every few hours, from 120 days ago to a day ago.
  const batches = Math.ceil(rows.length / 10);
  const step = batches > 1 ? (119 * DAY) / (batches - 1) : 0;
  for (let b = 0; b < batches; b++) {
    const at = new Date(now.getTime() - 120 * DAY + Math.round(b * step));
    const changes: AuditChange[] = rows.slice(b * 10, b * 10 + 10).map((r) => ({
      action: "member_added",
      subject: { id: r.userId, email: r.email },
      group: { id: r.groupId, name: r.groupName },
    }));
    recordAudit(db, viewer, "page", changes, new Date(Math.floor(at.getTime() / 1000) * 1000));
  }
}
