import { and, asc, count, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { preparedOnce } from "../../db/prepared";
import type { TenantConn } from "../../db/open";
import {
  courseCompletions,
  courses,
  files,
  groupCourses,
  groupMembers,
  groupRules,
  groups,
  lessonProgress,
  lessons,
  users,
  type Group,
  type GroupRule,
} from "../../db/tenant";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { assignJoined, markLeft } from "./assignment.server";
import type { GroupForm, RuleInput } from "./forms/groups";

/**
 * Groups (docs/product.md §3 "Group: name, description, cover image, courses, users, admin groups"; "Rule groups:
 * rule, operator, value"). Members come by hand (`source = manual`) or by the group's rules
 * (`source = rule`). Rule members are recomputed when a person is created or changed, completes a course,
 * joins or leaves a group by hand, and when a group's rules change — for the one person, or for the one
 * group and the groups whose rules name it — never by rescanning everyone on every request
 * (docs/decisions/017-groups-and-import.md).
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

/** The groups a person administers (docs/product.md §6: groups have admins who manage the group). */
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

// ---------------------------------------------------------------------------------------------------
// Who may manage which group

export function canManageGroup(viewer: Viewer, groupId: number) {
  const ids = manageableGroupIds(viewer);
  return ids === null || ids.includes(groupId);
}

// ---------------------------------------------------------------------------------------------------
// Groups

export { groupFormSchema, ruleFormSchema, ruleSchema, RULE_OPERATORS, type GroupForm, type RuleInput } from "./forms/groups";

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

// ---------------------------------------------------------------------------------------------------
// Rules

export function listRules(db: TenantConn, groupId: number) {
  return db.select().from(groupRules).where(eq(groupRules.groupId, groupId)).orderBy(asc(groupRules.id)).all();
}

function ruleValue(rule: GroupRule) {
  if (rule.field === "completed_course") return String(rule.courseId);
  if (rule.field === "member_of_group") return String(rule.otherGroupId);
  return rule.value;
}

/** `other → [groups whose rules name other]`, for the order of recomputation and to refuse cycles. */
function ruleEdges(db: TenantConn) {
  const edges = new Map<number, number[]>();
  for (const r of db.select({ g: groupRules.groupId, other: groupRules.otherGroupId }).from(groupRules).all()) {
    if (r.other === null) continue;
    edges.set(r.other, [...(edges.get(r.other) ?? []), r.g]);
  }
  return edges;
}

/** The group and every group whose rules depend on it, directly or through others, in an order to recompute. */
function dependentGroupIds(db: TenantConn, groupId: number, edges = ruleEdges(db)): number[] {
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (id: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const next of edges.get(id) ?? []) visit(next);
    order.unshift(id);
  };
  visit(groupId);
  return order;
}

/** Adds a rule after checking what it names exists here and that it makes no circle of groups. */
export function addRule(
  db: TenantConn,
  groupId: number,
  rule: RuleInput,
): { ok: true; rule: GroupRule } | { ok: false; field: string; message: string } {
  const ref = Number(rule.value);
  if (rule.field === "completed_course" && !db.select({ id: courses.id }).from(courses).where(eq(courses.id, ref)).get()) {
    return { ok: false, field: "value", message: "validation.invalidOption" };
  }
  if (rule.field === "member_of_group") {
    if (!getGroup(db, ref)) return { ok: false, field: "value", message: "validation.invalidOption" };
    // A rule "member of Y" on X makes X depend on Y: refused when Y already depends on X (or is X).
    if (ref === groupId || dependentGroupIds(db, groupId).includes(ref))
      return { ok: false, field: "value", message: "groups.errors.cycle" };
  }
  return db.transaction((tx) => {
    const row = tx
      .insert(groupRules)
      .values({
        groupId,
        field: rule.field,
        operator: rule.operator,
        value: rule.field === "completed_course" || rule.field === "member_of_group" ? "" : rule.value,
        courseId: rule.field === "completed_course" ? ref : null,
        otherGroupId: rule.field === "member_of_group" ? ref : null,
      })
      .returning()
      .get();
    recomputeGroup(tx, groupId);
    return { ok: true as const, rule: row };
  });
}

export function removeRule(db: TenantConn, groupId: number, ruleId: number) {
  return db.transaction((tx) => {
    const gone =
      tx
        .delete(groupRules)
        .where(and(eq(groupRules.id, ruleId), eq(groupRules.groupId, groupId)))
        .run().changes > 0;
    if (gone) recomputeGroup(tx, groupId);
    return gone;
  });
}

const TEXT_COLUMNS = {
  email: users.email,
  first_name: users.firstName,
  last_name: users.lastName,
  phone: users.phone,
  language: users.language,
  role: users.role,
} as const;

