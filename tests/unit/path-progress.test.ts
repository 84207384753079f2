import { describe, expect, it } from "vitest";
import { pathProgress, type StepRule } from "~/models/paths/progress";

/** A learner's progress on a learning path from its steps and their course completions (issue 49). */
const DAY = 86_400_000;
const enrolledAt = new Date("2026-11-01T09:00:00Z");
const at = (days: number) => new Date(enrolledAt.getTime() + days * DAY);

// Safety basics (course 1), then any two of four electives (2–5), then the final exam (6) a week later.
const STEPS: StepRule[] = [
  { id: 10, required: 1, delayDays: 0, courseIds: [1] },
  { id: 11, required: 2, delayDays: 0, courseIds: [2, 3, 4, 5] },
  { id: 12, required: 1, delayDays: 7, courseIds: [6] },
];
const progress = (done: Array<[number, number]>, now = at(60)) =>
  pathProgress(STEPS, { enrolledAt, completedAt: new Map(done.map(([course, day]) => [course, at(day)])), now });

describe("a learning path's progress", () => {
  it("opens the first step on enrolment and keeps the rest locked, pointing at the first course", () => {
    const p = progress([]);
    expect(p.steps.map((s) => s.state)).toEqual(["open", "locked", "locked"]);
    expect(p.next).toEqual({ stepId: 10, courseId: 1 });
    expect(p.percent).toBe(0);
    expect(p.doneAt).toBeNull();
  });

  it("opens each step when the one before is done, in order", () => {
    const p = progress([[1, 2]]);
    expect(p.steps.map((s) => s.state)).toEqual(["done", "open", "locked"]);
    expect(p.next).toEqual({ stepId: 11, courseId: 2 });
  });

  it("counts a choice as done with any N of its courses, at the N-th", () => {
    const one = progress([
      [1, 2],
      [4, 3],
    ]);
    expect(one.steps[1]).toMatchObject({ state: "open", completed: 1, required: 2 });
    expect(one.next).toEqual({ stepId: 11, courseId: 2 });
    const two = progress([
      [1, 2],
      [4, 3],
      [2, 5],
    ]);
    expect(two.steps[1]).toMatchObject({ state: "done", doneAt: at(5) });
  });

  it("waits the delay after the step before, then opens; done the moment the last step is", () => {
    const done = [
      [1, 2],
      [4, 3],
      [2, 5],
    ] as Array<[number, number]>;
    const waiting = progress(done, at(9));
    expect(waiting.steps[2]).toMatchObject({ state: "waiting", opensAt: at(12) });
    expect(waiting.next).toBeNull();
    expect(progress(done, at(12)).steps[2].state).toBe("open");
    const finished = progress([...done, [6, 20]]);
    expect(finished.doneAt).toEqual(at(20));
    expect(finished.percent).toBe(100);
  });

  it("counts a course completed before its step opened as of the opening, never earlier", () => {
    // The exam was taken first (day 1); the path is done when its step opens: a week after the electives.
    const p = progress([
      [6, 1],
      [1, 2],
      [4, 3],
      [2, 5],
    ]);
    expect(p.steps[2]).toMatchObject({ state: "done", doneAt: at(12) });
    expect(p.doneAt).toEqual(at(12));
  });

  it("counts toward the percentage at most what each step asks", () => {
    const p = progress([
      [1, 2],
      [2, 3],
      [3, 3],
      [4, 3],
      [5, 3],
    ]);
    // 1 + 2 (of 4 done) + 0, of 1 + 2 + 1 asked.
    expect(p.percent).toBe(75);
  });

  it("asks a choice for no more courses than it holds", () => {
    const p = pathProgress([{ id: 1, required: 3, delayDays: 0, courseIds: [7, 8] }], {
      enrolledAt,
      completedAt: new Map([
        [7, at(1)],
        [8, at(2)],
      ]),
      now: at(3),
    });
    expect(p.steps[0]).toMatchObject({ state: "done", required: 2 });
  });
});
