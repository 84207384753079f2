import { afterAll, describe, expect, it, vi } from "vitest";
import type { Subscribers } from "../../app/models/events.server";

// The module afresh, as a server process starts with it: a worker runs several files one after another
// (vitest.config.ts, `isolate: false`), and one before may have subscribed already.
async function freshEvents() {
  vi.resetModules();
  return import("../../app/models/events.server");
}
afterAll(() => vi.resetModules());

/** app/models/events.server.ts: the models publish, the features that react subscribe at start-up. */
describe("learning events", () => {
  const tx = {} as never;
  const at = new Date("2026-01-01T00:00:00Z");

  it("refuse to be published before anything subscribed, rather than be lost", async () => {
    const events = await freshEvents();
    expect(() => events.publish(tx, "bookmarked", { userId: 1, courseId: 2, at })).toThrow(/subscribeLearningEvents/);
  });

  it("reach each subscriber of their kind, in the order subscribed, with the caller's transaction", async () => {
    const events = await freshEvents();
    const calls: string[] = [];
    const table: Subscribers = {
      lessonCompleted: [],
      courseCompleted: [(t, e) => calls.push(`first ${e.courseId} ${t === tx}`), (_t, e) => calls.push(`second ${e.userId}`)],
      pathCompleted: [],
      quizAttemptEnded: [],
      bookmarked: [() => calls.push("bookmark")],
      watchTimeCredited: [],
    };
    events.setSubscribers(table);
    events.publish(tx, "courseCompleted", { userId: 7, courseId: 3, at });
    expect(calls).toEqual(["first 3 true", "second 7"]);
  });
});
