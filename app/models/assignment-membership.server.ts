import { eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce, toSeconds } from "../../db/prepared";
import { assignmentPeople, assignments } from "../../db/tenant";
import { dueOnSql, localToday, stillValid } from "./assignment.server";
import { renewExpiredAssignees } from "./completion-cycle.server";
import type { CourseCompleted } from "./events.server";
import { assignPathsJoined, markLeftPaths } from "./paths/assignments.server";

/**
 * An assignment's people kept in step (issue 34; a learning path's too, issue 49): people joining a group are assigned its assignments,
 * people leaving keep their rows as history, and completing a course marks its open assignments done.
 */

/**
 * People joined a group (by hand, a default group, SSO, an import, or a rule's recomputation): each is
 * assigned the group's assignments now, due N days from today for relative rules. Someone who had left
 * and comes back is assigned afresh unless they were done. Costs one indexed read when the group has no
 * assignments, which is the common case.
 */
export function assignJoined(db: TenantConn, groupId: number, userIds: readonly number[], now = new Date()) {
  if (userIds.length === 0) return;
  // The group's learning paths (issue 49) are assigned the same way.
  assignPathsJoined(db, groupId, userIds, now);
  const any = preparedOnce(db, "assignment.groupHasAny", () =>
    db
      .select({ id: assignments.id })
      .from(assignments)
      .where(eq(assignments.groupId, sql.placeholder("groupId")))
      .limit(1)
      .prepare(),
  ).get({ groupId });
  if (!any) return;
  const today = localToday(db, now);
  const at = toSeconds(now);
  db.run(sql`insert into ${assignmentPeople} (assignment_id, user_id, assigned_at, due_on, completed_at)
    select ${assignments.id}, j.value, ${at}, ${dueOnSql(today)}, cc.completed_at
    from ${assignments} join json_each(${JSON.stringify(userIds)}) j
    left join course_completions cc on cc.user_id = j.value and cc.course_id = ${assignments.courseId} and ${stillValid(today)}
    where ${assignments.groupId} = ${groupId}
    on conflict (assignment_id, user_id) do update set
      left_at = null,
      assigned_at = case when assignment_people.completed_at is null then excluded.assigned_at else assignment_people.assigned_at end,
      due_on = case when assignment_people.completed_at is null then excluded.due_on else assignment_people.due_on end
    where assignment_people.left_at is not null`);
  // Recertification: those whose completion has expired take the course again.
  renewExpiredAssignees(
    db,
    sql`ap.assignment_id in (select id from ${assignments} where group_id = ${groupId}) and ap.user_id in (select value from json_each(${JSON.stringify(userIds)}))`,
    { today, now },
  );
}

/** People left a group: their rows of its assignments stay as history, no longer open. */
export function markLeft(db: TenantConn, groupId: number, userIds: readonly number[], now = new Date()) {
  if (userIds.length === 0) return;
  markLeftPaths(db, groupId, userIds, now);
  db.run(sql`update ${assignmentPeople} set left_at = ${toSeconds(now)}
    where left_at is null and user_id in (select value from json_each(${JSON.stringify(userIds)}))
    and assignment_id in (select id from ${assignments} where group_id = ${groupId})`);
}

/** Learning event (app/models/subscribers.server.ts): completing a course marks its open assignments done. */
export function assignmentsForCourseCompleted(tx: TenantConn, e: CourseCompleted) {
  tx.run(sql`update ${assignmentPeople} set completed_at = ${toSeconds(e.at)}
    where user_id = ${e.userId} and completed_at is null
    and assignment_id in (select id from ${assignments} where course_id = ${e.courseId})`);
}
