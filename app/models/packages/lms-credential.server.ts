import { and, desc, eq, isNull } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { xapiCredentials, type XapiCredential } from "../../../db/tenant";
import { createXapiCredential } from "../xapi/credentials.server";

/*
 * The credential the LMS stores its own statements with (launched, abandoned, waived, satisfied: cmi5 §9.3):
 * one per organization (purpose `lms`, never listed for admins), of scope `all`, made on first use. Its secret is thrown away when it is made, so it is
 * never usable over HTTP; it exists so that the LMS's statements are stored, read and counted as any
 * credential's are (docs/decisions/044-xapi-cmi5-packages.md, 6).
 */
const NAME = "Lectern (the LMS)";
/** Far enough not to matter; renewed when it passes. */
const DAYS = 365;

export function lmsCredential(db: TenantConn, now = new Date()): XapiCredential {
  const kept = db
    .select()
    .from(xapiCredentials)
    .where(and(eq(xapiCredentials.purpose, "lms"), isNull(xapiCredentials.revokedAt)))
    .orderBy(desc(xapiCredentials.id))
    .get();
  if (kept && kept.expiresAt.getTime() > now.getTime()) return kept;
  const made = createXapiCredential(db, { name: NAME, scope: "all", userId: null, days: DAYS, purpose: "lms", now });
  if ("error" in made) throw new Error(made.error);
  return made.credential;
}

/** The Agent the LMS's own statements name as their authority (the LRS writes it in: decision 043). */
export function lmsAuthority(origin: string) {
  return { objectType: "Agent", name: "Lectern", account: { homePage: origin, name: "lms" } };
}
