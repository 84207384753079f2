import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { courses, files, groupMembers, groups, lessons, materials, users } from "../../db/tenant";
import {
  courseBreakdown,
  isDownloadStart,
  kpiReport,
  recordFileServed,
  type AnalyticsScope,
  type Kpi,
} from "../../app/models/analytics.server";
import { publish } from "../../app/models/events.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { recordHeartbeat } from "../../app/models/heartbeat.server";
import { completeLesson } from "../../app/models/learning.server";
import type { Grouping } from "../../app/utils/analytics-periods";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

/**
 * The numbers of issue 15 against a real tenant file: a known history recorded through the real learning
 * model and event hooks, on days around Copenhagen's switch to summer time (29 March 2026, a 23-hour day)
 * and the turn of the year, checked bucket by bucket.
 */
const TZ = "Europe/Copenhagen";
const ORG: AnalyticsScope = { kind: "organization" };
let dir: string;
let db: TenantDb;
let course: number;
let other: number;
let material: number;
let groupId: number;
const people: Record<string, number> = {};

const at = (iso: string) => new Date(iso);

function person(email: string, createdAt: string) {
  const row = db
    .insert(users)
    .values({ email, role: "learner", createdAt: at(createdAt) })
    .returning()
    .get();
  people[email] = row.id;
  return row.id;
}

/** A heartbeat a minute (the player's rhythm; idle time banks at most a minute), the first starting the clock. */
function watch(userId: number, lesson: typeof lessons.$inferSelect, startIso: string, minutes: number) {
  const start = at(startIso).getTime();
  for (let i = 0; i <= minutes; i++) {
    recordHeartbeat(db, { userId, lesson, positionSeconds: i * 60, watchedSeconds: i === 0 ? 0 : 60, now: new Date(start + i * 60_000) });
  }
}

