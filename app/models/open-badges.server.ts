import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { badges, userBadges, users, type Badge } from "../../db/tenant";

/**
 * Open Badges 2.0 (https://www.imsglobal.org/sites/default/files/Badges/OBv2p0Final/index.html), hosted
 * verification: every earned badge is an Assertion at a public URL of the organization's own origin,
 * pointing at its BadgeClass and the Issuer profile, so a learner can take it to any backpack. The
 * recipient is a salted SHA-256 of the e-mail address, never the address itself.
 */
const CONTEXT = "https://w3id.org/openbadges/v2";

export function issuerProfile(origin: string, name: string) {
  return { "@context": CONTEXT, type: "Issuer", id: `${origin}/badges/issuer`, name, url: origin };
}

export function badgeClass(origin: string, badge: Badge) {
  return {
    "@context": CONTEXT,
    type: "BadgeClass",
    id: `${origin}/badges/classes/${badge.id}`,
    name: badge.name,
    description: badge.description || badge.name,
    image: `${origin}/badges/images/${badge.id}`,
    criteria: { narrative: `${badge.rule.replace(/_/g, " ")} ≥ ${badge.threshold}` },
    issuer: `${origin}/badges/issuer`,
  };
}

export function getBadgeClass(db: TenantConn, id: number) {
  return db.select().from(badges).where(eq(badges.id, id)).get();
}

export function assertion(db: TenantConn, origin: string, uid: string) {
  if (!/^[0-9a-f]{32}$/.test(uid)) return null;
  const row = db
    .select({ uid: userBadges.uid, awardedAt: userBadges.awardedAt, badgeId: userBadges.badgeId, email: users.email })
    .from(userBadges)
    .innerJoin(users, eq(users.id, userBadges.userId))
    .where(eq(userBadges.uid, uid))
    .get();
  if (!row) return null;
  const salt = row.uid.slice(0, 16);
  return {
    "@context": CONTEXT,
    type: "Assertion",
    id: `${origin}/badges/assertions/${row.uid}`,
    recipient: {
      type: "email",
      hashed: true,
      salt,
      identity: `sha256$${createHash("sha256")
        .update(row.email.toLowerCase() + salt)
        .digest("hex")}`,
    },
    badge: `${origin}/badges/classes/${row.badgeId}`,
    verification: { type: "hosted" },
    issuedOn: row.awardedAt.toISOString(),
  };
}
