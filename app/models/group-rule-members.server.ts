import { asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courseCompletions, groupMembers, groupRules, groups, users, type Group, type GroupRule } from "../../db/tenant";
import { assignJoined, markLeft } from "./assignment-membership.server";

/**
 * Rule groups' members (docs/product.md §3 "Rule groups: rule, operator, value";
 * docs/decisions/017-groups-and-import.md): what each rule means as SQL over `users`, and bringing the rule
 * members up to date — for the one person who changed, or for the one group whose rules changed and the
 * groups whose rules name it — never by rescanning everyone on every request. Members added by hand are
 * never removed here.
 */

export function listRules(db: TenantConn, groupId: number) {
  return db.select().from(groupRules).where(eq(groupRules.groupId, groupId)).orderBy(asc(groupRules.id)).all();
}

export function ruleValue(rule: GroupRule) {
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
export function dependentGroupIds(db: TenantConn, groupId: number, edges = ruleEdges(db)): number[] {
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
  // Only the people who joined or left are assigned or kept as history (app/models/assignment-membership.server.ts).
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
    const group = db.select().from(groups).where(eq(groups.id, id)).get();
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
