import { describe, expect, it } from "vitest";
import { bucketsOf } from "~/utils/analytics-periods";
import { addDays, dayIn, DEFAULT_TIME_ZONE, isoWeek, localMidnight, monthKey, rangeOf, weekKey } from "~/utils/calendar";

/**
 * The one calendar (app/utils/calendar.ts) that analytics buckets and the leaderboard's days, weeks and
 * months share: boundaries across DST changes and year ends, in zones on both hemispheres.
 */
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const hours = (r: { startMs: number; endMs: number }) => (r.endMs - r.startMs) / H;

describe("days in a time zone", () => {
  it("puts an instant on the zone's day, not UTC's", () => {
    const newYearsEve = new Date("2026-12-31T23:30:00Z");
    expect(dayIn("Europe/Copenhagen", newYearsEve)).toBe("2027-01-01");
    expect(dayIn("America/New_York", newYearsEve)).toBe("2026-12-31");
    expect(dayIn("Asia/Tokyo", new Date("2026-03-01T16:00:00Z"))).toBe("2026-03-02");
    expect(dayIn("UTC", newYearsEve)).toBe("2026-12-31");
  });

  it("counts an unknown zone in the default one rather than failing", () => {
    expect(DEFAULT_TIME_ZONE).toBe("Europe/Copenhagen");
    expect(dayIn("Mars/Olympus_Mons", new Date("2026-06-30T22:30:00Z"))).toBe("2026-07-01");
  });

  it("gives 23- and 25-hour days where the clocks change", () => {
    expect(hours(rangeOf("2026-03-29", "day", "Europe/Copenhagen"))).toBe(23);
    expect(hours(rangeOf("2026-10-25", "day", "Europe/Copenhagen"))).toBe(25);
    expect(hours(rangeOf("2026-03-08", "day", "America/New_York"))).toBe(23);
    expect(hours(rangeOf("2026-11-01", "day", "America/New_York"))).toBe(25);
    // Southern hemisphere: Sydney leaves DST in April and enters it in October.
    expect(hours(rangeOf("2026-04-05", "day", "Australia/Sydney"))).toBe(25);
    expect(hours(rangeOf("2026-10-04", "day", "Australia/Sydney"))).toBe(23);
    expect(hours(rangeOf("2026-07-01", "day", "Australia/Sydney"))).toBe(24);
    // The instant just before local midnight is still the old day; midnight itself is the new one.
    const midnight = localMidnight("2026-03-30", "Europe/Copenhagen");
    expect(iso(midnight)).toBe("2026-03-29T22:00:00.000Z");
    expect(dayIn("Europe/Copenhagen", new Date(midnight - 1))).toBe("2026-03-29");
    expect(dayIn("Europe/Copenhagen", new Date(midnight))).toBe("2026-03-30");
  });
});

describe("the local day kept for the minute", () => {
  it("turns at local midnight, second by second, in zones asked in turn", () => {
    // 2026-03-29 00:00 in Copenhagen (CET, UTC+1) is 2026-03-28 23:00 UTC; Auckland is 13 hours ahead then.
    const midnight = Date.UTC(2026, 2, 28, 23, 0, 0);
    for (const [ms, copenhagen] of [
      [midnight - 1_000, "2026-03-28"],
      [midnight - 59_000, "2026-03-28"],
      [midnight, "2026-03-29"],
      [midnight + 59_999, "2026-03-29"],
      [midnight - 1, "2026-03-28"],
    ] as const) {
      expect(dayIn("Europe/Copenhagen", new Date(ms))).toBe(copenhagen);
      expect(dayIn("Pacific/Auckland", new Date(ms))).toBe("2026-03-29");
      expect(dayIn("UTC", new Date(ms))).toBe(ms < midnight + 3_600_000 ? "2026-03-28" : "2026-03-29");
    }
  });
});

