import { eq } from "drizzle-orm";
import type { User } from "../../../db/tenant";
import { knownDeviceOf, type DeviceSigner } from "./known-device.server";
import { roleIn, type AuthRealm } from "./realm.server";
import { normalizeEmail, verifyPassword } from "./secrets.server";
import { chargeAttempt, claimAlert, clientOfAddress, MAX_FAILURES_PER_HOUR, succeeded } from "./throttle.server";

/**
 * docs/product.md §8's login errors, plus the guards against guessing (throttle.server.ts): `wait` (this
 * client must wait before its next guess) and `throttled` (the account's ceiling, for a device it does
 * not know), and disabled accounts.
 */
export type LoginError = "user_not_found" | "invalid_password" | "organization" | "throttled" | "wait" | "disabled";

export type LoginResult =
  | { ok: true; person: User }
  /** `retryAfter`: seconds until the next guess is checked; `alert`: the owner to tell about the guessing, once. */
  | { ok: false; error: LoginError; retryAfter?: number; alert?: User };

export function findPersonByEmail(realm: AuthRealm, email: string): User | undefined {
  return realm.db
    .select()
    .from(realm.people)
    .where(eq(realm.people.email, normalizeEmail(email)))
    .get() as User | undefined;
}

/**
 * Checks an e-mail and password. The spec asks for distinct messages for an unknown user and a wrong
 * password, so the errors tell them apart. Guesses are counted per account and client (its address, or
 * the known device the browser holds a token of) and per account; a known device is never held back by
 * the account's ceiling, so nobody can lock the owner out by guessing from elsewhere.
 */
export async function authenticate(
  realm: AuthRealm,
  {
    email,
    password,
    ip = "",
    device = null,
  }: { email: string; password: string; ip?: string; device?: { token: string | null; signer: DeviceSigner } | null },
  now = new Date(),
): Promise<LoginResult> {
  const person = findPersonByEmail(realm, email);
  if (!person) return { ok: false, error: "user_not_found" };
  const known = device ? knownDeviceOf(device.signer, realm, person, device.token, now) : null;
  const client = known ?? clientOfAddress(ip);
  // Counted as a failure before the slow password check; the right password takes it back.
  const attempt = chargeAttempt(realm, person.id, client, { knownDevice: known !== null }, now);
  if ("error" in attempt) {
    return { ok: false, error: attempt.error, retryAfter: attempt.retryAfter, ...(attempt.alert ? { alert: person } : {}) };
  }
  if (!(await verifyPassword(person.passwordHash, password))) {
    const alert = attempt.accountFailures >= MAX_FAILURES_PER_HOUR && claimAlert(realm.db, realm, person.id, now);
    return { ok: false, error: "invalid_password", ...(alert ? { alert: person } : {}) };
  }
  succeeded(realm, person.id, client);
  if (person.disabledAt) return { ok: false, error: "disabled" };
  if (!roleIn(realm, person)) return { ok: false, error: "organization" };
  return { ok: true, person };
}
