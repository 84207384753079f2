import { and, eq, exists, isNotNull, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import { groupMembers, reminderDigests, reminderOptOuts, users } from "../../db/tenant";
import type { ReminderServices } from "../../server/services";
import { isoWeek } from "../utils/calendar";
import { mailLanguage } from "./auth/mail.server";
import { MAX_ATTEMPTS, retryAt, secondsAt } from "./reminder-claims.server";
import { DigestSections, type DigestContents } from "./reminder-digest-sections.server";
import { composeDigest } from "./reminder-mail.server";
import { unsubscribeLink } from "./reminder-opt-outs.server";
import { fullName, type RunContext } from "./reminder-run.server";

/**
 * The weekly digest (docs/decisions/038-reminders.md): once in each ISO week of the organization (from Monday
 * 08:00, or the first run after it), organization admins get every overdue person, group admins those of
 * their groups' assignments. Decided once a week per admin: with nobody overdue then, it is recorded as
 * `empty` and nothing is sent. Claimed and recorded as reminders are (app/models/reminder-claims.server.ts).
 */

/** Admins (of the organization or of a group) with reminders on, whose digest of `week` is not decided yet or is due again. */
function digestRecipients(db: TenantDb, week: string, at: number) {
  const administersAGroup = db
    .select({ one: sql`1` })
    .from(groupMembers)
    .where(and(eq(groupMembers.userId, users.id), eq(groupMembers.isAdmin, true)));
  const optedOut = db.select({ one: sql`1` }).from(reminderOptOuts).where(eq(reminderOptOuts.userId, users.id));
  const dueAgain = and(
    eq(reminderDigests.status, "failed"),
    lt(reminderDigests.attempts, MAX_ATTEMPTS),
    lte(reminderDigests.retryAt, new Date(at * 1000)),
  );
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      language: users.language,
      role: users.role,
    })
    .from(users)
    .leftJoin(reminderDigests, and(eq(reminderDigests.userId, users.id), eq(reminderDigests.week, week)))
    .where(
      and(
        isNull(users.disabledAt),
        isNotNull(users.role),
        or(eq(users.role, "admin"), exists(administersAGroup)),
        notExists(optedOut),
        or(isNull(reminderDigests.id), dueAgain),
      ),
    )
    .orderBy(users.id)
    .all();
}

type Recipient = ReturnType<typeof digestRecipients>[number];

/** The statements a run claims and records digests with, prepared once per run. */
function digestClaims(db: TenantDb) {
  const values = {
    userId: sql.placeholder("userId"),
    week: sql.placeholder("week"),
    status: sql.placeholder("status"),
    overdue: sql.placeholder("overdue"),
    attempts: sql.placeholder("attempts"),
    claimedAt: secondsAt("at"),
  };
  // A week not decided yet for the admin, or a digest that failed and is due to be tried again.
  const claim = db
    .insert(reminderDigests)
    .values(values)
    .onConflictDoUpdate({
      target: [reminderDigests.userId, reminderDigests.week],
      // The values just given (`excluded`), the sends counted on.
      set: {
        status: sql`excluded.status`,
        overdue: sql`excluded.overdue`,
        attempts: sql`${reminderDigests.attempts} + excluded.attempts`,
        claimedAt: sql`excluded.claimed_at`,
        retryAt: null,
      },
      setWhere: and(
        eq(reminderDigests.status, "failed"),
        lt(reminderDigests.attempts, MAX_ATTEMPTS),
        lte(reminderDigests.retryAt, secondsAt("at")),
      ),
    })
    .returning({ id: reminderDigests.id, attempts: reminderDigests.attempts })
    .prepare();
  const byId = eq(reminderDigests.id, sql.placeholder("id"));
  const sent = db
    .update(reminderDigests)
    .set({ status: "sent", sentAt: secondsAt("at") })
    .where(byId)
    .prepare();
  const failed = db
    .update(reminderDigests)
    .set({ status: "failed", retryAt: secondsAt("at") })
    .where(byId)
    .prepare();
  return {
    /** `sending` with the number of overdue people, or `empty` (nobody overdue: decided, nothing sent). */
    claim: (userId: number, week: string, status: "sending" | "empty", overdue: number, at: number) =>
      claim.get({ userId, week, status, overdue, attempts: status === "sending" ? 1 : 0, at }),
    sent: (id: number, at: number) => sent.run({ id, at }),
    failed: (id: number, attempts: number, at: number) => failed.run({ id, at: retryAt(at, attempts) }),
  };
}

/** This week's digests of the run's organization; how many went and how many failed. */
export async function sendDigests(run: RunContext, services: ReminderServices) {
  const { db, today, at } = run;
  const week = isoWeek(today).key;
  const out = { sent: 0, failed: 0 };
  const recipients = digestRecipients(db, week, at);
  if (recipients.length === 0) return out;
  const sections = new DigestSections(db, run);
  const administered = db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(and(eq(groupMembers.userId, sql.placeholder("userId")), eq(groupMembers.isAdmin, true)))
    .prepare();
  const claims = digestClaims(db);
  for (const admin of recipients) {
    const scope = admin.role === "admin" ? "organization" : "groups";
    const contents =
      scope === "organization" ? sections.organization() : sections.groups(administered.all({ userId: admin.id }).map((g) => g.groupId));
    if (contents.people === 0) {
      claims.claim(admin.id, week, "empty", 0, at);
      continue;
    }
    const got = claims.claim(admin.id, week, "sending", contents.people, at);
    if (!got) continue;
    const mail = await digestMail(run, services, admin, scope, contents);
    try {
      await services.mailer.send(mail);
      claims.sent(got.id, at);
      out.sent++;
    } catch {
      claims.failed(got.id, got.attempts, at);
      out.failed++;
    }
  }
  return out;
}

/** One admin's digest, in their language. */
async function digestMail(
  { organization, origin, translator }: RunContext,
  services: ReminderServices,
  admin: Recipient,
  scope: "organization" | "groups",
  { sections, people }: DigestContents,
) {
  const language = mailLanguage(admin, organization);
  const t = await translator(language);
  const unsubscribe = unsubscribeLink(services, origin, organization.id, admin.id);
  const mail = composeDigest(t, {
    language,
    organization: organization.name,
    name: fullName(admin),
    scope,
    sections,
    people,
    dashboardUrl: scope === "organization" ? `${origin}/dashboard` : `${origin}/groups`,
    unsubscribeUrl: unsubscribe.url,
  });
  return { to: admin.email, ...mail, headers: unsubscribe.headers };
}
