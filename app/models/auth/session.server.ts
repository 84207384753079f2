import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { preparedOnce, toSeconds } from "../../../db/prepared";
import type { Session, User } from "../../../db/tenant";
import type { AuthRealm } from "./realm.server";
import { hashToken, randomToken } from "./secrets.server";

/** docs/product.md §7 and §9: tokens (and so sessions) live 30 days. */
export const SESSION_LIFETIME_SECONDS = 2_592_000;
/** last_seen_at is written at most this often, so reading pages does not mean writing on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionKind = "web" | "api";

export function createSession(
  realm: AuthRealm,
  {
    personId,
    kind,
    userAgent = "",
    ip = "",
    twoFactorPending = false,
    now = new Date(),
  }: { personId: number; kind: SessionKind; userAgent?: string; ip?: string; twoFactorPending?: boolean; now?: Date },
) {
  const token = randomToken();
  const session = realm.db
    .insert(realm.sessions)
    .values({
      userId: personId,
      tokenHash: hashToken(token),
      kind,
      userAgent: userAgent.slice(0, 512),
      ip: ip.slice(0, 64),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000),
      twoFactorPending,
    })
    .returning()
    .get();
  markActive(realm, personId, now);
  return { token, session };
}

/**
 * Keeps when the person was last active (issue 50: the people list's "last active", a person's page): on signing in
 * and as a session is used, at most every TOUCH_INTERVAL_MS.
 */
function markActive(realm: AuthRealm, personId: number, now: Date) {
  const activity = realm.activity;
  if (!activity) return;
  realm.db
    .insert(activity)
    .values({ userId: personId, lastActiveAt: now })
    .onConflictDoUpdate({ target: activity.userId, set: { lastActiveAt: now } })
    .run();
}

/**
 * The live session a token belongs to, with its person: not expired, person not disabled. Checked on
 * every request against the database, so a revoked session or a disabled person is refused at once.
 */
export function findSession(realm: AuthRealm, token: string, now = new Date()): { session: Session; person: User } | null {
  if (!token || token.length > 200) return null;
  const query = preparedOnce(realm.db, `findSession:${realm.kind}`, () =>
    realm.db
      .select({ session: realm.sessions, person: realm.people })
      .from(realm.sessions)
      .innerJoin(realm.people, eq(realm.people.id, realm.sessions.userId))
      .where(and(eq(realm.sessions.tokenHash, sql.placeholder("hash")), gt(realm.sessions.expiresAt, sql.placeholder("now"))))
      .prepare(),
  );
  const row = query.get({ hash: hashToken(token), now: toSeconds(now) });
  if (!row || row.person.disabledAt) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    // Best effort: a busy or full disk must not turn every page of a signed-in person into an error.
    try {
      realm.db.update(realm.sessions).set({ lastSeenAt: now }).where(eq(realm.sessions.id, row.session.id)).run();
      markActive(realm, row.person.id, now);
    } catch {
      // last_seen_at and the last activity are informational
    }
  }
  return row as { session: Session; person: User };
}

export function revokeSession(realm: AuthRealm, sessionId: number) {
  realm.db.delete(realm.sessions).where(eq(realm.sessions.id, sessionId)).run();
}

/** Every session of a person but one (after a password change), or all of them (after a reset). */
export function revokeSessionsOf(realm: AuthRealm, personId: number, { except }: { except?: number } = {}) {
  realm.db
    .delete(realm.sessions)
    .where(
      except === undefined ? eq(realm.sessions.userId, personId) : and(eq(realm.sessions.userId, personId), ne(realm.sessions.id, except)),
    )
    .run();
}

/** A person's devices: their live sessions, newest first. */
export function listDevices(realm: AuthRealm, personId: number, now = new Date()) {
  return realm.db
    .select()
    .from(realm.sessions)
    .where(and(eq(realm.sessions.userId, personId), gt(realm.sessions.expiresAt, now)))
    .orderBy(desc(realm.sessions.lastSeenAt), desc(realm.sessions.id))
    .all();
}

/** Revokes one of the person's own devices; false when there is no such device of theirs. */
export function revokeDevice(realm: AuthRealm, personId: number, sessionId: number) {
  const result = realm.db
    .delete(realm.sessions)
    .where(and(eq(realm.sessions.id, sessionId), eq(realm.sessions.userId, personId)))
    .run();
  return result.changes > 0;
}

/** Replaces a session by a new one for the same device (POST auth/refresh); the old token stops working. */
export function refreshSession(realm: AuthRealm, session: Session, now = new Date()) {
  return realm.db.transaction(() => {
    revokeSession(realm, session.id);
    return createSession(realm, {
      personId: session.userId,
      kind: session.kind,
      userAgent: session.userAgent,
      ip: session.ip,
      twoFactorPending: session.twoFactorPending,
      now,
    });
  });
}

export function deviceView(session: Session, currentId: number) {
  return {
    id: session.id,
    kind: session.kind,
    user_agent: session.userAgent,
    ip: session.ip,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    current: session.id === currentId,
  };
}
