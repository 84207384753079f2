import { and, count, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courseCompletions, groupCourses, groupMembers, lessonProgress, lessons, users } from "../../db/tenant";
import { contains } from "../utils/pagination";
import type { GroupMemberListQuery } from "./forms/group-member-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * A group's members as a management list (issue 50; docs/decisions/046-management-lists.md): searched by name or
 * e-mail address, filtered to the group's admins or its other members and to active or deactivated people, sorted
 * by name, e-mail address or the order they were added in (the membership's row order: the table keeps no date), a
 * page at a time with the total; each of the page's members with their progress in the group's courses (what a group
 * admin sees, docs/product.md §6), counted for the page's people only. Who may open the group is the screen's
 * question (app/access/rules.ts `manageableGroupIds`, through the group screens' guards).
 */
export function groupMemberList(db: TenantConn, groupId: number, query: GroupMemberListQuery) {
  const { role, status } = query.filters;
  const q = query.q;
  const where = and(
    eq(groupMembers.groupId, groupId),
    q ? contains(sql`(${users.email} || ' ' || ${users.firstName} || ' ' || ${users.lastName})`, q) : undefined,
    role === "admin" ? eq(groupMembers.isAdmin, true) : role === "member" ? eq(groupMembers.isAdmin, false) : undefined,
    status === "disabled" ? isNotNull(users.disabledAt) : status === "active" ? isNull(users.disabledAt) : undefined,
  );
  // Only the search and the status read the person: without them the members are counted from the group's own index.
  const needsPerson = Boolean(q || status);
  const order = listOrder(
    query,
    { name: [users.lastName, users.firstName], email: users.email, added: sql`${groupMembers}.rowid` },
    users.id,
  );
  const list = listPage(query, {
    count: () =>
      (needsPerson
        ? db.select({ n: count() }).from(groupMembers).innerJoin(users, eq(users.id, groupMembers.userId)).where(where).get()
        : db.select({ n: count() }).from(groupMembers).where(where).get()
      )?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          disabled: sql<number>`${users.disabledAt} is not null`,
          isAdmin: groupMembers.isAdmin,
          source: groupMembers.source,
        })
        .from(groupMembers)
        .innerJoin(users, eq(users.id, groupMembers.userId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
  const progress = memberProgress(
    db,
    groupId,
    list.rows.map((r) => r.id),
  );
  return {
    ...list,
    rows: list.rows.map((r) => ({ ...r, disabled: Boolean(r.disabled), ...(progress.get(r.id) ?? { completed: 0, lessonsDone: 0 }) })),
    ...groupTotals(db, groupId),
  };
}

const groupCourseIds = (db: TenantConn, groupId: number) =>
  db.select({ id: groupCourses.courseId }).from(groupCourses).where(eq(groupCourses.groupId, groupId));

/** How many of the group's courses, and of their lessons, each of these people has completed. */
function memberProgress(db: TenantConn, groupId: number, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, { completed: number; lessonsDone: number }>();
  const courseIds = groupCourseIds(db, groupId);
  const lessonIds = db.select({ id: lessons.id }).from(lessons).where(inArray(lessons.courseId, courseIds));
  const rows = db
    .select({
      id: users.id,
      completed: sql<number>`(select count(*) from ${courseCompletions} where ${courseCompletions.userId} = "users"."id" and ${courseCompletions.courseId} in ${courseIds})`,
      lessonsDone: sql<number>`(select count(*) from ${lessonProgress} where ${lessonProgress.userId} = "users"."id" and ${lessonProgress.completedAt} is not null and ${lessonProgress.lessonId} in ${lessonIds})`,
    })
    .from(users)
    .where(inArray(users.id, userIds))
    .all();
  return new Map(rows.map((r) => [r.id, { completed: r.completed, lessonsDone: r.lessonsDone }]));
}

/** The group's courses and their lessons, counted: what each member's progress is out of. */
function groupTotals(db: TenantConn, groupId: number) {
  const courseIds = groupCourseIds(db, groupId);
  return {
    courseTotal: db.select({ n: count() }).from(groupCourses).where(eq(groupCourses.groupId, groupId)).get()?.n ?? 0,
    lessonTotal: db.select({ n: count() }).from(lessons).where(inArray(lessons.courseId, courseIds)).get()?.n ?? 0,
  };
}

export type GroupMemberRow = ReturnType<typeof groupMemberList>["rows"][number];