describe("ISO weeks", () => {
  it("start on Monday at local midnight and lose or gain the DST hour", () => {
    const spring = rangeOf("2026-03-26", "week", "Europe/Copenhagen");
    expect(spring.start).toBe("2026-03-23");
    expect(iso(spring.startMs)).toBe("2026-03-22T23:00:00.000Z");
    expect(iso(spring.endMs)).toBe("2026-03-29T22:00:00.000Z");
    expect(hours(spring)).toBe(167);
    expect(hours(rangeOf("2026-10-25", "week", "Europe/Copenhagen"))).toBe(169);
    expect(hours(rangeOf("2026-11-01", "week", "America/New_York"))).toBe(169);
    expect(hours(rangeOf("2026-06-10", "week", "Europe/Copenhagen"))).toBe(168);
  });

  it("are named by their week-numbering year across year ends", () => {
    expect(weekKey("2026-12-31")).toBe("2026-W53"); // 2026 starts on a Thursday: 53 weeks
    expect(weekKey("2027-01-03")).toBe("2026-W53");
    expect(weekKey("2027-01-04")).toBe("2027-W01");
    expect(weekKey("2024-12-30")).toBe("2025-W01"); // a Monday in December belongs to next year's week 1
    expect(weekKey("2021-01-03")).toBe("2020-W53");
    expect(weekKey("2021-01-04")).toBe("2021-W01");
    expect(weekKey("2025-12-28")).toBe("2025-W52");
    expect(isoWeek("2027-01-01").start).toBe("2026-12-28");
  });

  it("agree with a reference ISO 8601 week for every day of 2000 to 2040", () => {
    // The reference: the week's Thursday decides the year; week 1 holds January 4th.
    const reference = (day: string) => {
      const d = new Date(`${day}T00:00:00Z`);
      const thursday = new Date(d);
      thursday.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) + 3);
      const jan4 = new Date(Date.UTC(thursday.getUTCFullYear(), 0, 4));
      const week1Monday = new Date(jan4);
      week1Monday.setUTCDate(jan4.getUTCDate() - ((jan4.getUTCDay() + 6) % 7));
      const week = Math.floor((thursday.getTime() - week1Monday.getTime()) / (7 * 86_400_000)) + 1;
      return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
    };
    const mismatches: string[] = [];
    for (let day = "2000-01-01"; day <= "2040-12-31"; day = addDays(day, 1)) {
      if (weekKey(day) !== reference(day)) mismatches.push(day);
    }
    expect(mismatches).toEqual([]);
  });
});

describe("months", () => {
  it("start at the first local midnight and hold the DST hour", () => {
    const march = rangeOf("2026-03-15", "month", "Europe/Copenhagen");
    expect(march.start).toBe("2026-03-01");
    expect(iso(march.startMs)).toBe("2026-02-28T23:00:00.000Z");
    expect(iso(march.endMs)).toBe("2026-03-31T22:00:00.000Z");
    expect(hours(march)).toBe(31 * 24 - 1);
    expect(hours(rangeOf("2026-10-01", "month", "Europe/Copenhagen"))).toBe(31 * 24 + 1);
    expect(hours(rangeOf("2028-02-10", "month", "Europe/Copenhagen"))).toBe(29 * 24); // leap year
    expect(monthKey("2026-12-31")).toBe("2026-12");
  });

  it("turn over at the zone's New Year, not UTC's", () => {
    const december = rangeOf("2026-12-31", "month", "Europe/Copenhagen");
    expect(iso(december.endMs)).toBe("2026-12-31T23:00:00.000Z");
    expect(iso(rangeOf("2027-01-01", "month", "America/New_York").startMs)).toBe("2027-01-01T05:00:00.000Z");
    expect(iso(rangeOf("2027-01-01", "month", "Asia/Tokyo").startMs)).toBe("2026-12-31T15:00:00.000Z");
  });
});

describe("analytics buckets come from the same calendar", () => {
  it("splits a period over the year end into ISO weeks and months with the calendar's boundaries", () => {
    const weeks = bucketsOf({ from: "2026-12-28", to: "2027-01-10" }, "week", "Europe/Copenhagen");
    expect(weeks.map((b) => b.key)).toEqual(["2026-W53", "2027-W01"]);
    expect(weeks.map((b) => b.startMs)).toEqual([
      rangeOf("2026-12-28", "week", "Europe/Copenhagen").startMs,
      rangeOf("2027-01-04", "week", "Europe/Copenhagen").startMs,
    ]);
    const months = bucketsOf({ from: "2026-12-15", to: "2027-01-15" }, "month", "America/New_York");
    expect(months.map((b) => [b.key, b.from, b.to])).toEqual([
      ["2026-12", "2026-12-15", "2026-12-31"],
      ["2027-01", "2027-01-01", "2027-01-15"],
    ]);
    expect(months[1].startMs).toBe(rangeOf("2027-01-01", "month", "America/New_York").startMs);
    // A week across the autumn change, as analytics sees it: 169 hours, in the leaderboard's week key.
    const [autumn] = bucketsOf({ from: "2026-10-19", to: "2026-10-25" }, "week", "Europe/Copenhagen");
    expect(autumn.key).toBe(weekKey("2026-10-22"));
    expect((autumn.endMs - autumn.startMs) / H).toBe(169);
  });
});
