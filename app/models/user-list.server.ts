import { and, count, eq, exists, gte, inArray, isNotNull, isNull, lt, notInArray, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { groupMembers, groups, userActivity, users } from "../../db/tenant";
import { contains } from "../utils/pagination";
import { SEEN_DAYS, type UserListQuery } from "./forms/user-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The people management list (issue 50; docs/decisions/046-management-lists.md): searched by name or e-mail
 * address, filtered by role, group, status, language and when last active, sorted by name, e-mail address, when
 * added or when last active, a page at a time. Who may read it is the screen's capability (read:user).
 */
export function userList(db: TenantConn, query: UserListQuery) {
  const where = userListWhere(db, query);
  const q = query.q;
  // In name order the index (users_name_idx) gives any page at once; but with a search it would have SQLite walk
  // all 100,000 in name order to test each, fetching every row from the table. Searched, the names are sorted as
  // expressions, which no index offers: one pass over the table, then only the matches sorted.
  const name = q ? [sql`${users.lastName} || ''`, sql`${users.firstName} || ''`] : [users.lastName, users.firstName];
  // When each was last active is joined: 16 against 36 ms for the first page in that order than a subquery a person.
  const order = listOrder(query, { name, email: users.email, created: users.createdAt, seen: userActivity.lastActiveAt }, users.id);
  return listPage(query, {
    count: () => userListCount(db, query),
    rows: (limit, offset) =>
      db
        .select({ user: users, lastActive: userActivity.lastActiveAt })
        .from(users)
        .leftJoin(userActivity, eq(userActivity.userId, users.id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}

/**
 * The people active since `days` ago, or (`before`) not since then but once. The recent few are found along the
 * activity's index (`in`); the many who have not been for months are tested as the list walks people in its own
 * order (`exists`): a count of half of 100,000 people took 41 against 24 ms the other way round, a page 37 against 6.
 */
function activeSince(db: TenantConn, days: number, before = false) {
  const cutoff = new Date(Date.now() - days * 86_400_000);
  if (before)
    return exists(
      db
        .select({ one: sql`1` })
        .from(userActivity)
        .where(and(eq(userActivity.userId, users.id), lt(userActivity.lastActiveAt, cutoff))),
    );
  return inArray(users.id, db.select({ id: userActivity.userId }).from(userActivity).where(gte(userActivity.lastActiveAt, cutoff)));
}

/** Only the members of these groups (a group admin's: app/access/rules.ts `manageableGroupIds`); anyone for null. */
function memberOfAny(db: TenantConn, within: readonly number[] | null) {
  if (!within) return undefined;
  const members = db
    .select({ id: groupMembers.userId })
    .from(groupMembers)
    .where(inArray(groupMembers.groupId, within.length ? [...within] : [-1]));
  return inArray(users.id, members);
}

/**
 * Every id the list's search and filters match (its sort and page aside), in id order: "all N that match" of a bulk
 * action; only the members of `within` when given (a group admin's groups: app/access/rules.ts `manageableGroupIds`).
 */
export function userListIds(
  db: TenantConn,
  query: Pick<UserListQuery, "q" | "filters">,
  within: readonly number[] | null = null,
): number[] {
  const reach = memberOfAny(db, within);
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(userListWhere(db, query), reach))
    .orderBy(users.id)
    .all()
    .map((r) => r.id);
}

/**
 * The people an export holds (issue 50; `GET /api/users/export`): those the list's search and filters match, only
 * `only` when given (the ticked rows), only the members of `within` when given (a group admin's groups), in name
 * order as the list first shows them.
 */
export function userExportIds(
  db: TenantConn,
  query: Pick<UserListQuery, "q" | "filters">,
  within: readonly number[] | null,
  only?: readonly number[],
): number[] {
  const reach = memberOfAny(db, within);
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(userListWhere(db, query), reach, only ? inArray(users.id, only.length ? [...only] : [-1]) : undefined))
    .orderBy(users.lastName, users.firstName, users.id)
    .all()
    .map((r) => r.id);
}

/** How many people the list's search and filters match. */
export function userListCount(db: TenantConn, query: Pick<UserListQuery, "q" | "filters">): number {
  return db.select({ n: count() }).from(users).where(userListWhere(db, query)).get()?.n ?? 0;
}

/** Those of these ids that are people here. */
export function existingUserIds(db: TenantConn, ids: number[]): number[] {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, ids))
    .orderBy(users.id)
    .all()
    .map((r) => r.id);
}

/** What the list's search and filters ask of a person. */
function userListWhere(db: TenantConn, query: Pick<UserListQuery, "q" | "filters">) {
  const { role, group, status, language, seen } = query.filters;
  const q = query.q;
  const conditions: (SQL | undefined)[] = [
    // One LIKE over the address and the name together: a scan of 100,000 people asks one question of each.
    q ? contains(sql`(${users.email} || ' ' || ${users.firstName} || ' ' || ${users.lastName})`, q) : undefined,
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
    seen === "never"
      ? notInArray(users.id, db.select({ id: userActivity.userId }).from(userActivity))
      : seen
        ? activeSince(db, SEEN_DAYS[seen as keyof typeof SEEN_DAYS], seen === "over_90d")
        : undefined,
  ];
  return and(...conditions);
}

/** The groups people may be filtered by, by name. */
export function userListGroups(db: TenantConn) {
  return db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(groups.name, groups.id).all();
}
