import { inArray, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { toSeconds } from "../../../db/prepared";
import { users, type User } from "../../../db/tenant";
import type { MailServices } from "../../../server/services";
import type { Viewer } from "../../access/viewer";
import { recordAudit, type AuditChange } from "../admin-audit.server";
import { sendInvitation } from "../auth/mail.server";
import type { AuthRealm } from "../auth/realm.server";
import { issueInvitations, RESET_TOKEN_LIFETIME_MS } from "../auth/tokens.server";
import { outcome, refuse, type SliceContext, type SliceOutcome } from "./outcome.server";

/**
 * Mailing the invitation again (issue 50's bulk action): the mail a person gets when an admin adds or imports them
 * (app/models/auth/mail.server.ts `sendInvitation`, a link to choose a password that waits a week), sent again to
 * each chosen person who has never signed in. The others are refused with the reason: deactivated, signed in by
 * another platform (`managedExternally`), already signed in (a password chosen, a device signed in, a sign-in link
 * used or an SSO identity), or invited within `RESEND_WINDOW_MS`.
 */

/**
 * No second invitation to a person within an hour of the last that is still unused: two admins acting on the same
 * list, a double submit, or the action run again on "all that match" would otherwise fill a mailbox with links that
 * all do the same, and look like spam to the person and to their mail provider. The first is still good (an
 * invitation waits a week), and an hour is the window of the per-account limit on sign-in mails
 * (app/models/auth/tokens.server.ts), yet short enough that an admin told "it never came" can send it again the same
 * day. Changing a person's address cancels their links, so a corrected address is mailed at once.
 */
export const RESEND_WINDOW_MS = 60 * 60 * 1000;

/** An invitation issued in a slice, mailed once the slice's transaction has committed. */
export interface InvitationMail {
  person: User;
  token: string;
}

const inIds = (ids: readonly number[]) => sql`(select value from json_each(${JSON.stringify(ids)}))`;

/** Those of `ids` who have ever signed in: a device signed in, a sign-in link used, or an identity of a platform. */
function signedInAmong(db: TenantConn, ids: readonly number[]): Set<number> {
  const rows = db.all<{ user_id: number }>(sql`select user_id from sessions where user_id in ${inIds(ids)}
    union select user_id from magic_links where used_at is not null and user_id in ${inIds(ids)}
    union select user_id from sso_identities where user_id in ${inIds(ids)}`);
  return new Set(rows.map((r) => r.user_id));
}

/**
 * Those of `ids` with an unused invitation younger than the window (an invitation is the set-password link that
 * lives longer than a requested reset's hour).
 */
function recentlyInvitedAmong(db: TenantConn, ids: readonly number[], now: Date): Set<number> {
  const rows = db.all<{ user_id: number }>(sql`select distinct user_id from password_resets
    where user_id in ${inIds(ids)} and used_at is null and created_at > ${toSeconds(now) - RESEND_WINDOW_MS / 1000}
    and expires_at - created_at > ${RESET_TOKEN_LIFETIME_MS / 1000}`);
  return new Set(rows.map((r) => r.user_id));
}

/**
 * One slice: a new invitation (its link's token) issued for each person who may have it, each in the audit, all in
 * the slice's transaction; the mails go after it commits (`mailInvitations`), so a slice that fails sends nothing,
 * and a job resumed after a crash never mails a slice twice (its place was kept with the tokens).
 */
export function invitationSlice(
  db: TenantConn,
  viewer: Viewer,
  ids: number[],
  { via, now, realm }: SliceContext,
): SliceOutcome & { mails: InvitationMail[] } {
  if (!realm) throw new Error("mailing invitations needs the organization's sign-in realm");
  const o = outcome();
  const people = db.select().from(users).where(inArray(users.id, ids)).all();
  refuse(o, "gone", ids.length - people.length);
  const signedIn = signedInAmong(db, ids);
  const recent = recentlyInvitedAmong(db, ids, now);
  const invited: User[] = [];
  for (const p of people) {
    if (p.disabledAt) refuse(o, "deactivated");
    else if (p.managedExternally) refuse(o, "external");
    else if (p.passwordHash || signedIn.has(p.id)) refuse(o, "signed_in");
    else if (recent.has(p.id)) refuse(o, "recently_invited");
    else invited.push(p);
  }
  // The slice's tokens in one insert (`issueInvitations`), not `issueInvitation` a person: its two queries took about
  // 2 ms a person on the demo's learners, a slice of 250 holding the write lock about a second.
  const tokens = issueInvitations(
    { ...realm, db: db as unknown as AuthRealm["db"] },
    invited.map((p) => p.id),
    now,
  );
  const mails = invited.map((person) => ({ person, token: tokens.get(person.id)! }));
  recordAudit(
    db,
    viewer,
    via,
    invited.map((p): AuditChange => ({ action: "invitation_resent", subject: { id: p.id, email: p.email } })),
    now,
  );
  o.done += mails.length;
  return { ...o, mails };
}

/** Mails a slice's invitations, one after another; answers how many could not be sent (each in the server's log). */
export async function mailInvitations(platform: MailServices, realm: AuthRealm, mails: InvitationMail[]): Promise<number> {
  let failed = 0;
  for (const { person, token } of mails) {
    try {
      await sendInvitation(platform, realm, person, token);
    } catch (error) {
      failed++;
      platform.log.error({ error: String(error) }, "invitation mail failed");
    }
  }
  return failed;
}