function report(kpi: Kpi, from: string, to: string, group: Grouping, scope: AnalyticsScope = ORG, compare = false) {
  return kpiReport(db, { kpi, period: { from, to }, group, timeZone: TZ, scope, compare });
}
const values = (r: ReturnType<typeof report>) => r.current!.buckets.map((b) => [b.key, b.value]);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-analytics-"));
  const file = path.join(dir, "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  // New users: local 23:30 on New Year's Eve, 00:30 on New Year's Day; around the DST change.
  person("a@x.test", "2025-12-31T22:30:00Z"); // 2025-12-31 23:30 CET
  person("b@x.test", "2025-12-31T23:30:00Z"); // 2026-01-01 00:30 CET
  person("c@x.test", "2026-03-28T23:30:00Z"); // 2026-03-29 00:30 CET
  person("d@x.test", "2026-03-29T21:30:00Z"); // 2026-03-29 23:30 CEST
  person("e@x.test", "2026-03-29T22:30:00Z"); // 2026-03-30 00:30 CEST (still the 29th in UTC)
  course = db.insert(courses).values({ title: "Førstehjælp", type: "series", published: true }).returning().get().id;
  other = db.insert(courses).values({ title: "Brandsikkerhed", type: "series", published: true }).returning().get().id;
  groupId = db.insert(groups).values({ name: "Team Syd" }).returning().get().id;
  db.insert(groupMembers)
    .values([
      { groupId, userId: people["b@x.test"] },
      { groupId, userId: people["d@x.test"] },
    ])
    .run();
  const file1 = db
    .insert(files)
    .values({ kind: "document", mime: "application/pdf", name: "h.pdf", size: 1, sha256: "x", path: "a/h.pdf" })
    .returning()
    .get();
  material = file1.id;
  db.insert(materials).values({ courseId: course, fileId: file1.id, title: "Håndbog" }).run();
});
afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("recording through the learning model", () => {
  it("counts a course completion once, at the moment of the last lesson", () => {
    const video = db
      .insert(lessons)
      .values({ courseId: course, title: "Film", kind: "video", videoUrl: "https://example.org/v.mp4" })
      .returning()
      .get();
    const text = db.insert(lessons).values({ courseId: course, title: "Tekst", kind: "text" }).returning().get();
    const single = db.insert(lessons).values({ courseId: other, title: "Eneste", kind: "text" }).returning().get();
    // d: watches 10 minutes on the evening of the short day (a heartbeat a minute), then completes.
    watch(people["d@x.test"], video, "2026-03-29T20:00:00Z", 10);
    completeLesson(db, { userId: people["d@x.test"], lesson: video, now: at("2026-03-29T21:40:00Z") });
    completeLesson(db, { userId: people["d@x.test"], lesson: text, now: at("2026-03-29T21:45:00Z") }); // 23:45 CEST, the 29th
    completeLesson(db, { userId: people["d@x.test"], lesson: text, now: at("2026-03-29T21:50:00Z") }); // again: no second completion
    // e: completes the other course at 00:10 CEST on the 30th (22:10 UTC on the 29th).
    completeLesson(db, { userId: people["e@x.test"], lesson: single, now: at("2026-03-29T22:10:00Z") });
    // a and b: the other course, either side of midnight on New Year's Eve.
    completeLesson(db, { userId: people["a@x.test"], lesson: single, now: at("2025-12-31T22:59:59Z") });
    completeLesson(db, { userId: people["b@x.test"], lesson: single, now: at("2025-12-31T23:00:00Z") });
    // b watches 2 minutes right after midnight on New Year's Day.
    watch(people["b@x.test"], video, "2025-12-31T23:05:00Z", 2);

    expect(values(report("completions", "2026-03-28", "2026-03-31", "day"))).toEqual([
      ["2026-03-28", 0],
      ["2026-03-29", 1],
      ["2026-03-30", 1],
      ["2026-03-31", 0],
    ]);
    expect(values(report("watch_time", "2026-03-28", "2026-03-31", "day"))).toEqual([
      ["2026-03-28", 0],
      ["2026-03-29", 10],
      ["2026-03-30", 0],
      ["2026-03-31", 0],
    ]);
  });

  it("counts quiz attempts and passes per course from the quizAttemptEnded event", () => {
    db.transaction((tx) => {
      const base = { quizId: 1, lessonId: null, courseId: course, score: 40, passed: false };
      publish(tx, "quizAttemptEnded", {
        ...base,
        userId: people["d@x.test"],
        attemptId: 1,
        attemptNumber: 1,
        at: at("2026-03-29T10:00:00Z"),
      });
      publish(tx, "quizAttemptEnded", {
        ...base,
        userId: people["d@x.test"],
        attemptId: 2,
        attemptNumber: 2,
        score: 90,
        passed: true,
        at: at("2026-03-29T11:00:00Z"),
      });
      publish(tx, "quizAttemptEnded", {
        ...base,
        userId: people["c@x.test"],
        attemptId: 3,
        attemptNumber: 1,
        score: 80,
        passed: true,
        at: at("2026-03-30T11:00:00Z"),
      });
      publish(tx, "quizAttemptEnded", {
        ...base,
        userId: people["e@x.test"],
        attemptId: 4,
        attemptNumber: 1,
        at: at("2026-03-30T12:00:00Z"),
      });
    });
    const rows = courseBreakdown(db, { period: { from: "2026-03-29", to: "2026-03-30" }, timeZone: TZ, scope: ORG });
    const first = rows.find((r) => r.course_id === course)!;
    expect(first).toMatchObject({ completions: 1, watch_minutes: 10, quiz_attempts: 4, quiz_passes: 2, quiz_pass_rate: 50 });
    expect(rows.find((r) => r.course_id === other)).toMatchObject({ completions: 1, quiz_attempts: 0, quiz_pass_rate: null });
    // Only the 29th: d's two attempts, one passed.
    const day = courseBreakdown(db, { period: { from: "2026-03-29", to: "2026-03-29" }, timeZone: TZ, scope: ORG });
    expect(day.find((r) => r.course_id === course)).toMatchObject({ quiz_attempts: 2, quiz_passes: 1, quiz_pass_rate: 50 });
  });

  it("counts a material download when the file is served from its start, and nothing else", () => {
    expect(isDownloadStart("GET", undefined)).toBe(true);
    expect(isDownloadStart("GET", "bytes=0-")).toBe(true);
    expect(isDownloadStart("GET", "bytes=1000-2000")).toBe(false);
    expect(isDownloadStart("HEAD", undefined)).toBe(false);
    expect(recordFileServed(db, { fileId: material, at: at("2026-03-29T22:59:00Z") })).toBe(true); // 00:59 on the 30th
    expect(recordFileServed(db, { fileId: material, at: at("2026-03-30T07:00:00Z") })).toBe(true);
    const image = db
      .insert(files)
      .values({ kind: "image", mime: "image/png", name: "i.png", size: 1, sha256: "y", path: "a/i.png" })
      .returning()
      .get();
    expect(recordFileServed(db, { fileId: image.id, at: at("2026-03-30T07:00:00Z") })).toBe(false);
    expect(values(report("downloads", "2026-03-29", "2026-03-30", "day"))).toEqual([
      ["2026-03-29", 0],
      ["2026-03-30", 2],
    ]);
    const rows = courseBreakdown(db, { period: { from: "2026-03-30", to: "2026-03-30" }, timeZone: TZ, scope: ORG });
    expect(rows.find((r) => r.course_id === course)).toMatchObject({ downloads: 2 });
  });
});

