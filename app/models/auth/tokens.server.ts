import { and, count, eq, gt, isNull } from "drizzle-orm";
import { magicLinks, type passwordResets } from "../../../db/tenant";
import type { AuthRealm } from "./realm.server";
import { hashPassword, hashToken, normalizeEmail, randomToken } from "./secrets.server";
import { findPersonByEmail } from "./login.server";
import { revokeSessionsOf } from "./session.server";

/** Reset links live an hour; sign-in links a quarter of an hour. Both are single use. */
export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
export const MAGIC_LINK_LIFETIME_MS = 15 * 60 * 1000;

/**
 * docs/security.md "mails limited per account as well as per address": at most this many reset mails, and
 * as many sign-in-link mails, per account in any hour, from whatever addresses they are asked for. The
 * per-address limit (server/protection.ts) cannot stop a requester with many addresses from filling one
 * person's mailbox. Past the limit the request gets the same answer as an unknown address, so the limit
 * tells nothing about the account, and no mail is sent. Invitations (admins' set-password links) count
 * toward the reset limit but are never held back by it.
 */
export const MAX_LINK_MAILS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;

type TokenTable = typeof passwordResets;

function issue(realm: AuthRealm, table: TokenTable, personId: number, lifetimeMs: number, now: Date) {
  return issueMany(realm, table, [personId], lifetimeMs, now).get(personId)!;
}

/** A token each for these people, in one insert (a bulk action's slice mails many). */
function issueMany(realm: AuthRealm, table: TokenTable, personIds: readonly number[], lifetimeMs: number, now: Date) {
  const tokens = new Map(personIds.map((id) => [id, randomToken()] as const));
  if (tokens.size === 0) return tokens;
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  realm.db
    .insert(table)
    .values([...tokens].map(([userId, token]) => ({ userId, tokenHash: hashToken(token), createdAt: now, expiresAt })))
    .run();
  return tokens;
}

/** How many tokens of a table the person was sent in the hour before `now`. */
function sentInLastHour(realm: AuthRealm, table: TokenTable, personId: number, now: Date) {
  const row = realm.db
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.userId, personId), gt(table.createdAt, new Date(now.getTime() - HOUR_MS))))
    .get();
  return row?.n ?? 0;
}

/**
 * A token for a mail the person asked for, or null when the account already had its share this hour. The
 * count and the insert run with no await between them (better-sqlite3 is synchronous), so a burst of
 * requests cannot all pass the count.
 */
function issueLimited(realm: AuthRealm, table: TokenTable, personId: number, lifetimeMs: number, now: Date) {
  if (sentInLastHour(realm, table, personId, now) >= MAX_LINK_MAILS_PER_HOUR) return null;
  return issue(realm, table, personId, lifetimeMs, now);
}

/**
 * Marks a live token used and returns whose it was; the update is the check, so it cannot be used twice.
 * With `owner`, only that person's token is spent (another's is left alone and not found).
 */
function spend(realm: AuthRealm, table: TokenTable, token: string, now: Date, owner?: number): number | null {
  if (!token || token.length > 200) return null;
  const row = realm.db
    .update(table)
    .set({ usedAt: now })
    .where(
      and(
        eq(table.tokenHash, hashToken(token)),
        isNull(table.usedAt),
        gt(table.expiresAt, now),
        owner === undefined ? undefined : eq(table.userId, owner),
      ),
    )
    .returning({ userId: table.userId })
    .get();
  return row?.userId ?? null;
}

/** After a password changes, no older reset or sign-in link of the person may still work. */
function cancelOutstandingLinks(realm: AuthRealm, personId: number, now: Date) {
  realm.db
    .update(realm.resets)
    .set({ usedAt: now })
    .where(and(eq(realm.resets.userId, personId), isNull(realm.resets.usedAt)))
    .run();
  if (realm.kind === "organization") {
    realm.db
      .update(magicLinks)
      .set({ usedAt: now })
      .where(and(eq(magicLinks.userId, personId), isNull(magicLinks.usedAt)))
      .run();
  }
}

/** Whether a token is live (unused, unexpired), without spending it: pages check before they ask. */
function isLive(realm: AuthRealm, table: TokenTable, token: string, now: Date) {
  if (!token || token.length > 200) return null;
  const row = realm.db
    .select({ userId: table.userId })
    .from(table)
    .where(and(eq(table.tokenHash, hashToken(token)), isNull(table.usedAt), gt(table.expiresAt, now)))
    .get();
  return row?.userId ?? null;
}

