import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { courses, lessons, pointsHistogram, pointsLedger, pointsTotals, users, type Lesson } from "../../db/tenant";
import { publish } from "../../app/models/events.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { setBookmark } from "../../app/models/bookmarks.server";
import { recordHeartbeat } from "../../app/models/heartbeat.server";
import { completeLesson } from "../../app/models/learning.server";
import { boardPage, currentBoard, learnerSummary, standing, widget, WIDGET_RECOUNT_MS } from "../../app/models/leaderboard.server";
import { resetBoard, saveBadge, saveLevel, setHidden, totalsFromLedger, updateActivity } from "../../app/models/leaderboard-admin.server";
import { ensureLeaderboard } from "../../app/models/points.server";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

/**
 * The points ledger against real tenant database files: awards happen once, inside the event's
 * transaction, and every total, rank and level equals what the ledger says.
 */
let dir: string;
let db: TenantDb;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-points-"));
  const file = path.join(dir, "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
});
afterEach(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function learner(firstName: string) {
  return db
    .insert(users)
    .values({ email: `${firstName.toLowerCase()}@test.dk`, firstName, lastName: "Test", role: "learner" })
    .returning()
    .get().id;
}

function course(title: string, lessonCount = 2) {
  const c = db.insert(courses).values({ title, published: true }).returning().get();
  const ls: Lesson[] = [];
  for (let i = 0; i < lessonCount; i++)
    ls.push(
      db
        .insert(lessons)
        .values({ courseId: c.id, title: `${title} ${i + 1}`, position: i })
        .returning()
        .get(),
    );
  return { id: c.id, lessons: ls };
}

const ledgerRows = () => db.select().from(pointsLedger).all();

/** Totals and histogram equal a recomputation from the ledger alone. */
function expectTotalsMatchLedger() {
  const expected = totalsFromLedger(db);
  const actual = new Map(
    db
      .select()
      .from(pointsTotals)
      .all()
      .map((t) => [`${t.period}|${t.key}|${t.userId}`, t.points]),
  );
  expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  const histogram = new Map<string, number>();
  for (const t of db.select().from(pointsTotals).all()) {
    if (t.hidden) continue;
    const k = `${t.period}|${t.key}|${t.points}`;
    histogram.set(k, (histogram.get(k) ?? 0) + 1);
  }
  const stored = new Map(
    db
      .select()
      .from(pointsHistogram)
      .all()
      .map((h) => [`${h.period}|${h.key}|${h.points}`, h.learners]),
  );
  expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(histogram));
}

describe("the ledger", () => {
  it("awards a completed lesson and course once, however often they are recorded", () => {
    const ada = learner("Ada");
    const c = course("Sikkerhed");
    for (let i = 0; i < 5; i++) for (const lesson of c.lessons) completeLesson(db, { userId: ada, lesson });
    const rows = ledgerRows();
    expect(rows.map((r) => `${r.activity}:${r.ref}`).sort()).toEqual(
      [`course_completed:course:${c.id}`, ...c.lessons.map((l) => `lesson_completed:lesson:${l.id}`)].sort(),
    );
    expect(learnerSummary(db, ada).points).toBe(10 + 10 + 50);
    expectTotalsMatchLedger();
  });

  it("awards nothing when the event's transaction rolls back", () => {
    const ada = learner("Ada");
    const c = course("Rollback", 1);
    ensureLeaderboard(db);
    expect(() =>
      db.transaction((tx) => {
        publish(tx, "lessonCompleted", { userId: ada, lessonId: c.lessons[0].id, courseId: c.id, at: new Date() });
        throw new Error("the recording failed");
      }),
    ).toThrow("the recording failed");
    expect(ledgerRows()).toEqual([]);
    expect(db.select().from(pointsTotals).all()).toEqual([]);
    expect(learnerSummary(db, ada).points).toBe(0);
  });

  it("gives quiz points for a pass, a first-try bonus and a perfect-score bonus, once per quiz", () => {
    const ada = learner("Ada");
    const bo = learner("Bo");
    const quiz = (userId: number, attemptNumber: number, score: number, passed: boolean) =>
      db.transaction((tx) =>
        publish(tx, "quizAttemptEnded", {
          userId,
          quizId: 7,
          attemptId: attemptNumber,
          lessonId: null,
          courseId: null,
          score,
          passed,
          attemptNumber,
          at: new Date(),
        }),
      );
    quiz(ada, 1, 80, true);
    quiz(ada, 2, 100, true);
    quiz(ada, 3, 100, true);
    expect(learnerSummary(db, ada).points).toBe(20 + 10 + 15);
    quiz(bo, 1, 40, false);
    expect(learnerSummary(db, bo).points).toBe(0);
    quiz(bo, 2, 90, true);
    expect(learnerSummary(db, bo).points).toBe(20);
    expect(learnerSummary(db, ada).badges.map((b) => b.name)).toContain("Perfect score");
    expectTotalsMatchLedger();
  });

  it("cannot be farmed by bookmarking a course off and on, and caps bookmark points per day", () => {
    const ada = learner("Ada");
    const many = Array.from({ length: 7 }, (_, i) => course(`B${i}`, 0));
    for (let i = 0; i < 4; i++) {
      setBookmark(db, ada, many[0].id, true);
      setBookmark(db, ada, many[0].id, false);
    }
    expect(learnerSummary(db, ada).points).toBe(2);
    for (const c of many) setBookmark(db, ada, c.id, true);
    // The default cap is 5 bookmark awards a day.
    expect(learnerSummary(db, ada).points).toBe(5 * 2);
    expect(ledgerRows().filter((r) => r.activity === "bookmark")).toHaveLength(7);
    expectTotalsMatchLedger();
  });

  it("follows the admins' activity settings, and a new badge reaches those who already qualify", () => {
    const ada = learner("Ada");
    const c = course("Indstillinger", 3);
    updateActivity(db, "lesson_completed", { points: 25, enabled: true, dailyCap: null });
    completeLesson(db, { userId: ada, lesson: c.lessons[0] });
    updateActivity(db, "lesson_completed", { points: 25, enabled: false, dailyCap: null });
    completeLesson(db, { userId: ada, lesson: c.lessons[1] });
    expect(learnerSummary(db, ada).points).toBe(25);
    saveBadge(db, null, { name: "Two lessons", description: "", rule: "lessons_completed", threshold: 2, color: "#123456" });
    expect(learnerSummary(db, ada).badges.map((b) => b.name)).toContain("Two lessons");
  });
});

