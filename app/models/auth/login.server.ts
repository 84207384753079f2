import { and, count, eq, gt, lt } from "drizzle-orm";
import type { User } from "../../../db/tenant";
import { roleIn, type AuthRealm } from "./realm.server";
import { normalizeEmail, verifyPassword } from "./secrets.server";

/** docs/security.md: at most 100 failed sign-ins an hour per account, counted in a sliding window. */
export const MAX_FAILURES_PER_HOUR = 100;
const HOUR_MS = 60 * 60 * 1000;

/** docs/product.md §8's login errors, plus throttling and disabled accounts. */
export type LoginError = "user_not_found" | "invalid_password" | "organization" | "throttled" | "disabled";

export type LoginResult = { ok: true; person: User } | { ok: false; error: LoginError };

export function findPersonByEmail(realm: AuthRealm, email: string): User | undefined {
  return realm.db
    .select()
    .from(realm.people)
    .where(eq(realm.people.email, normalizeEmail(email)))
    .get() as User | undefined;
}

/**
 * Checks an e-mail and password. The spec asks for distinct messages for an unknown user and a wrong
 * password, so the errors tell them apart; throttling is per account, from any address, and never
 * locks the owner out for more than the window.
 */
export async function authenticate(
  realm: AuthRealm,
  { email, password, ip = "" }: { email: string; password: string; ip?: string },
  now = new Date(),
): Promise<LoginResult> {
  const address = normalizeEmail(email);
  const person = findPersonByEmail(realm, address);
  if (!person) return { ok: false, error: "user_not_found" };
  if (recentFailures(realm, address, now) >= MAX_FAILURES_PER_HOUR) return { ok: false, error: "throttled" };
  // Count the attempt as a failure before the slow password check (no await between the count and the
  // insert), so a burst of concurrent guesses cannot all slip under the limit; a success takes it back.
  const attempt = realm.db
    .insert(realm.failures)
    .values({ email: address, ip: ip.slice(0, 64), createdAt: now })
    .returning({ id: realm.failures.id })
    .get();
  if (!(await verifyPassword(person.passwordHash, password))) return { ok: false, error: "invalid_password" };
  realm.db.delete(realm.failures).where(eq(realm.failures.id, attempt.id)).run();
  if (person.disabledAt) return { ok: false, error: "disabled" };
  if (!roleIn(realm, person)) return { ok: false, error: "organization" };
  // Old failures are of no use once the window has passed.
  realm.db
    .delete(realm.failures)
    .where(and(eq(realm.failures.email, address), lt(realm.failures.createdAt, new Date(now.getTime() - HOUR_MS))))
    .run();
  return { ok: true, person };
}

function recentFailures(realm: AuthRealm, email: string, now: Date) {
  const row = realm.db
    .select({ n: count() })
    .from(realm.failures)
    .where(and(eq(realm.failures.email, email), gt(realm.failures.createdAt, new Date(now.getTime() - HOUR_MS))))
    .get();
  return row?.n ?? 0;
}