export function isResetTokenLive(realm: AuthRealm, { email, token }: { email: string; token: string }, now = new Date()) {
  const person = findPersonByEmail(realm, email);
  return Boolean(person && isLive(realm, realm.resets, token, now) === person.id);
}

export function isMagicLinkLive(realm: AuthRealm, code: string, now = new Date()) {
  return realm.kind === "organization" && isLive(realm, realmMagicLinks(realm), code, now) !== null;
}

/**
 * A reset token the person asked for (reset page and call), or null when there is none to send: unknown
 * address, or the account's share of reset mails this hour is spent. The caller says the same either way.
 */
export function requestPasswordReset(realm: AuthRealm, email: string, now = new Date()) {
  const person = findPersonByEmail(realm, email);
  if (!person || person.disabledAt || person.managedExternally) return null;
  const token = issueLimited(realm, realm.resets, person.id, RESET_TOKEN_LIFETIME_MS, now);
  return token ? { person, token } : null;
}

/** An invitation is a set-password link that waits a week for the new person. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The set-password link of an invitation, sent by an admin's action (adding or importing people): not
 * held back by the per-account limit, which is there for requests anyone can make.
 */
export function issueInvitation(realm: AuthRealm, email: string, now = new Date()) {
  const person = findPersonByEmail(realm, email);
  if (!person || person.disabledAt || person.managedExternally) return null;
  return { person, token: issue(realm, realm.resets, person.id, INVITATION_LIFETIME_MS, now) };
}

/**
 * Invitations for many people at once (issue 50's bulk action: mailing it again), as `issueInvitation` makes one, in
 * one insert: the caller has checked each person as it does (not deactivated, not signed in elsewhere). A token each.
 */
export function issueInvitations(realm: AuthRealm, personIds: readonly number[], now = new Date()): Map<number, string> {
  return issueMany(realm, realm.resets, personIds, INVITATION_LIFETIME_MS, now);
}

/** Sets a new password with a reset token; every session of the person is revoked. */
export async function resetPassword(
  realm: AuthRealm,
  { email, token, password }: { email: string; token: string; password: string },
  now = new Date(),
): Promise<boolean> {
  const person = findPersonByEmail(realm, email);
  if (!person) return false;
  const passwordHash = await hashPassword(password);
  return realm.db.transaction(() => {
    if (spend(realm, realm.resets, token, now, person.id) !== person.id) return false;
    realm.db.update(realm.people).set({ passwordHash }).where(eq(realm.people.id, person.id)).run();
    revokeSessionsOf(realm, person.id);
    cancelOutstandingLinks(realm, person.id, now);
    return true;
  });
}

export async function changePassword(
  realm: AuthRealm,
  { personId, password, keepSessionId }: { personId: number; password: string; keepSessionId: number },
) {
  const passwordHash = await hashPassword(password);
  realm.db.transaction(() => {
    realm.db.update(realm.people).set({ passwordHash }).where(eq(realm.people.id, personId)).run();
    revokeSessionsOf(realm, personId, { except: keepSessionId });
    cancelOutstandingLinks(realm, personId, new Date());
  });
}

/** Spends a sign-in code; the person it signs in, or null when it is unknown, used or expired. */
export function exchangeMagicLink(realm: AuthRealm, code: string, now = new Date()) {
  if (realm.kind !== "organization") return null;
  return spend(realm, realmMagicLinks(realm), code, now);
}

/** A sign-in link for the person with this e-mail, or null (unknown, or the hour's share spent): same answer. */
export function requestMagicLink(realm: AuthRealm, email: string, now = new Date()) {
  const person = findPersonByEmail(realm, normalizeEmail(email));
  if (!person || person.disabledAt || !person.role) return null;
  const code = issueLimited(realm, realmMagicLinks(realm), person.id, MAGIC_LINK_LIFETIME_MS, now);
  return code ? { person, code } : null;
}

/** Sign-in links exist in organizations only; the table has the same columns as password resets. */
function realmMagicLinks(realm: AuthRealm): TokenTable {
  if (realm.kind !== "organization") throw new Error("sign-in links belong to an organization");
  return magicLinks as unknown as TokenTable;
}