describe("levels and ranks", () => {
  it("derive from the ledger: level progress, ties, and a rank outside the top", () => {
    const names = ["Ada", "Bo", "Cai", "Dina", "Eik"];
    const ids = names.map(learner);
    const c = course("Rangliste", 5);
    ids.forEach((id, i) => {
      for (const lesson of c.lessons.slice(0, i + 1)) completeLesson(db, { userId: id, lesson });
    });
    // Eik completed the course (5 lessons + course), Dina and Cai ... fewer.
    const board = currentBoard(ensureLeaderboard(db), "all");
    const top = boardPage(db, board, { limit: 3 });
    expect(top.map((e) => [e.name, e.points, e.rank])).toEqual([
      ["Eik Test", 100, 1],
      ["Dina Test", 40, 2],
      ["Cai Test", 30, 3],
    ]);
    expect(standing(db, board, ids[0])).toMatchObject({ points: 10, rank: 5 });
    saveLevel(db, null, { name: "Halfway", threshold: 50, color: "#00ff00" });
    const eik = learnerSummary(db, ids[4]);
    expect(eik).toMatchObject({ points: 100, level: { name: "Explorer" }, next_level: { name: "Achiever" }, percent: 0, to_next: 200 });
    expect(learnerSummary(db, ids[3])).toMatchObject({ level: { name: "Beginner" }, next_level: { name: "Halfway" }, percent: 80 });
    expectTotalsMatchLedger();
  });

  it("leave out opted-out learners from others' boards and ranks, while they keep earning", () => {
    const [ada, bo, cai] = ["Ada", "Bo", "Cai"].map(learner);
    const c = course("Privat", 3);
    c.lessons.forEach((lesson) => completeLesson(db, { userId: bo, lesson }));
    completeLesson(db, { userId: cai, lesson: c.lessons[0] });
    completeLesson(db, { userId: ada, lesson: c.lessons[0] });
    completeLesson(db, { userId: ada, lesson: c.lessons[1] });
    setHidden(db, bo, true);
    const board = currentBoard(ensureLeaderboard(db), "all");
    expect(boardPage(db, board).map((e) => e.user_id)).toEqual([ada, cai]);
    expect(standing(db, board, ada).rank).toBe(1);
    expect(standing(db, board, bo)).toMatchObject({ hidden: true, points: 80 });
    for (const name of ["bookmarks", "streak"] as const) expect(widget(db, name).map((e) => e.user_id)).not.toContain(bo);
    expectTotalsMatchLedger();
    setHidden(db, bo, false);
    expect(boardPage(db, board)[0].user_id).toBe(bo);
    expectTotalsMatchLedger();
  });

  it("resets a period's board without touching the ledger or levels", () => {
    const ada = learner("Ada");
    const c = course("Nulstil", 3);
    completeLesson(db, { userId: ada, lesson: c.lessons[0] });
    const settings = ensureLeaderboard(db);
    resetBoard(db, "month", new Date(Date.now() + 1500));
    expect(standing(db, currentBoard(settings, "month"), ada).points).toBe(0);
    expect(learnerSummary(db, ada).points).toBe(10);
    expect(ledgerRows()).toHaveLength(1);
    expectTotalsMatchLedger();
  });
});

