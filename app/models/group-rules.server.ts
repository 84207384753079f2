import { and, eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courses, groupRules, type GroupRule } from "../../db/tenant";
import type { RuleInput } from "./forms/groups";
import { dependentGroupIds, listRules, recomputeGroup } from "./group-rule-members.server";
import { getGroup } from "./group.server";

/**
 * A rule group's rules as an admin edits them (docs/decisions/017-groups-and-import.md): adding one (never
 * one that makes a circle of groups), removing one, and the rules in words. Each change recomputes the
 * group and the groups whose rules name it.
 */

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
