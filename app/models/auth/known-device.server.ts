import crypto from "node:crypto";
import type { User } from "../../../db/tenant";
import type { AuthRealm } from "./realm.server";

/**
 * Known devices (docs/decisions/007-authentication.md "Guessing passwords"): a browser that completed a
 * sign-in (password and, where asked, the e-mailed code; or a sign-in link; or a password reset) gets a
 * token that names the person and is signed by the server's key over the realm, the person and their
 * current password hash. Nothing is stored: changing or resetting the password changes the hash, so every
 * token of the person stops working at once, while signing out leaves the token alone. A known device is
 * spared the account's ceiling of failed sign-ins (someone guessing from elsewhere cannot lock its owner
 * out) and keeps delays of its own; it never skips the password or the code.
 */
export const KNOWN_DEVICE_LIFETIME_SECONDS = 180 * 86_400;

const PURPOSE = "known-device";
const TOKEN = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

/** The server's signer (server/platform.ts `signValue`), as the models see it. */
export interface DeviceSigner {
  signValue(purpose: string, value: string): string;
  verifyValue(purpose: string, value: string, signature: string): boolean;
}

function signed(realm: AuthRealm, person: Pick<User, "id" | "passwordHash">, issued: number, nonce: string) {
  const where = realm.organization ? `organization:${realm.organization.id}` : "platform";
  return `${where}:${person.id}:${issued}:${nonce}:${person.passwordHash ?? ""}`;
}

/** A new known-device token for the person, for this realm only. */
export function issueKnownDevice(signer: DeviceSigner, realm: AuthRealm, person: Pick<User, "id" | "passwordHash">, now = new Date()) {
  const issued = Math.floor(now.getTime() / 1000);
  const nonce = crypto.randomBytes(12).toString("base64url");
  return `${person.id}.${issued}.${nonce}.${signer.signValue(PURPOSE, signed(realm, person, issued, nonce))}`;
}

/**
 * The client a token stands for (`device:<nonce>`, the key its failures are counted under) when it is a
 * live token of this person in this realm, signed over their current password; otherwise null.
 */
export function knownDeviceOf(
  signer: DeviceSigner,
  realm: AuthRealm,
  person: Pick<User, "id" | "passwordHash">,
  token: string | null | undefined,
  now = new Date(),
): string | null {
  const match = token ? TOKEN.exec(token) : null;
  if (!match || Number(match[1]) !== person.id) return null;
  const issued = Number(match[2]);
  const age = Math.floor(now.getTime() / 1000) - issued;
  if (age < -60 || age > KNOWN_DEVICE_LIFETIME_SECONDS) return null;
  return signer.verifyValue(PURPOSE, signed(realm, person, issued, match[3]), match[4]) ? `device:${match[3]}` : null;
}