describe("buckets", () => {
  it("puts new users on the organization's local day across the DST change", () => {
    expect(values(report("new_users", "2026-03-28", "2026-03-31", "day"))).toEqual([
      ["2026-03-28", 0],
      ["2026-03-29", 2],
      ["2026-03-30", 1],
      ["2026-03-31", 0],
    ]);
  });

  it("groups ISO weeks across the year boundary, clipped to the period, empty weeks as zero", () => {
    expect(values(report("new_users", "2025-12-25", "2026-01-14", "week"))).toEqual([
      ["2025-W52", 0],
      ["2026-W01", 2],
      ["2026-W02", 0],
      ["2026-W03", 0],
    ]);
    const r = report("completions", "2025-12-25", "2026-01-14", "week");
    expect(r.current!.buckets[0]).toMatchObject({ key: "2025-W52", from: "2025-12-25", to: "2025-12-28" });
    expect(r.current!.buckets[3]).toMatchObject({ key: "2026-W03", from: "2026-01-12", to: "2026-01-14" });
    expect(values(r)).toEqual([
      ["2025-W52", 0],
      ["2026-W01", 2],
      ["2026-W02", 0],
      ["2026-W03", 0],
    ]);
  });

  it("groups months in local time: 23:59:59 and 00:00:00 on New Year's Eve land in different years", () => {
    expect(values(report("completions", "2025-11-01", "2026-04-30", "month"))).toEqual([
      ["2025-11", 0],
      ["2025-12", 1],
      ["2026-01", 1],
      ["2026-02", 0],
      ["2026-03", 2],
      ["2026-04", 0],
    ]);
    expect(values(report("new_users", "2025-12-01", "2026-03-31", "month"))).toEqual([
      ["2025-12", 1],
      ["2026-01", 1],
      ["2026-02", 0],
      ["2026-03", 3],
    ]);
    expect(values(report("watch_time", "2025-12-01", "2026-03-31", "month"))).toEqual([
      ["2025-12", 0],
      ["2026-01", 2],
      ["2026-02", 0],
      ["2026-03", 10],
    ]);
  });
});

describe("comparison", () => {
  it("compares with the previous period of the same length, absolute and in percent", () => {
    // 29–30 March (3 new users) against 27–28 March (none): no percentage from zero.
    const r = report("new_users", "2026-03-29", "2026-03-30", "day", ORG, true);
    expect(r.current!.total).toBe(3);
    expect(r.previous).toMatchObject({ from: "2026-03-27", to: "2026-03-28", total: 0 });
    expect(r.change).toEqual({ absolute: 3, percent: null });
    // 30 March (1) against 29 March (2): −1, −50 %.
    expect(report("new_users", "2026-03-30", "2026-03-30", "day").change).toEqual({ absolute: -1, percent: -50 });
    // 1 January against New Year's Eve: one each.
    const y = report("completions", "2026-01-01", "2026-01-01", "day", ORG, true);
    expect(y.previous!.buckets).toEqual([{ key: "2025-12-31", from: "2025-12-31", to: "2025-12-31", value: 1 }]);
    expect(y.change).toEqual({ absolute: 0, percent: 0 });
    // Without compare, no previous buckets, but still the change.
    expect(report("completions", "2026-01-01", "2026-01-01", "day").previous).toBeNull();
  });
});

describe("group scope", () => {
  it("counts only the members of the administered groups, and no downloads", () => {
    const scope: AnalyticsScope = { kind: "groups", groupIds: [groupId] };
    // b (New Year's Day) and d (29 March) are members; a, c and e are not.
    expect(report("new_users", "2025-12-31", "2026-01-01", "day", scope).current!.total).toBe(1);
    expect(values(report("new_users", "2026-03-29", "2026-03-30", "day", scope))).toEqual([
      ["2026-03-29", 1],
      ["2026-03-30", 0],
    ]);
    expect(values(report("completions", "2026-03-29", "2026-03-30", "day", scope))).toEqual([
      ["2026-03-29", 1],
      ["2026-03-30", 0],
    ]);
    expect(report("watch_time", "2026-01-01", "2026-01-01", "day", scope).current!.total).toBe(2);
    expect(report("downloads", "2026-03-29", "2026-03-30", "day", scope).current).toBeNull();
    const rows = courseBreakdown(db, { period: { from: "2026-03-29", to: "2026-03-30" }, timeZone: TZ, scope });
    expect(rows.find((r) => r.course_id === course)).toMatchObject({ completions: 1, quiz_attempts: 2, quiz_passes: 1, downloads: null });
    expect(rows.find((r) => r.course_id === other)).toBeUndefined();
    expect(report("new_users", "2026-03-29", "2026-03-30", "day", { kind: "groups", groupIds: [] }).current!.total).toBe(0);
  });
});
