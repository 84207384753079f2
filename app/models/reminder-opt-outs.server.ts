import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { reminderOptOuts, users } from "../../db/tenant";
import type { ReminderServices } from "../../server/services";

/**
 * Turning reminders and digests off and on (issue 34; docs/decisions/038-reminders.md): from a person's
 * profile settings, or with one click in a mail (RFC 8058) through a signed link that needs no sign-in.
 * Sign-in codes and password mails are not affected.
 */
const UNSUBSCRIBE_PURPOSE = "reminders-unsubscribe";

export function remindersOff(db: TenantConn, userId: number) {
  return Boolean(db.select({ userId: reminderOptOuts.userId }).from(reminderOptOuts).where(eq(reminderOptOuts.userId, userId)).get());
}

/** Reminders and digests off (or back on) for one person; sign-in codes and password mails are not affected. */
export function setRemindersOff(db: TenantConn, userId: number, off: boolean, now = new Date()) {
  if (off) db.insert(reminderOptOuts).values({ userId, at: now }).onConflictDoNothing().run();
  else db.delete(reminderOptOuts).where(eq(reminderOptOuts.userId, userId)).run();
}

type Signer = Pick<ReminderServices, "signValue" | "verifyValue">;

/**
 * The one-click unsubscribe token (RFC 8058): the person's id and an HMAC of the organization and the
 * person with the server's key. It does not expire (a mail's link keeps working) and does only one thing:
 * turn that person's reminders off in that organization.
 */
export function unsubscribeToken(signer: Signer, organizationId: number, userId: number) {
  return `${userId}.${signer.signValue(UNSUBSCRIBE_PURPOSE, `${organizationId}:${userId}`)}`;
}

/** The link a reminder or digest carries, and the headers (RFC 8058) a mail client posts `List-Unsubscribe=One-Click` to. */
export function unsubscribeLink(signer: Signer, origin: string, organizationId: number, userId: number) {
  const url = `${origin}/reminders/unsubscribe?token=${unsubscribeToken(signer, organizationId, userId)}`;
  return { url, headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } };
}

function personOfToken(signer: Signer, organizationId: number, token: string) {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  return signer.verifyValue(UNSUBSCRIBE_PURPOSE, `${organizationId}:${userId}`, match[2]) ? userId : null;
}

/** `le***@acme.test`: enough for people to recognise their address on a page anyone with the link can open. */
function maskedEmail(email: string) {
  const at = email.indexOf("@");
  if (at < 0) return email;
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

/** Who a token unsubscribes and whether they already are; null for a token that is not valid here. */
export function unsubscribeTarget(db: TenantConn, signer: Signer, organizationId: number, token: string) {
  const userId = personOfToken(signer, organizationId, token);
  if (userId === null) return null;
  const person = db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!person) return null;
  return { userId, email: maskedEmail(person.email), off: remindersOff(db, userId) };
}

/** The one-click unsubscribe: true when the token is valid here (turning off twice is fine). */
export function unsubscribeByToken(db: TenantConn, signer: Signer, organizationId: number, token: string, now = new Date()) {
  const target = unsubscribeTarget(db, signer, organizationId, token);
  if (!target) return false;
  setRemindersOff(db, target.userId, true, now);
  return true;
}
