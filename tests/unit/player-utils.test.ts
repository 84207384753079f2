import { describe, expect, it } from "vitest";
import type { Translate } from "~/utils/translate";
import { nextLesson, totalDuration } from "~/models/player.server";
import { clock, humanDuration } from "~/utils/duration";

const t = ((key: string, o: Record<string, number>) =>
  key === "player.minutes" ? `${o.count} min` : `${o.hours} h ${o.minutes} min`) as unknown as Translate;

describe("durations", () => {
  it("reads seconds as a clock", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(12)).toBe("0:12");
    expect(clock(605)).toBe("10:05");
    expect(clock(3729)).toBe("1:02:09");
    expect(clock(Number.NaN)).toBe("0:00");
  });
  it("says a length in minutes, or hours and minutes", () => {
    expect(humanDuration(t, 12)).toBe("1 min");
    expect(humanDuration(t, 900)).toBe("15 min");
    expect(humanDuration(t, 4800)).toBe("1 h 20 min");
  });
  it("adds up the known lengths only", () => {
    expect(totalDuration([{ durationSeconds: null }])).toBeNull();
    expect(totalDuration([{ durationSeconds: 60 }, { durationSeconds: null }, { durationSeconds: 30 }])).toBe(90);
  });
});

describe("the next lesson", () => {
  const lessons = [{ id: 1 }, { id: 2 }, { id: 3 }];
  it("is the first not completed, in order", () => {
    expect(nextLesson(lessons, (l) => l.id === 1)?.id).toBe(2);
    expect(nextLesson(lessons, (l) => l.id === 2)?.id).toBe(1);
  });
  it("is the first when all are done, and none without lessons", () => {
    expect(nextLesson(lessons, () => true)?.id).toBe(1);
    expect(nextLesson([], () => false)).toBeUndefined();
  });
});
