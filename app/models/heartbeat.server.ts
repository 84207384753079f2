import { eq, sql } from "drizzle-orm";
import type { TenantConn, TenantDb } from "../../db/open";
import { commitSoon } from "../../db/group-commit";
import { preparedOnce, toSeconds } from "../../db/prepared";
import { lessonProgress, users, watchTimeDaily, type Lesson } from "../../db/tenant";
import { publish } from "./events.server";
import { progressRow } from "./learning.server";

/**
 * A player's heartbeat: the lesson's position and the watch time it earns (docs/product.md §4). Watch time is
 * credited against one clock per person (users.watch_credited_until): a heartbeat gets at most the time
 * between that clock and now, and moves the clock on by what it got. However many heartbeats, lessons or
 * devices, the total never passes the wall clock. Idle time banks at most a minute.
 */
const MAX_BANKED_MS = 60_000;

/** A placeholder usable where drizzle's types want a value (update sets): bound when the query runs. */
const placeholder = (name: string) => sql`${sql.placeholder(name)}`;

function day(now: Date) {
  return now.toISOString().slice(0, 10);
}

export interface Heartbeat {
  userId: number;
  lesson: Lesson;
  positionSeconds: number;
  watchedSeconds: number;
  now?: Date;
}

/**
 * The position, and the seconds the player says were watched since the last heartbeat. What is credited is
 * never more than the wall-clock time between heartbeats (no farming by claiming hours).
 */
export function recordHeartbeat(db: TenantConn, heartbeat: Heartbeat) {
  return db.transaction((tx) => writeHeartbeat(tx, heartbeat));
}

/**
 * A heartbeat from /api: committed together with the other heartbeats of this moment, each in a savepoint
 * of its own (db/group-commit.ts); resolves once durable.
 */
export function recordHeartbeatInBatch(db: TenantDb, heartbeat: Heartbeat) {
  return commitSoon(db.$client, () => writeHeartbeat(db, heartbeat));
}

/**
 * `recordHeartbeat`'s writes without a transaction of their own, for a caller that already makes them
 * all-or-nothing: db/group-commit.ts gives every work of a batch its own savepoint.
 */
export function writeHeartbeat(tx: TenantConn, { userId, lesson, positionSeconds, watchedSeconds, now = new Date() }: Heartbeat) {
  const row = progressRow(tx, userId, lesson);
  // Built once per connection (db/prepared.ts): heartbeats are the most frequent write.
  const person = preparedOnce(tx, "heartbeat.creditClock", () =>
    tx
      .select({ until: users.watchCreditedUntil })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare(),
  ).get({ userId });
  const nowMs = now.getTime();
  // The first heartbeat only starts the clock; later ones draw on the time that has passed since.
  const from = person?.until == null ? nowMs : Math.min(nowMs, Math.max(person.until, nowMs - MAX_BANKED_MS));
  const available = Math.floor((nowMs - from) / 1000);
  // Only videos are watched; text and image lessons are read, and earn no watch time.
  const credited = lesson.kind === "video" ? Math.max(0, Math.min(Math.floor(watchedSeconds), available)) : 0;
  const until = from + credited * 1000;
  // A prepared update would freeze users.updated_at's $onUpdate value, so it is a placeholder here. A
  // clock that does not move (a reading lesson's heartbeat within the banked window) is not written.
  if (person?.until !== until)
    preparedOnce(tx, "heartbeat.moveCreditClock", () =>
      tx
        .update(users)
        .set({ watchCreditedUntil: placeholder("until"), updatedAt: placeholder("updatedAt") })
        .where(eq(users.id, sql.placeholder("userId")))
        .prepare(),
    ).run({ until, updatedAt: toSeconds(new Date()), userId });
  const updated = preparedOnce(tx, "heartbeat.progress", () =>
    tx
      .update(lessonProgress)
      .set({
        positionSeconds: placeholder("position"),
        watchedSeconds: placeholder("watched"),
        lastHeartbeatAt: placeholder("heartbeatMs"),
        updatedAt: placeholder("updatedAt"),
      })
      .where(eq(lessonProgress.id, sql.placeholder("id")))
      .returning()
      .prepare(),
  ).get({
    position: Math.max(0, Math.floor(positionSeconds)),
    watched: row.watchedSeconds + credited,
    heartbeatMs: now.getTime(), // last_heartbeat_at keeps milliseconds
    updatedAt: toSeconds(now),
    id: row.id,
  })!;
  if (credited > 0) {
    preparedOnce(tx, "heartbeat.watchTimeDaily", () =>
      tx
        .insert(watchTimeDaily)
        .values({ userId: sql.placeholder("userId"), day: sql.placeholder("day"), seconds: sql.placeholder("seconds") })
        .onConflictDoUpdate({
          target: [watchTimeDaily.userId, watchTimeDaily.day],
          set: { seconds: sql`${watchTimeDaily.seconds} + ${sql.placeholder("seconds")}` },
        })
        .prepare(),
    ).run({ userId, day: day(now), seconds: credited });
    publish(tx, "watchTimeCredited", { userId, lessonId: lesson.id, courseId: lesson.courseId, seconds: credited, at: now });
  }
  return { progress: updated, credited };
}
