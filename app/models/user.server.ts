import { eq } from "drizzle-orm";
import type { PlatformConn, TenantConn } from "../../db/open";
import { superAdmins } from "../../db/platform";
import { users, type User, type UserRole } from "../../db/tenant";
import { roleIn, type AuthRealm } from "./auth/realm.server";
import { hashPassword, normalizeEmail } from "./auth/secrets.server";

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
  return db
    .insert(users)
    .values({ ...personValues(input), passwordHash, role: input.role })
    .returning()
    .get();
}

export async function createSuperAdmin(db: PlatformConn, input: NewPerson) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.insert(superAdmins).values({ ...personValues(input), passwordHash }).returning().get();
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

export function setUserRole(db: TenantConn, id: number, role: UserRole | null) {
  db.update(users).set({ role }).where(eq(users.id, id)).run();
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
