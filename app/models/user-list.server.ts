import { and, count, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { groupMembers, groups, users } from "../../db/tenant";
import { contains } from "../utils/pagination";
import type { UserListQuery } from "./forms/user-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The people management list (issue 50; docs/decisions/046-management-lists.md): searched by name or e-mail
 * address, filtered by role, group, status and language, sorted by name, e-mail address or when added, a page at a
 * time. Who may read it is the screen's capability (read:user).
 */
export function userList(db: TenantConn, query: UserListQuery) {
  const { role, group, status, language } = query.filters;
  const q = query.q;
  const conditions: (SQL | undefined)[] = [
    q
      ? or(
          contains(users.email, q),
          contains(users.firstName, q),
          contains(users.lastName, q),
          contains(sql`(${users.firstName} || ' ' || ${users.lastName})`, q),
        )
      : undefined,
    role === "none" ? isNull(users.role) : role ? eq(users.role, role as "admin" | "learner") : undefined,
    group
      ? inArray(
          users.id,
          db
            .select({ id: groupMembers.userId })
            .from(groupMembers)
            .where(eq(groupMembers.groupId, Number(group))),
        )
      : undefined,
    status === "disabled" ? isNotNull(users.disabledAt) : status === "active" ? isNull(users.disabledAt) : undefined,
    language === "default" ? isNull(users.language) : language ? eq(users.language, language) : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(query, { name: [users.lastName, users.firstName], email: users.email, created: users.createdAt }, users.id);
  return listPage(query, {
    count: () => db.select({ n: count() }).from(users).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select()
        .from(users)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}

/** The groups people may be filtered by, by name. */
export function userListGroups(db: TenantConn) {
  return db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(groups.name, groups.id).all();
}
