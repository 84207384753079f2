import { sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { groupMembers, users, type Course } from "../../db/tenant";
import { courseAccess, mayBeRefused, type AccessDenied } from "../access/courses";
import { viewerOfMember, type Viewer } from "../access/viewer";

/**
 * Assigned people and the one access policy (app/access/courses.ts `courseAccess`): an assignment never opens
 * a course for someone the policy refuses, so the admin who assigns it is told who they are, and why.
 */

/** A person who is assigned a course the access policy does not let them open, and why (an `access.<reason>` message). */
export interface CannotOpen {
  userId: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  reason: AccessDenied;
}

/**
 * Of these people, those the access policy does not let open the course, each asked as the viewer they are
 * (app/access/viewer.ts `viewerOfMember`, their role and groups as they are now), by name. `people` is a list
 * of ids or SQL choosing `user_id`s (an assignment's open rows: read through their index, not a 10,000-id list).
 */
export function whoCannotOpen(
  db: TenantConn,
  base: Pick<Viewer, "organization" | "db" | "language">,
  course: Course,
  people: number[] | SQL,
) {
  const out: CannotOpen[] = [];
  if (Array.isArray(people) && people.length === 0) return out;
  const listed = Array.isArray(people) ? sql`(select value from json_each(${JSON.stringify(people)}))` : people;
  // Only those the access policy might refuse are read and asked (`mayBeRefused`), not 10,000 people;
  // `courseAccess` decides for them.
  // Read once, not once for the memberships and again for the people (50,000 probed for an assignment to a big group).
  const chosenIds = db
    .select({ id: users.id })
    .from(users)
    .where(sql`users.id in ${listed} and ${mayBeRefused(course)}`)
    .all()
    .map((r) => r.id);
  if (chosenIds.length === 0) return out;
  const chosen = sql`(select value from json_each(${JSON.stringify(chosenIds)}))`;
  const memberships = new Map<number, { groupId: number; isAdmin: boolean }[]>();
  for (const m of db
    .select({ userId: groupMembers.userId, groupId: groupMembers.groupId, isAdmin: groupMembers.isAdmin })
    .from(groupMembers)
    .where(sql`${groupMembers.userId} in ${chosen}`)
    .all()) {
    const list = memberships.get(m.userId);
    if (list) list.push({ groupId: m.groupId, isAdmin: m.isAdmin });
    else memberships.set(m.userId, [{ groupId: m.groupId, isAdmin: m.isAdmin }]);
  }
  for (const person of db.select().from(users).where(sql`${users.id} in ${chosen}`).all()) {
    const access = courseAccess(db, viewerOfMember(base, person, memberships.get(person.id) ?? []), course);
    if (!access.allowed)
      out.push({ userId: person.id, email: person.email, firstName: person.firstName, lastName: person.lastName, reason: access.reason });
  }
  // By name, as the screen lists them (only those refused are sorted).
  const key = (p: CannotOpen) => [p.lastName ?? "", p.firstName ?? ""] as const;
  return out.sort((a, b) => {
    const [al, af] = key(a);
    const [bl, bf] = key(b);
    return al < bl ? -1 : al > bl ? 1 : af < bf ? -1 : af > bf ? 1 : a.userId - b.userId;
  });
}
