import { and, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { preparedOnce } from "../../../db/prepared";
import type { loginThrottle } from "../../../db/tenant";
import { clientKey } from "../../utils/client-key.server";
import type { AuthRealm } from "./realm.server";

/**
 * Guessing passwords (docs/decisions/007-authentication.md "Guessing passwords"; docs/security.md). Failed
 * sign-ins are counted twice, each in one row of `login_throttle` read by its primary key:
 *  - per account and client (an address, or a known device): five failures in a row go unhindered; then each
 *    further guess from that client waits longer (30 s after the fifth, 1 min after the sixth, … an hour at most);
 *  - per account, from everywhere: at most 100 failures in a window of an hour; then passwords are checked
 *    only from the account's known devices until the window ends, and the owner is told once by mail.
 * So someone guessing from many addresses meets the account's ceiling, and the owner still gets in from a
 * device they signed in on before, or with a sign-in link (which never passes through here).
 */
export const MAX_FAILURES_PER_HOUR = 100;
export const ACCOUNT_WINDOW_SECONDS = 3600;
/** A client's failures in a row before it has to wait; the wait then doubles with each failure. */
export const FAILURES_BEFORE_WAITING = 5;
export const FIRST_WAIT_SECONDS = 30;
export const LONGEST_WAIT_SECONDS = 3600;
/** A client's failures are forgotten a day after its last one; rows that old are swept away. */
export const CLIENT_MEMORY_SECONDS = 86_400;

/** The account-wide row's client. */
const ACCOUNT = "";

export type Refusal = { error: "wait" | "throttled"; retryAfter: number; alert: boolean };
type Row = typeof loginThrottle.$inferSelect;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const at = (s: number) => new Date(s * 1000);

/** The client an address is counted as: IPv4, or an IPv6 address's /56 network (as the per-address limit). */
export function clientOfAddress(ip: string) {
  return `ip:${clientKey(ip)}`.slice(0, 64);
}

/** How long a client waits after its n-th failure in a row. */
export function waitAfter(failures: number) {
  if (failures < FAILURES_BEFORE_WAITING) return 0;
  return Math.min(FIRST_WAIT_SECONDS * 2 ** (failures - FAILURES_BEFORE_WAITING), LONGEST_WAIT_SECONDS);
}

const clientLive = (row: Row | undefined, now: number): row is Row =>
  Boolean(row && seconds(row.lastFailureAt) > now - CLIENT_MEMORY_SECONDS);
const windowLive = (row: Row | undefined, now: number): row is Row =>
  Boolean(row && seconds(row.windowStart) > now - ACCOUNT_WINDOW_SECONDS);
/** Whether the account's ceiling is reached in its window and its owner not yet told. */
const owesAlert = (row: Row) =>
  row.failures >= MAX_FAILURES_PER_HOUR && (row.alertedAt === null || seconds(row.alertedAt) < seconds(row.windowStart));

/**
 * The account's row and the client's, in one read by primary key: the one query every attempt makes, even
 * one refused, so it is built once per connection (db/prepared.ts).
 */
function readRows(db: AuthRealm["db"], realm: AuthRealm, personId: number, client: string) {
  const t = realm.throttle;
  const query = preparedOnce(db, `loginThrottle:${realm.kind}`, () =>
    db
      .select()
      .from(t)
      .where(and(eq(t.userId, sql.placeholder("person")), inArray(t.client, [ACCOUNT, sql.placeholder("client")])))
      .prepare(),
  );
  const rows = query.all({ person: personId, client }) as Row[];
  return { account: rows.find((r) => r.client === ACCOUNT), mine: rows.find((r) => r.client === client) };
}

/** Counts one failure of the account and of the client; sweeps old rows when the account's window starts. */
function charge(db: AuthRealm["db"], realm: AuthRealm, personId: number, client: string, rows: ReturnType<typeof readRows>, now: Date) {
  const t = realm.throttle;
  const nowS = seconds(now);
  const put = (row: Omit<Row, "userId" | "client" | "alertedAt">, forClient: string) =>
    db
      .insert(t)
      .values({ userId: personId, client: forClient, ...row })
      .onConflictDoUpdate({ target: [t.userId, t.client], set: row })
      .run();
  const mine = clientLive(rows.mine, nowS) ? rows.mine : null;
  const clientFailures = (mine?.failures ?? 0) + 1;
  const wait = waitAfter(clientFailures);
  put(
    { failures: clientFailures, windowStart: mine?.windowStart ?? now, lastFailureAt: now, waitUntil: wait ? at(nowS + wait) : null },
    client,
  );
  const account = windowLive(rows.account, nowS) ? rows.account : null;
  const accountFailures = (account?.failures ?? 0) + 1;
  put({ failures: accountFailures, windowStart: account?.windowStart ?? now, lastFailureAt: now, waitUntil: null }, ACCOUNT);
  // A new window of an account starts at most once an hour: a good time to let go of day-old rows.
  if (!account)
    db.delete(t)
      .where(lt(t.lastFailureAt, at(nowS - CLIENT_MEMORY_SECONDS)))
      .run();
  return accountFailures;
}

/**
 * Before a password is checked: refuses the attempt while the client must wait, or while the account is at
 * its ceiling (unless the client is one of its known devices); otherwise counts it as a failure at once (no
 * await between the read and the write, so a burst of concurrent guesses cannot all slip under the limits)
 * and `succeeded` takes it back. A refused attempt writes nothing but the claim of the owner's one alert of the
 * window (`alert`: tell them now).
 */
export function chargeAttempt(
  realm: AuthRealm,
  personId: number,
  client: string,
  { knownDevice }: { knownDevice: boolean },
  now = new Date(),
): Refusal | { accountFailures: number } {
  const nowS = seconds(now);
  const rows = readRows(realm.db, realm, personId, client);
  const { mine, account } = rows;
  if (clientLive(mine, nowS) && mine.waitUntil && seconds(mine.waitUntil) > nowS) {
    return { error: "wait", retryAfter: seconds(mine.waitUntil) - nowS, alert: false };
  }
  if (!knownDevice && windowLive(account, nowS) && account.failures >= MAX_FAILURES_PER_HOUR) {
    const retryAfter = Math.max(1, seconds(account.windowStart) + ACCOUNT_WINDOW_SECONDS - nowS);
    return { error: "throttled", retryAfter, alert: owesAlert(account) && claimAlert(realm.db, realm, personId, now) };
  }
  return { accountFailures: realm.db.transaction((tx) => charge(tx, realm, personId, client, rows, now)) };
}

/** A failure counted without a password check: a sign-in ended by wrong codes (two-factor.server.ts). */
export function chargeFailure(db: AuthRealm["db"], realm: AuthRealm, personId: number, client: string, now = new Date()) {
  charge(db, realm, personId, client, readRows(db, realm, personId, client), now);
}

/** The right password: the client's failures are forgiven, and the attempt's charge to the account taken back. */
export function succeeded(realm: AuthRealm, personId: number, client: string) {
  const t = realm.throttle;
  realm.db.transaction((tx) => {
    tx.delete(t)
      .where(and(eq(t.userId, personId), eq(t.client, client)))
      .run();
    tx.update(t)
      .set({ failures: sql`max(${t.failures} - 1, 0)` })
      .where(and(eq(t.userId, personId), eq(t.client, ACCOUNT)))
      .run();
  });
}

/**
 * Claims the one alert of the account's window: true for exactly one caller once the ceiling is reached
 * (the update is the check, so concurrent attempts cannot both claim it).
 */
export function claimAlert(db: AuthRealm["db"], realm: AuthRealm, personId: number, now = new Date()) {
  const t = realm.throttle;
  const row = db
    .update(t)
    .set({ alertedAt: now })
    .where(
      and(
        eq(t.userId, personId),
        eq(t.client, ACCOUNT),
        gte(t.failures, MAX_FAILURES_PER_HOUR),
        or(isNull(t.alertedAt), lt(t.alertedAt, t.windowStart)),
      ),
    )
    .returning({ userId: t.userId })
    .get();
  return Boolean(row);
}
