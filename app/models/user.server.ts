import { and, asc, count, eq, isNull, or } from "drizzle-orm";
import type { UserForm } from "./forms/users";
import type { PlatformConn, TenantConn } from "../../db/open";
import { superAdmins } from "../../db/platform";
import { magicLinks, passwordResets, sessions, users, type User, type UserRole } from "../../db/tenant";
import { roleIn, type AuthRealm } from "./auth/realm.server";
import { hashPassword, normalizeEmail } from "./auth/secrets.server";
import { contains } from "../utils/pagination";
import { recomputeUserMemberships } from "./group-rule-members.server";
import { getUserSettings, joinDefaultGroups } from "./user-settings.server";

export type { User };

export interface NewPerson {
  email: string;
  password?: string | null;
  firstName?: string;
  lastName?: string;
  phone?: string | null;
  language?: string | null;
  managedExternally?: boolean;
}

export async function createUser(db: TenantConn, input: NewPerson & { role: UserRole | null }) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const user = db
    .insert(users)
    .values({ ...personValues(input), passwordHash, role: input.role })
    .returning()
    .get();
  recomputeUserMemberships(db, user.id); // groups and import (issue 14): rule groups
  return user;
}

export async function createSuperAdmin(db: PlatformConn, input: NewPerson) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db
    .insert(superAdmins)
    .values({ ...personValues(input), passwordHash })
    .returning()
    .get();
}

/** Whether the platform has anyone to run it yet; the server says how to create the first one when not. */
export function hasSuperAdmin(db: PlatformConn) {
  return db.select({ id: superAdmins.id }).from(superAdmins).limit(1).get() !== undefined;
}

function personValues(input: NewPerson) {
  return {
    email: normalizeEmail(input.email),
    firstName: input.firstName ?? "",
    lastName: input.lastName ?? "",
    phone: input.phone ?? null,
    language: input.language ?? null,
    managedExternally: input.managedExternally ?? false,
  };
}

export function getUser(db: TenantConn, id: number) {
  return db.select().from(users).where(eq(users.id, id)).get();
}

/**
 * A person as /api shows them (`POST /api/auth/user`): the spec's own names (is_2fa_confirmed, type)
 * and snake_case for the rest. Never the password hash.
 */
export function personView(realm: AuthRealm, person: User, { twoFactorPending }: { twoFactorPending: boolean }) {
  return {
    id: person.id,
    email: person.email,
    first_name: person.firstName,
    last_name: person.lastName,
    phone: person.phone,
    language: person.language,
    type: roleIn(realm, person),
    organization_id: realm.organization?.id ?? null,
    is_2fa_confirmed: !twoFactorPending,
    managed_externally: person.managedExternally,
    created_at: person.createdAt.toISOString(),
  };
}

export { ASSIGNABLE_ROLES, userFormSchema, type UserForm } from "./forms/users";

export function findUserByEmail(db: TenantConn, email: string) {
  return db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
}

export function listUsers(db: TenantConn, { q, page, perPage }: { q?: string; page: number; perPage: number }) {
  const where = q ? or(contains(users.email, q), contains(users.firstName, q), contains(users.lastName, q)) : undefined;
  const items = db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  const total = db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  return { items, total };
}

/** Adds a person by an admin's hand; no password yet (they choose one from the invitation). */
export function addUser(db: TenantConn, input: UserForm): { ok: true; user: User } | { ok: false; fields: Record<string, string[]> } {
  if (findUserByEmail(db, input.email)) return { ok: false, fields: { email: ["validation.emailTaken"] } };
  const settings = getUserSettings(db); // groups and import (issue 14): the organization's defaults
  const user = db
    .insert(users)
    .values({
      email: normalizeEmail(input.email),
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      role: input.role,
      language: input.language ?? settings.defaultLanguage,
    })
    .returning()
    .get();
  joinDefaultGroups(db, user.id, settings);
  recomputeUserMemberships(db, user.id);
  return { ok: true, user };
}

/** Some of a person's fields: what is left out keeps its value (`PUT /api/users/{id}` sends only what changes). */
export type UserPatch = Partial<UserForm>;

/**
 * Saves an admin's edit: the fields given, and only those (the user screen gives all of them). A changed
 * e-mail address cancels every outstanding invitation, reset and sign-in link and ends the person's
 * sessions: a link sent to the old (perhaps mistyped) address must not work.
 */
export function editUser(
  db: TenantConn,
  id: number,
  input: UserPatch,
): { ok: true; user: User } | { ok: false; fields: Record<string, string[]> } | null {
  if (input.email !== undefined) {
    const other = findUserByEmail(db, input.email);
    if (other && other.id !== id) return { ok: false, fields: { email: ["validation.emailTaken"] } };
  }
  const before = getUser(db, id);
  if (!before) return null;
  const changes = definedOnly({
    email: input.email === undefined ? undefined : normalizeEmail(input.email),
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone,
    role: input.role,
    language: input.language,
  });
  if (changes.email !== undefined && changes.email !== before.email) {
    const now = new Date();
    db.update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, id), isNull(passwordResets.usedAt)))
      .run();
    db.update(magicLinks)
      .set({ usedAt: now })
      .where(and(eq(magicLinks.userId, id), isNull(magicLinks.usedAt)))
      .run();
    db.delete(sessions).where(eq(sessions.userId, id)).run();
  }
  if (Object.keys(changes).length === 0) return { ok: true, user: before };
  const user = db.update(users).set(changes).where(eq(users.id, id)).returning().get();
  if (user) recomputeUserMemberships(db, user.id); // groups and import (issue 14): rule groups
  return user ? { ok: true, user } : null;
}

/** The entries whose value is given (null included: it clears a field); undefined means "leave it". */
function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function setUserDisabled(db: TenantConn, id: number, disabled: boolean) {
  db.update(users)
    .set({ disabledAt: disabled ? new Date() : null })
    .where(eq(users.id, id))
    .run();
}

/** Removes a person and, by cascade, their sessions, tokens and memberships. */
export function deleteUser(db: TenantConn, id: number) {
  return db.delete(users).where(eq(users.id, id)).run().changes > 0;
}

export function countUsers(db: TenantConn) {
  return db.select({ n: count() }).from(users).get()?.n ?? 0;
}

/**
 * A person's own edit of their profile (/profile): name and interface language, nothing else. The same
 * plain update the profile page has always made: no e-mail change to guard, no membership recomputed.
 */
export function updateOwnProfile(db: TenantConn, id: number, profile: { firstName: string; lastName: string; language: string | null }) {
  db.update(users).set(profile).where(eq(users.id, id)).run();
}

/** The lesson player's instructions have been shown to this person (`POST /api/player-window`). */
export function markPlayerInstructionsShown(db: TenantConn, id: number, at = new Date()) {
  db.update(users).set({ playerInstructionsShownAt: at }).where(eq(users.id, id)).run();
}
