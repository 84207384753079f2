import { and, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { groupMembers, ssoIdentities, users, type User } from "../../../db/tenant";
import { assignJoined } from "../assignment-membership.server";
import { normalizeEmail } from "../auth/secrets.server";
import { parseGroupIds } from "./drivers.server";
import { SsoFailure, type ProviderIdentity } from "./flow.server";

/**
 * The person a provider's identity stands for, in this organization only (its own database):
 *  1. the (issuer, subject) pair already linked to someone → that person;
 *  2. else an existing person with the same e-mail → linked, but only when the driver allows linking
 *     and the provider says the address is verified;
 *  3. else, when the driver creates people (just-in-time), a new person with its default role and groups.
 * Everything happens in one transaction. A person the driver manages gets their names from the provider.
 */
export function personForIdentity(db: TenantConn, identity: ProviderIdentity, now = new Date()): User {
  const { driver } = identity;
  const person = db.transaction((tx) => {
    const linked = tx
      .select({ user: users, identityId: ssoIdentities.id })
      .from(ssoIdentities)
      .innerJoin(users, eq(users.id, ssoIdentities.userId))
      .where(and(eq(ssoIdentities.issuer, identity.issuer), eq(ssoIdentities.subject, identity.subject)))
      .get();
    if (linked) {
      tx.update(ssoIdentities).set({ lastUsedAt: now }).where(eq(ssoIdentities.id, linked.identityId)).run();
      return refresh(tx, linked.user, identity);
    }
    const email = identity.email ? normalizeEmail(identity.email) : null;
    const existing = email ? tx.select().from(users).where(eq(users.email, email)).get() : undefined;
    if (existing) {
      if (!driver.linkByEmail || !identity.emailVerified) throw new SsoFailure("email_taken");
      link(tx, identity, existing.id, now);
      return refresh(tx, existing, identity);
    }
    if (!driver.createUsers) throw new SsoFailure("not_allowed");
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new SsoFailure("no_email");
    const created = tx
      .insert(users)
      .values({
        email,
        firstName: identity.firstName,
        lastName: identity.lastName,
        passwordHash: null,
        role: driver.defaultRole,
        managedExternally: driver.managedExternally,
      })
      .returning()
      .get();
    for (const groupId of parseGroupIds(driver.defaultGroupIds)) {
      tx.insert(groupMembers).values({ groupId, userId: created.id, isAdmin: false }).onConflictDoNothing().run();
      assignJoined(tx, groupId, [created.id]);
    }
    link(tx, identity, created.id, now);
    return created;
  });
  if (person.disabledAt) throw new SsoFailure("disabled");
  if (!person.role) throw new SsoFailure("organization");
  return person;
}

function link(tx: TenantConn, identity: ProviderIdentity, userId: number, now: Date) {
  tx.insert(ssoIdentities)
    .values({ driverId: identity.driver.id, issuer: identity.issuer, subject: identity.subject, userId, createdAt: now, lastUsedAt: now })
    .run();
}

/** A driver that manages its people keeps their names as the provider has them, and marks them managed. */
function refresh(tx: TenantConn, person: User, identity: ProviderIdentity): User {
  if (!identity.driver.managedExternally) return person;
  const names = {
    firstName: identity.firstName || person.firstName,
    lastName: identity.lastName || person.lastName,
  };
  if (person.managedExternally && names.firstName === person.firstName && names.lastName === person.lastName) return person;
  return tx
    .update(users)
    .set({ ...names, managedExternally: true })
    .where(eq(users.id, person.id))
    .returning()
    .get();
}