describe("time windows", () => {
  it("count streak days in the organization's time zone", () => {
    const ada = learner("Ada");
    const c = course("Streak", 4);
    // 23:30 UTC on the 22nd is already the 23rd in Copenhagen; 22:30 UTC on the 23rd is still the 23rd.
    completeLesson(db, { userId: ada, lesson: c.lessons[0], now: new Date("2026-11-22T23:30:00Z") });
    completeLesson(db, { userId: ada, lesson: c.lessons[1], now: new Date("2026-11-23T22:30:00Z") });
    let summary = learnerSummary(db, ada, new Date("2026-11-23T22:40:00Z"));
    expect(summary.streak).toBe(1);
    completeLesson(db, { userId: ada, lesson: c.lessons[2], now: new Date("2026-11-23T23:10:00Z") }); // the 24th there
    summary = learnerSummary(db, ada, new Date("2026-11-24T12:00:00Z"));
    expect(summary.streak).toBe(2);
    expect(
      ledgerRows()
        .filter((r) => r.activity === "streak_day")
        .map((r) => r.ref),
    ).toEqual(["day:2026-11-24"]);
    // A missed day ends the streak.
    expect(learnerSummary(db, ada, new Date("2026-11-26T12:00:00Z")).streak).toBe(0);
    completeLesson(db, { userId: ada, lesson: c.lessons[3], now: new Date("2026-11-26T12:00:00Z") });
    expect(learnerSummary(db, ada, new Date("2026-11-26T12:00:00Z"))).toMatchObject({ streak: 1, longest_streak: 2 });
  });

  it("window widgets count their figures at most once a minute, but opt-outs, deletions and names apply at once", () => {
    const [ada, bo, cai] = ["Ada", "Bo", "Cai"].map(learner);
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    db.$client
      .prepare("insert into watch_time_daily (user_id, day, seconds) values (?, ?, 300), (?, ?, 200), (?, ?, 100)")
      .run(ada, today, bo, today, cai, today);
    const top = () => widget(db, "watch-time", { limit: 2, now }).map((e) => [e.name, e.value]);
    expect(top()).toEqual([
      ["Ada Test", 300],
      ["Bo Test", 200],
    ]);
    // New figures wait for the next count...
    db.$client.prepare("update watch_time_daily set seconds = 900 where user_id = ?").run(cai);
    expect(top()).toEqual([
      ["Ada Test", 300],
      ["Bo Test", 200],
    ]);
    // ...but an opt-out, a new name or a deleted person shows on the next view, and the list stays full.
    setHidden(db, ada, true);
    db.$client.prepare("update users set first_name = 'Bodil' where id = ?").run(bo);
    expect(top()).toEqual([
      ["Bodil Test", 200],
      ["Cai Test", 100],
    ]);
    db.$client.prepare("delete from users where id = ?").run(bo);
    expect(top()).toEqual([["Cai Test", 100]]);
    vi.useFakeTimers({ now: Date.now() + WIDGET_RECOUNT_MS + 1, toFake: ["Date"] });
    try {
      expect(top()).toEqual([["Cai Test", 900]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("widgets count bookmarks of the last 30 days and watch time of the last 7", () => {
    const [ada, bo] = ["Ada", "Bo"].map(learner);
    const cs = [course("W1", 0), course("W2", 0), course("W3", 0)];
    const now = new Date("2026-11-23T12:00:00Z");
    setBookmark(db, ada, cs[0].id, true);
    setBookmark(db, bo, cs[0].id, true);
    setBookmark(db, bo, cs[1].id, true);
    db.$client
      .prepare("update bookmarks set created_at = ? where user_id = ? and course_id = ?")
      .run(Math.floor(now.getTime() / 1000) - 31 * 86400, bo, cs[1].id);
    db.$client.prepare("update bookmarks set created_at = ? where course_id = ?").run(Math.floor(now.getTime() / 1000) - 86400, cs[0].id);
    expect(widget(db, "bookmarks", { now }).map((e) => [e.user_id, e.value, e.rank])).toEqual([
      [ada, 1, 1],
      [bo, 1, 1],
    ]);
    const video = db.insert(lessons).values({ courseId: cs[2].id, title: "Video", kind: "video" }).returning().get();
    recordHeartbeat(db, { userId: ada, lesson: video, positionSeconds: 0, watchedSeconds: 0, now });
    recordHeartbeat(db, { userId: ada, lesson: video, positionSeconds: 30, watchedSeconds: 30, now: new Date(now.getTime() + 30_000) });
    db.$client
      .prepare("insert into watch_time_daily (user_id, day, seconds) values (?, '2026-11-17', 100), (?, '2026-11-16', 1000)")
      .run(bo, bo);
    expect(widget(db, "watch-time", { now }).map((e) => [e.user_id, e.value])).toEqual([
      [bo, 100],
      [ada, 30],
    ]);
    expect(widget(db, "streak", { now }).map((e) => [e.user_id, e.value])).toEqual([[ada, 1]]);
  });
});