function dayStart(value: string) {
  return Math.floor(Date.parse(`${value}T00:00:00Z`) / 1000);
}

/** One rule as a condition on `users` (text comparisons ignore case). */
function ruleCondition(rule: GroupRule): SQL {
  switch (rule.field) {
    case "created_at":
      // "before 2026-03-01": created before that day began; "after": created after that day ended (UTC).
      return rule.operator === "before"
        ? sql`${users.createdAt} < ${dayStart(rule.value)}`
        : sql`${users.createdAt} >= ${dayStart(rule.value) + 86_400}`;
    case "completed_course": {
      const done = sql`exists (select 1 from ${courseCompletions} where ${courseCompletions.userId} = ${users.id} and ${courseCompletions.courseId} = ${rule.courseId})`;
      return rule.operator === "is" ? done : sql`not ${done}`;
    }
    case "member_of_group": {
      const member = sql`exists (select 1 from ${groupMembers} gm where gm.user_id = ${users.id} and gm.group_id = ${rule.otherGroupId})`;
      return rule.operator === "is" ? member : sql`not ${member}`;
    }
    default: {
      const column = sql`lower(coalesce(${TEXT_COLUMNS[rule.field]}, ''))`;
      const value = rule.value.toLowerCase();
      switch (rule.operator) {
        case "equals":
          return sql`${column} = ${value}`;
        case "not_equals":
          return sql`${column} <> ${value}`;
        case "contains":
          return sql`instr(${column}, ${value}) > 0`;
        case "starts_with":
          return sql`substr(${column}, 1, ${value.length}) = ${value}`;
        case "ends_with":
          return sql`length(${column}) >= ${value.length} and substr(${column}, ${-value.length}) = ${value}`;
        default:
          return sql`0`;
      }
    }
  }
}

/**
 * Brings one rule group's rule members up to date — for everyone, or for one person. Members added by
 * hand are never removed here; a person who matches and is already a manual member stays manual.
 */
function recomputeOne(db: TenantConn, group: Group, rules: GroupRule[], userId?: number) {
  const onlyUser = userId === undefined ? sql`1` : sql`${users.id} = ${userId}`;
  const conditions = rules.map(ruleCondition);
  const matches =
    conditions.length === 0
      ? sql`0`
      : group.ruleMatch === "any"
        ? sql.join(
            conditions.map((c) => sql`(${c})`),
            sql` or `,
          )
        : sql.join(
            conditions.map((c) => sql`(${c})`),
            sql` and `,
          );
  const added = db
    .all<{ user_id: number }>(
      sql`insert into ${groupMembers} (group_id, user_id, is_admin, source)
        select ${group.id}, ${users.id}, 0, 'rule' from ${users} where (${onlyUser}) and (${matches})
        on conflict (group_id, user_id) do nothing returning user_id`,
    )
    .map((r) => r.user_id);
  const removed = db
    .all<{ user_id: number }>(
      sql`delete from ${groupMembers} where ${groupMembers.groupId} = ${group.id} and ${groupMembers.source} = 'rule'
        and ${userId === undefined ? sql`1` : sql`${groupMembers.userId} = ${userId}`}
        and ${groupMembers.userId} not in (select ${users.id} from ${users} where (${onlyUser}) and (${matches}))
        returning user_id`,
    )
    .map((r) => r.user_id);
  // Only the people who joined or left are assigned or kept as history (app/models/assignment.server.ts).
  assignJoined(db, group.id, added);
  markLeft(db, group.id, removed);
  return { added: added.length, removed: removed.length };
}

function rulesByGroup(db: TenantConn) {
  const byGroup = new Map<number, GroupRule[]>();
  for (const rule of db.select().from(groupRules).orderBy(asc(groupRules.id)).all()) {
    byGroup.set(rule.groupId, [...(byGroup.get(rule.groupId) ?? []), rule]);
  }
  return byGroup;
}

/** Recomputes a group (after its rules changed, or on "recompute now") and the groups that depend on it. */
export function recomputeGroup(db: TenantConn, groupId: number) {
  const byGroup = rulesByGroup(db);
  let added = 0;
  let removed = 0;
  for (const id of dependentGroupIds(db, groupId)) {
    const group = getGroup(db, id);
    if (!group) continue;
    const r = recomputeOne(db, group, byGroup.get(id) ?? []);
    added += r.added;
    removed += r.removed;
  }
  return { added, removed };
}

/** Rule groups in an order where a group comes after every group its rules name. */
function ruleGroupsInOrder(db: TenantConn) {
  const byGroup = rulesByGroup(db);
  const edges = ruleEdges(db);
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (id: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const next of edges.get(id) ?? []) visit(next);
    order.unshift(id);
  };
  for (const id of byGroup.keys()) visit(id);
  const all = new Map(
    db
      .select()
      .from(groups)
      .where(inArray(groups.id, [...byGroup.keys()]))
      .all()
      .map((g) => [g.id, g]),
  );
  return order.filter((id) => byGroup.has(id) && all.has(id)).map((id) => ({ group: all.get(id)!, rules: byGroup.get(id)! }));
}

