import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { files, groupCourses, groupMembers, groupRules, groups, type Group } from "../../db/tenant";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";
import type { GroupForm } from "./forms/groups";
import { dependentGroupIds, listRules, recomputeGroup, ruleValue } from "./group-rule-members.server";

/**
 * Groups (docs/product.md §3 "Group: name, description, cover image, courses, users, admin groups"; "Rule groups:
 * rule, operator, value"). Members come by hand (`source = manual`) or by the group's rules
 * (`source = rule`). Rule members are recomputed when a person is created or changed, completes a course,
 * joins or leaves a group by hand, and when a group's rules change — for the one person, or for the one
 * group and the groups whose rules name it — never by rescanning everyone on every request
 * (docs/decisions/017-groups-and-import.md).
 *
 * This module: a group itself (creating, changing, deleting, listing, its /api view). The rest, by job:
 * `group-rules.server.ts` (editing a group's rules), `group-rule-members.server.ts` (what the rules mean and
 * recomputing their members), `group-members.server.ts` (members by hand, and the viewer's groups),
 * `group-courses.server.ts` (a group's courses), `group-membership.server.ts` (membership changes by those
 * who manage the group, audited).
 */

export function createGroup(
  db: TenantConn,
  input: { name: string; description?: string; coverFileId?: number | null; ruleMatch?: "all" | "any" },
) {
  return db
    .insert(groups)
    .values({
      name: input.name,
      description: input.description ?? "",
      coverFileId: input.coverFileId ?? null,
      ruleMatch: input.ruleMatch ?? "all",
    })
    .returning()
    .get();
}

// ---------------------------------------------------------------------------------------------------
// Who may manage which group

export function canManageGroup(viewer: Viewer, groupId: number) {
  const ids = manageableGroupIds(viewer);
  return ids === null || ids.includes(groupId);
}

// ---------------------------------------------------------------------------------------------------
// Groups

/** Is the cover an image of this organization? (A foreign key in a body is checked to exist here.) */
function coverIsImage(db: TenantConn, fileId: number | null) {
  if (fileId === null) return true;
  return Boolean(
    db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, fileId), eq(files.kind, "image")))
      .get(),
  );
}

export type GroupWrite = { ok: true; group: Group } | { ok: false; field: string; message: string };

export function saveGroup(db: TenantConn, id: number | null, input: GroupForm): GroupWrite | null {
  if (!coverIsImage(db, input.coverFileId)) return { ok: false, field: "coverFileId", message: "groups.errors.cover" };
  if (id === null) return { ok: true, group: createGroup(db, input) };
  return db.transaction((tx) => {
    const before = getGroup(tx, id);
    if (!before) return null;
    const group = tx.update(groups).set(input).where(eq(groups.id, id)).returning().get()!;
    if (before.ruleMatch !== group.ruleMatch) recomputeGroup(tx, id);
    return { ok: true as const, group };
  });
}

export function getGroup(db: TenantConn, id: number) {
  return db.select().from(groups).where(eq(groups.id, id)).get();
}

export function deleteGroup(db: TenantConn, id: number) {
  return db.transaction((tx) => {
    const dependents = dependentGroupIds(tx, id);
    const gone = tx.delete(groups).where(eq(groups.id, id)).run().changes > 0;
    // Rules that named the group went with it (cascade): the groups that had them are recomputed.
    for (const g of dependents) if (g !== id) recomputeGroup(tx, g);
    return gone;
  });
}

/** Every group of the organization by name, for choosing some (an SSO driver's default groups). */
export function groupChoices(db: TenantConn) {
  return db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(asc(groups.name)).all();
}

/**
 * The groups the viewer may manage by name, and whether rules keep their members, for choosing one: `listGroups`
 * without its counts, which read every membership of the organization (150,000 of 100,000 people: 6 ms a page).
 */
export function listGroupChoices(db: TenantConn, viewer: Viewer) {
  const ids = manageableGroupIds(viewer);
  if (ids && ids.length === 0) return [];
  return db
    .select({
      id: groups.id,
      name: groups.name,
      ruleGroup: sql<number>`exists (select 1 from group_rules gr where gr.group_id = ${groups.id})`,
    })
    .from(groups)
    .where(ids ? inArray(groups.id, ids) : undefined)
    .orderBy(asc(groups.name), asc(groups.id))
    .all()
    .map((g) => ({ ...g, ruleGroup: Boolean(g.ruleGroup) }));
}

/** Groups with their numbers of members, rules and courses; only those the viewer may manage. */
export function listGroups(db: TenantConn, viewer: Viewer, { q }: { q?: string } = {}) {
  const ids = manageableGroupIds(viewer);
  if (ids && ids.length === 0) return [];
  const where = and(ids ? inArray(groups.id, ids) : undefined, q ? sql`instr(lower(${groups.name}), lower(${q})) > 0` : undefined);
  const rows = db.select().from(groups).where(where).orderBy(asc(groups.name), asc(groups.id)).all();
  const counts = (table: typeof groupMembers | typeof groupRules | typeof groupCourses) =>
    new Map(
      db
        .select({ id: table.groupId, n: count() })
        .from(table)
        .groupBy(table.groupId)
        .all()
        .map((r) => [r.id, r.n]),
    );
  const members = counts(groupMembers);
  const rules = counts(groupRules);
  const courseCounts = counts(groupCourses);
  return rows.map((g) => ({ ...g, members: members.get(g.id) ?? 0, rules: rules.get(g.id) ?? 0, courses: courseCounts.get(g.id) ?? 0 }));
}

/** A group in /api (docs/product.md §7 "groups"). */
export function groupView(db: TenantConn, group: Group) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    cover_file_id: group.coverFileId,
    rule_match: group.ruleMatch,
    rules: listRules(db, group.id).map((r) => ({ id: r.id, field: r.field, operator: r.operator, value: ruleValue(r) })),
    course_ids: db
      .select({ id: groupCourses.courseId })
      .from(groupCourses)
      .where(eq(groupCourses.groupId, group.id))
      .all()
      .map((r) => r.id),
    member_count: db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, group.id)).get()?.n ?? 0,
    admin_ids: db
      .select({ id: groupMembers.userId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.isAdmin, true)))
      .all()
      .map((r) => r.id),
    created_at: group.createdAt.toISOString(),
  };
}
