import { asc, desc, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import {
  apiTokens,
  groupMembers,
  groups,
  learnerStats,
  playerPreferences,
  reminderDigests,
  reminderOptOuts,
  reminders,
  sessions,
  ssoDrivers,
  ssoIdentities,
  users,
  type User,
} from "../../../db/tenant";

/*
 * The export's account sections (../personal-data.server.ts): who the person is, their settings, their groups,
 * how they sign in (never a secret: no password hash, token hash or code secret is selected) and the mails
 * Lectern sent them.
 */

/** A moment as the export writes it: ISO 8601 in UTC, or null. */
export const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function personOf(db: TenantConn, userId: number): User | undefined {
  return db.select().from(users).where(eq(users.id, userId)).get();
}

/** Their row of `users` (not the password hash nor the heartbeat's clock) and their personal settings. */
export function profileOf(db: TenantConn, person: User) {
  const player = db.select().from(playerPreferences).where(eq(playerPreferences.userId, person.id)).get();
  const optOut = db.select({ at: reminderOptOuts.at }).from(reminderOptOuts).where(eq(reminderOptOuts.userId, person.id)).get();
  const stats = db.select({ hidden: learnerStats.hidden }).from(learnerStats).where(eq(learnerStats.userId, person.id)).get();
  return {
    id: person.id,
    email: person.email,
    first_name: person.firstName,
    last_name: person.lastName,
    phone: person.phone,
    language: person.language,
    role: person.role,
    has_password: person.passwordHash !== null,
    managed_externally: person.managedExternally,
    disabled_at: iso(person.disabledAt),
    created_at: iso(person.createdAt),
    updated_at: iso(person.updatedAt),
    player_instructions_shown_at: iso(person.playerInstructionsShownAt),
    settings: {
      captions: player?.captions ?? null,
      playback_rate: player?.playbackRate ?? null,
      player_updated_at: iso(player?.updatedAt),
      hidden_from_leaderboard: Boolean(stats?.hidden),
      reminders_off_since: iso(optOut?.at),
    },
  };
}

function groupsOf(db: TenantConn, userId: number) {
  return db
    .select({ id: groups.id, name: groups.name, isAdmin: groupMembers.isAdmin, source: groupMembers.source })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.userId, userId))
    .orderBy(asc(groups.name), asc(groups.id))
    .all()
    .map((g) => ({ group_id: g.id, name: g.name, group_admin: g.isAdmin, joined_by: g.source }));
}

/** Their devices, providers and API tokens: what and when, never a token's hash or a code's secret. */
function signInOf(db: TenantConn, userId: number) {
  const devices = db
    .select({
      kind: sessions.kind,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
    .all();
  const identities = db
    .select({
      provider: ssoDrivers.label,
      issuer: ssoIdentities.issuer,
      subject: ssoIdentities.subject,
      createdAt: ssoIdentities.createdAt,
      lastUsedAt: ssoIdentities.lastUsedAt,
    })
    .from(ssoIdentities)
    .innerJoin(ssoDrivers, eq(ssoDrivers.id, ssoIdentities.driverId))
    .where(eq(ssoIdentities.userId, userId))
    .orderBy(asc(ssoIdentities.id))
    .all();
  const tokens = db
    .select({
      name: apiTokens.name,
      capabilities: apiTokens.capabilities,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(asc(apiTokens.id))
    .all();
  return {
    devices: devices.map((d) => ({
      kind: d.kind,
      user_agent: d.userAgent,
      ip: d.ip,
      signed_in_at: iso(d.createdAt),
      last_seen_at: iso(d.lastSeenAt),
      expires_at: iso(d.expiresAt),
    })),
    single_sign_on: identities.map((i) => ({
      provider: i.provider,
      issuer: i.issuer,
      subject: i.subject,
      linked_at: iso(i.createdAt),
      last_used_at: iso(i.lastUsedAt),
    })),
    api_tokens: tokens.map((t) => ({
      name: t.name,
      capabilities: t.capabilities,
      created_at: iso(t.createdAt),
      expires_at: iso(t.expiresAt),
      last_used_at: iso(t.lastUsedAt),
    })),
  };
}

/** The reminder mails about their assigned courses and learning paths, and (for admins) the weekly digests, as recorded. */
function remindersOf(db: TenantConn, userId: number) {
  const mails = db.select().from(reminders).where(eq(reminders.userId, userId)).orderBy(asc(reminders.id)).all();
  const digests = db.select().from(reminderDigests).where(eq(reminderDigests.userId, userId)).orderBy(asc(reminderDigests.id)).all();
  return {
    mails: mails.map((r) => ({
      assignment_id: r.assignmentId,
      assignment_of: r.subject,
      kind: r.kind,
      due_on: r.dueOn,
      overdue_week: r.week || null,
      status: r.status,
      attempts: r.attempts,
      claimed_at: iso(r.claimedAt),
      sent_at: iso(r.sentAt),
    })),
    weekly_digests: digests.map((d) => ({
      week: d.week,
      status: d.status,
      overdue_listed: d.overdue,
      attempts: d.attempts,
      claimed_at: iso(d.claimedAt),
      sent_at: iso(d.sentAt),
    })),
  };
}

/** The sections about their account beside the profile: groups, sign-in, reminders. */
export function accountData(db: TenantConn, userId: number) {
  return { groups: groupsOf(db, userId), sign_in: signInOf(db, userId), reminders: remindersOf(db, userId) };
}
