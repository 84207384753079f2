import { and, asc, count, eq, inArray, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { groupMembers, users, type User } from "../../db/tenant";
import type { Page } from "../utils/pagination";
import type { Resource, ResourceScope } from "../utils/resource.server";
import { administeredGroupIds } from "./group.server";
import { contains } from "../utils/pagination";

/** A user as /api lists them (spec §2: name, e-mail and type). Never the password hash. */
export function userView(user: User) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    phone: user.phone,
    language: user.language,
    type: user.role,
    managed_externally: user.managedExternally,
    disabled: user.disabledAt !== null,
    created_at: user.createdAt.toISOString(),
  };
}
export type UserView = ReturnType<typeof userView>;

/**
 * Whom a viewer may see: an organization admin sees everyone; a group admin only the members of the
 * groups it administers (spec §6 "groups have admins who manage the group").
 */
function visibleUsers(scope: ResourceScope): SQL | undefined {
  const { viewer, db } = scope;
  if (viewer.role === "admin" || viewer.role === "super_admin") return undefined;
  const groupIds = viewer.person ? administeredGroupIds(db, viewer.person.id) : [];
  if (groupIds.length === 0) return eq(users.id, -1);
  const members = db.select({ id: groupMembers.userId }).from(groupMembers).where(inArray(groupMembers.groupId, groupIds));
  return inArray(users.id, members);
}

function pageOf(scope: ResourceScope, where: SQL | undefined, page: Page) {
  const items = scope.db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map(userView);
  const total = scope.db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  return { items, total };
}

/** The users a viewer may read, a page at a time (lists and the CSV export). */
export function listVisibleUsers(scope: ResourceScope, page: Page) {
  return pageOf(scope, visibleUsers(scope), page);
}

const noWrites = z.object({});

/** Users of the organization: reading now; adding, editing and removing come with the user screens. */
export const userResource: Resource<UserView, typeof noWrites, typeof noWrites> = {
  read: "read:user",
  write: "write:user",
  createSchema: noWrites,
  updateSchema: noWrites,
  list: (scope, page) => listVisibleUsers(scope, page),
  search: (scope, q, page) => {
    return pageOf(scope, and(visibleUsers(scope), or(contains(users.email, q), contains(users.firstName, q), contains(users.lastName, q))), page);
  },
  get: (scope, id) => {
    const row = scope.db.select().from(users).where(and(eq(users.id, id), visibleUsers(scope))).get();
    return row ? userView(row) : null;
  },
};