/**
 * One person's rule memberships, after they were created or changed, completed a course, or joined or
 * left a group by hand (called from the user model and the learning events).
 */
export function recomputeUserMemberships(db: TenantConn, userId: number) {
  for (const { group, rules } of ruleGroupsInOrder(db)) recomputeOne(db, group, rules, userId);
}

/** Every rule group for everyone (after an import: one set-based pass instead of one per person). */
export function recomputeAllRuleGroups(db: TenantConn) {
  for (const { group, rules } of ruleGroupsInOrder(db)) recomputeOne(db, group, rules);
}

/** Human text of a rule's value: the course's title or group's name for those rules. */
export function describeRules(db: TenantConn, groupId: number) {
  return listRules(db, groupId).map((rule) => {
    let value = rule.value;
    if (rule.field === "completed_course")
      value = db.select({ t: courses.title }).from(courses).where(eq(courses.id, rule.courseId!)).get()?.t ?? "";
    if (rule.field === "member_of_group") value = getGroup(db, rule.otherGroupId!)?.name ?? "";
    return { id: rule.id, field: rule.field, operator: rule.operator, value };
  });
}

// ---------------------------------------------------------------------------------------------------
// Members and courses

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
  return db.transaction((tx) => {
    const gone =
      tx
        .delete(groupMembers)
        .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
        .run().changes > 0;
    if (gone) {
      markLeft(tx, groupId, [userId]);
      recomputeUserMemberships(tx, userId);
    }
    return gone;
  });
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

export function attachCourses(db: TenantConn, groupId: number, courseIds: number[]) {
  const existing = courseIds.length
    ? db
        .select({ id: courses.id })
        .from(courses)
        .where(inArray(courses.id, courseIds))
        .all()
        .map((c) => c.id)
    : [];
  for (const courseId of existing) db.insert(groupCourses).values({ groupId, courseId }).onConflictDoNothing().run();
  return existing.length;
}

export function detachCourse(db: TenantConn, groupId: number, courseId: number) {
  return (
    db
      .delete(groupCourses)
      .where(and(eq(groupCourses.groupId, groupId), eq(groupCourses.courseId, courseId)))
      .run().changes > 0
  );
}

export function groupCourseList(db: TenantConn, groupId: number) {
  return db
    .select({ id: courses.id, title: courses.title, forceGroups: courses.forceGroups, blockDefaultAccess: courses.blockDefaultAccess })
    .from(groupCourses)
    .innerJoin(courses, eq(courses.id, groupCourses.courseId))
    .where(eq(groupCourses.groupId, groupId))
    .orderBy(asc(courses.title))
    .all();
}

export function coursesNotInGroup(db: TenantConn, groupId: number) {
  const attached = db.select({ id: groupCourses.courseId }).from(groupCourses).where(eq(groupCourses.groupId, groupId));
  return db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(notInArray(courses.id, attached))
    .orderBy(asc(courses.title))
    .all();
}

/**
 * The group's members with their progress in the group's courses (what a group admin sees, docs/product.md §6):
 * how many of the group's courses each person has completed.
 */
export function listMembers(db: TenantConn, groupId: number, { page, perPage }: { page: number; perPage: number }) {
  const groupCourseIds = db.select({ id: groupCourses.courseId }).from(groupCourses).where(eq(groupCourses.groupId, groupId));
  const completed = sql<number>`(select count(*) from ${courseCompletions} where ${courseCompletions.userId} = ${users.id} and ${courseCompletions.courseId} in ${groupCourseIds})`;
  const groupLessonIds = db.select({ id: lessons.id }).from(lessons).where(inArray(lessons.courseId, groupCourseIds));
  const lessonsDone = sql<number>`(select count(*) from ${lessonProgress} where ${lessonProgress.userId} = ${users.id} and ${lessonProgress.completedAt} is not null and ${lessonProgress.lessonId} in ${groupLessonIds})`;
  const items = db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isAdmin: groupMembers.isAdmin,
      source: groupMembers.source,
      completed,
      lessonsDone,
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(sql`${groupMembers.isAdmin} desc`, asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  const total = db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, groupId)).get()?.n ?? 0;
  const courseTotal = db.select({ n: count() }).from(groupCourses).where(eq(groupCourses.groupId, groupId)).get()?.n ?? 0;
  const lessonTotal = db.select({ n: count() }).from(lessons).where(inArray(lessons.courseId, groupCourseIds)).get()?.n ?? 0;
  return { items, total, courseTotal, lessonTotal };
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
