import { describe, expect, it } from "vitest";
import { addMonths, bucketsOf, isoWeek, localMidnight, periodOf, previousPeriod } from "~/utils/analytics-periods";
import { parseAnalyticsQuery } from "~/utils/analytics-query";

const H = 3_600_000;

describe("analytics periods", () => {
  it("knows local midnight on both sides of a DST change", () => {
    expect(new Date(localMidnight("2026-03-29", "Europe/Copenhagen")).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(new Date(localMidnight("2026-03-30", "Europe/Copenhagen")).toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(new Date(localMidnight("2026-10-25", "Europe/Copenhagen")).toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(new Date(localMidnight("2026-01-01", "America/New_York")).toISOString()).toBe("2026-01-01T05:00:00.000Z");
    const [short, normal] = bucketsOf({ from: "2026-03-29", to: "2026-03-30" }, "day", "Europe/Copenhagen");
    expect(short.endMs - short.startMs).toBe(23 * H);
    expect(normal.endMs - normal.startMs).toBe(24 * H);
    const [long] = bucketsOf({ from: "2026-10-25", to: "2026-10-25" }, "day", "Europe/Copenhagen");
    expect(long.endMs - long.startMs).toBe(25 * H);
  });

  it("names ISO weeks by their week-numbering year", () => {
    expect(isoWeek("2025-12-29")).toEqual({ start: "2025-12-29", key: "2026-W01" });
    expect(isoWeek("2026-01-04")).toEqual({ start: "2025-12-29", key: "2026-W01" });
    expect(isoWeek("2027-01-01")).toEqual({ start: "2026-12-28", key: "2026-W53" });
    expect(isoWeek("2021-01-03")).toEqual({ start: "2020-12-28", key: "2020-W53" });
  });

  it("makes contiguous buckets that cover the period exactly", () => {
    const buckets = bucketsOf({ from: "2025-11-15", to: "2026-04-10" }, "month", "Europe/Copenhagen");
    expect(buckets.map((b) => b.key)).toEqual(["2025-11", "2025-12", "2026-01", "2026-02", "2026-03", "2026-04"]);
    expect(buckets[0].from).toBe("2025-11-15");
    expect(buckets.at(-1)!.to).toBe("2026-04-10");
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].startMs).toBe(buckets[i - 1].endMs);
  });

  it("resolves presets, the previous period and bad queries", () => {
    expect(periodOf("7d", "2026-03-05")).toEqual({ from: "2026-02-27", to: "2026-03-05" });
    expect(periodOf("12m", "2026-03-31")).toEqual({ from: "2025-04-01", to: "2026-03-31" });
    expect(addMonths("2026-03-31", -1)).toBe("2026-02-28");
    expect(previousPeriod({ from: "2026-03-01", to: "2026-03-31" })).toEqual({ from: "2026-01-29", to: "2026-02-28" });
    const now = new Date("2026-03-29T22:30:00Z"); // already the 30th in Copenhagen
    const ok = parseAnalyticsQuery(new URL("http://x/?period=7d&compare=true"), "Europe/Copenhagen", now);
    expect(ok.ok && ok.query).toEqual({ preset: "7d", period: { from: "2026-03-24", to: "2026-03-30" }, group: "day", compare: true });
    const custom = parseAnalyticsQuery(new URL("http://x/?from=2025-01-01&to=2025-12-31"), "UTC", now);
    expect(custom.ok && custom.query).toMatchObject({ preset: "custom", group: "month", compare: false });
    const bad = parseAnalyticsQuery(new URL("http://x/?from=2025-02-30&to=2025-01-01&group=year"), "UTC", now);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["from", "group"]));
    const reversed = parseAnalyticsQuery(new URL("http://x/?from=2025-03-01&to=2025-01-01"), "UTC", now);
    expect(!reversed.ok && reversed.error.issues[0].message).toBe("analytics.errors.order");
    const long = parseAnalyticsQuery(new URL("http://x/?from=2020-01-01&to=2025-01-01"), "UTC", now);
    expect(!long.ok && long.error.issues[0].message).toBe("analytics.errors.tooLong");
  });
});
