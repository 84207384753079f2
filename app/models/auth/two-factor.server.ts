import { and, eq, lt, sql } from "drizzle-orm";
import { HOTP, Secret } from "otpauth";
import type { Session } from "../../../db/tenant";
import type { AuthRealm } from "./realm.server";
import { chargeFailure, clientOfAddress } from "./throttle.server";

/**
 * docs/security.md: 6 digits, valid at most 10 minutes, single use, voided by a resend, at most 5 tries per
 * sign-in across all resends.
 */
export const CODE_DIGITS = 6;
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** Wrong codes one sign-in may enter in all, whatever the number of resends; then the sign-in is over. */
export const MAX_CODE_ATTEMPTS = 5;
/** Codes one sign-in may send (the first and four resends); then the person signs in again. */
export const MAX_CODE_SENDS = 5;

/**
 * Each code comes from a fresh random HOTP secret (otpauth) stored on the session; a resend replaces the
 * secret, so an older code can never match again, and a used code clears it. A resend leaves the count of
 * wrong codes alone: the count belongs to the sign-in, or every resend would buy five more guesses.
 */
export function issueCode(realm: AuthRealm, session: Session, now = new Date()): { code: string } | { error: "too_many_sends" } {
  const secret = new Secret({ size: 20 });
  const code = new HOTP({ secret, digits: CODE_DIGITS }).generate({ counter: 0 });
  // The limit is part of the update itself, so concurrent resends cannot all pass it.
  const issued = realm.db
    .update(realm.sessions)
    .set({
      twoFactorSecret: secret.base32,
      twoFactorIssuedAt: now,
      twoFactorSends: sql`${realm.sessions.twoFactorSends} + 1`,
    })
    .where(
      and(
        eq(realm.sessions.id, session.id),
        lt(realm.sessions.twoFactorSends, MAX_CODE_SENDS),
        lt(realm.sessions.twoFactorAttempts, MAX_CODE_ATTEMPTS),
      ),
    )
    .returning({ id: realm.sessions.id })
    .get();
  return issued ? { code } : { error: "too_many_sends" };
}

export type CodeCheck = "ok" | "invalid" | "expired" | "too_many_attempts" | "no_code";

/**
 * Checks a code, counting the try; on success the session is confirmed and the code is spent. The fifth
 * wrong code of a sign-in ends it: the pending session is deleted (its token or cookie stops working) and
 * the account gets one failed sign-in (throttle.server.ts), so someone who holds the password cannot keep
 * starting fresh sign-ins to guess on without limit.
 */
export function confirmCode(realm: AuthRealm, sessionId: number, code: string, now = new Date()): CodeCheck {
  return realm.db.transaction((tx) => {
    const session = tx.select().from(realm.sessions).where(eq(realm.sessions.id, sessionId)).get();
    if (!session) return "no_code";
    if (session.twoFactorAttempts >= MAX_CODE_ATTEMPTS) {
      endSignIn(tx, realm, session, now);
      return "too_many_attempts";
    }
    if (!session.twoFactorSecret || !session.twoFactorIssuedAt) return "no_code";
    if (now.getTime() - session.twoFactorIssuedAt.getTime() > CODE_LIFETIME_MS) return "expired";
    const hotp = new HOTP({ secret: Secret.fromBase32(session.twoFactorSecret), digits: CODE_DIGITS });
    const valid = /^\d{6}$/.test(code) && hotp.validate({ token: code, counter: 0, window: 0 }) !== null;
    if (!valid) {
      if (session.twoFactorAttempts + 1 >= MAX_CODE_ATTEMPTS) {
        endSignIn(tx, realm, session, now);
        return "too_many_attempts";
      }
      tx.update(realm.sessions)
        .set({ twoFactorAttempts: session.twoFactorAttempts + 1 })
        .where(eq(realm.sessions.id, sessionId))
        .run();
      return "invalid";
    }
    tx.update(realm.sessions)
      .set({ twoFactorPending: false, twoFactorSecret: null, twoFactorIssuedAt: null, twoFactorAttempts: 0 })
      .where(eq(realm.sessions.id, sessionId))
      .run();
    return "ok";
  });
}

/** Ends a sign-in whose codes ran out: the session goes, and the account is charged one failed sign-in. */
function endSignIn(db: AuthRealm["db"], realm: AuthRealm, session: Session, now: Date) {
  db.delete(realm.sessions).where(eq(realm.sessions.id, session.id)).run();
  chargeFailure(db, realm, session.userId, clientOfAddress(session.ip), now);
}
