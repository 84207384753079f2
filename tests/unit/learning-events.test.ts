import { describe, expect, it } from "vitest";
import { publish, setSubscribers, type Subscribers } from "../../app/models/events.server";

/** app/models/events.server.ts: the models publish, the features that react subscribe at start-up. */
describe("learning events", () => {
  const tx = {} as never;
  const at = new Date("2026-01-01T00:00:00Z");

  it("refuse to be published before anything subscribed, rather than be lost", () => {
    // Each test file has its own modules: nothing has subscribed in this one yet.
    expect(() => publish(tx, "bookmarked", { userId: 1, courseId: 2, at })).toThrow(/subscribeLearningEvents/);
  });

  it("reach each subscriber of their kind, in the order subscribed, with the caller's transaction", () => {
    const calls: string[] = [];
    const table: Subscribers = {
      lessonCompleted: [],
      courseCompleted: [(t, e) => calls.push(`first ${e.courseId} ${t === tx}`), (_t, e) => calls.push(`second ${e.userId}`)],
      quizAttemptEnded: [],
      bookmarked: [() => calls.push("bookmark")],
      watchTimeCredited: [],
    };
    setSubscribers(table);
    publish(tx, "courseCompleted", { userId: 7, courseId: 3, at });
    expect(calls).toEqual(["first 3 true", "second 7"]);
  });
});
