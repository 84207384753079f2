import type Database from "better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { platformLoginThrottle, platformPasswordResets, platformSessions, superAdmins, type Organization } from "../../../db/platform";
import type { PlatformDb, TenantDb } from "../../../db/open";
import { loginThrottle, passwordResets, sessions, userActivity, users, type UserRole } from "../../../db/tenant";

/**
 * Where people sign in: an organization (its users, in its own database) or the platform (super-admins,
 * in the platform database). Both keep the same columns (db/auth-columns.ts), so one set of auth models
 * serves both; a realm names the tables to use.
 */
export interface AuthRealm {
  kind: "organization" | "platform";
  organization: Organization | null;
  db: BaseSQLiteDatabase<"sync", Database.RunResult, Record<string, unknown>>;
  people: typeof users;
  sessions: typeof sessions;
  resets: typeof passwordResets;
  throttle: typeof loginThrottle;
  /** When each person was last active (an organization's people; none kept for super-admins). */
  activity: typeof userActivity | null;
  twoFactorRequired: boolean;
}

export type PersonRole = UserRole | "super_admin";

export function organizationRealm(db: TenantDb, organization: Organization): AuthRealm {
  return {
    kind: "organization",
    organization,
    db: db as unknown as AuthRealm["db"],
    people: users,
    sessions,
    resets: passwordResets,
    throttle: loginThrottle,
    activity: userActivity,
    twoFactorRequired: organization.twoFactorRequired,
  };
}

/**
 * The platform's tables have the same columns as an organization's (less the role: every super-admin is
 * one), so they are used through the organization tables' types.
 */
export function platformRealm(db: PlatformDb, { twoFactorRequired }: { twoFactorRequired: boolean }): AuthRealm {
  return {
    kind: "platform",
    organization: null,
    db: db as unknown as AuthRealm["db"],
    people: superAdmins as unknown as typeof users,
    sessions: platformSessions as unknown as typeof sessions,
    resets: platformPasswordResets as unknown as typeof passwordResets,
    throttle: platformLoginThrottle as unknown as typeof loginThrottle,
    activity: null,
    twoFactorRequired,
  };
}

/** A person's role in the realm: super-admin on the platform; the stored role (or none) in an organization. */
export function roleIn(realm: AuthRealm, person: { role?: UserRole | null }): PersonRole | null {
  return realm.kind === "platform" ? "super_admin" : (person.role ?? null);
}
