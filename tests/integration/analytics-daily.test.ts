import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { analyticsDaily, courses } from "../../db/tenant";
import { courseBreakdown, kpiReport, recordFact, type AnalyticsScope } from "../../app/models/analytics.server";
import { dailyRollupsIn, rebuildDailyRollups, rollupState } from "../../app/models/analytics-daily.server";
import { KPIS, type Grouping } from "../../app/utils/analytics-periods";
import type { AnalyticsMetric } from "../../db/tenant";

/**
 * The daily rollups (docs/decisions/018-analytics.md, "Daily rollups") must answer exactly what the hourly
 * facts answer: every KPI, grouping and comparison, and the per-course breakdown, over periods that cross
 * DST changes and year ends — whether the days were rebuilt from the hours or kept up fact by fact,
 * including facts recorded for an earlier day than the last one.
 */
const ORG: AnalyticsScope = { kind: "organization" };
const METRICS: AnalyticsMetric[] = ["watch_seconds", "completions", "downloads", "quiz_attempts", "quiz_passes"];
const PERIODS = [
  { from: "2025-10-20", to: "2026-04-05" }, // both of Copenhagen's DST changes and a year end
  { from: "2026-03-29", to: "2026-03-29" }, // the 23-hour day
  { from: "2025-01-01", to: "2026-12-31" }, // longer than the facts
  { from: "2026-02-10", to: "2026-06-30" },
];
const GROUPS: Grouping[] = ["day", "week", "month"];

let dir: string;
let db: TenantDb;
let courseIds: number[];

// A fixed pseudo-random sequence, so a failure can be replayed.
let seed = 20261126;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

function record(count: number, fromMs: number, toMs: number, nested = false) {
  // Facts are recorded inside the learning model's own transactions, which may be savepoints of a caller's.
  const write = (work: (tx: TenantDb) => void) =>
    nested ? db.transaction((outer) => outer.transaction((tx) => work(tx as never))) : db.transaction((tx) => work(tx as never));
  write((tx) => {
    for (let i = 0; i < count; i++) {
      const metric = METRICS[Math.floor(random() * METRICS.length)];
      const courseId = random() < 0.1 ? null : courseIds[Math.floor(random() * courseIds.length)];
      const at = new Date(fromMs + Math.floor(random() * (toMs - fromMs)));
      recordFact(tx, { metric, userId: null, courseId, at, value: metric === "watch_seconds" ? 1 + Math.floor(random() * 900) : 1 });
    }
  });
}

/** Every report and breakdown in a zone: what the page and the /api calls can ask. */
function everything(timeZone: string) {
  const out: unknown[] = [];
  for (const period of PERIODS) {
    for (const kpi of KPIS) {
      for (const group of GROUPS) out.push(kpiReport(db, { kpi, period, group, timeZone, scope: ORG, compare: true }));
    }
    out.push(courseBreakdown(db, { period, timeZone, scope: ORG }));
  }
  return out;
}

/** The same questions answered from the hours: the rollups marked as not ready for a moment. */
function fromHours(timeZone: string) {
  const sqlite = db.$client;
  const saved = sqlite.prepare("select ready from analytics_rollup where id = 1").get() as { ready: number } | undefined;
  sqlite.prepare("update analytics_rollup set ready = 0 where id = 1").run();
  try {
    expect(dailyRollupsIn(db, timeZone)).toBe(false);
    return everything(timeZone);
  } finally {
    if (saved) sqlite.prepare("update analytics_rollup set ready = ? where id = 1").run(saved.ready);
  }
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-analytics-daily-"));
  const file = path.join(dir, "db.sqlite");
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  courseIds = ["Førstehjælp", "Brandsikkerhed", "GDPR", "Hygiejne"].map(
    (title) => db.insert(courses).values({ title, type: "series", published: true }).returning().get().id,
  );
  // Facts before the rollups exist: only the hours have them.
  record(3_000, Date.parse("2025-09-01T00:00:00Z"), Date.parse("2026-07-01T00:00:00Z"));
});
afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("daily analytics rollups", () => {
  it("are not used before they are built, and a rebuild makes them answer what the hours answer", async () => {
    expect(rollupState(db)).toEqual({ timeZone: null, ready: false });
    const hours = everything("Europe/Copenhagen");
    expect(db.select().from(analyticsDaily).all()).toEqual([]);
    const rebuilt = await rebuildDailyRollups(db, "Europe/Copenhagen");
    expect(rebuilt).toBe(courseIds.length + 1); // every course and the totals
    expect(dailyRollupsIn(db, "Europe/Copenhagen")).toBe(true);
    const days = everything("Europe/Copenhagen");
    expect(days).toEqual(hours);
    // Not a comparison of empty answers: the year has facts in every KPI but new users (none were made).
    const breakdown = courseBreakdown(db, { period: PERIODS[0], timeZone: "Europe/Copenhagen", scope: ORG });
    expect(breakdown.length).toBe(courseIds.length);
    expect(breakdown.every((c) => c.completions > 0 && c.watch_minutes > 0 && (c.downloads ?? 0) > 0)).toBe(true);
  });

  it("are kept up fact by fact, also for facts on earlier days than the last", () => {
    // Today's facts, then late ones spread over the past year: the running totals of later days follow.
    record(500, Date.parse("2026-06-20T00:00:00Z"), Date.parse("2026-07-01T00:00:00Z"));
    record(500, Date.parse("2025-09-01T00:00:00Z"), Date.parse("2026-07-01T00:00:00Z"), true);
    expect(dailyRollupsIn(db, "Europe/Copenhagen")).toBe(true);
    expect(everything("Europe/Copenhagen")).toEqual(fromHours("Europe/Copenhagen"));
  });

  it("answer from the hours in another zone until rebuilt in it, then from the days again", async () => {
    const zone = "America/Sao_Paulo";
    expect(dailyRollupsIn(db, zone)).toBe(false);
    const hours = everything(zone);
    expect(hours).not.toEqual(everything("Europe/Copenhagen")); // the zone moves facts between days
    await rebuildDailyRollups(db, zone);
    expect(rollupState(db)).toEqual({ timeZone: zone, ready: true });
    expect(dailyRollupsIn(db, "Europe/Copenhagen")).toBe(false);
    expect(everything(zone)).toEqual(hours);
  });

  it("leave a rebuild to the newer one when the zone changes again meanwhile", async () => {
    let first = true;
    const pause = async () => {
      if (!first) return;
      first = false;
      // Another rebuild starts (the zone was changed again) and finishes while this one pauses.
      await rebuildDailyRollups(db, "Europe/Copenhagen");
    };
    const outdated = await rebuildDailyRollups(db, "Asia/Tokyo", { pause, every: 1 });
    expect(outdated).toBeNull();
    expect(rollupState(db)).toEqual({ timeZone: "Europe/Copenhagen", ready: true });
    expect(everything("Europe/Copenhagen")).toEqual(fromHours("Europe/Copenhagen"));
  });
});
