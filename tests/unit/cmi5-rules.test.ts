import { describe, expect, it } from "vitest";
import {
  afterStatement,
  auSatisfied,
  CMI5_CATEGORY,
  CMI5_VERBS,
  cmi5Refusal,
  MASTERY_SCORE,
  MOVE_ON_CATEGORY,
  SESSION_ID,
  type Cmi5Session,
  type Cmi5Verb,
} from "~/models/packages/cmi5-rules";

/**
 * cmi5's rules for what an AU sends in a session (issue 48; cmi5 §9.3, §9.5, §9.6, §10.2.2), as the LMS checks
 * each statement of a launch: the order of verbs in a session and a registration, the result each verb may
 * carry, the context template, the launch mode, the mastery score.
 */
const REGISTRATION = "0f9a9d0c-5a0e-4c1f-9a57-7c7d1f1f0a11";
const start = (over: Partial<Cmi5Session> = {}): Cmi5Session => ({
  sessionId: "session-1",
  registration: REGISTRATION,
  activityId: "https://acme.test/lms/au/7",
  publisherId: "https://publisher.test/au/intro",
  launchMode: "Normal",
  masteryScore: 0.8,
  moveOn: "CompletedAndPassed",
  sent: [],
  ended: false,
  registrationHas: { completed: false, passed: false },
  preferencesRead: true,
  ...over,
});

/** A statement as a well-behaved AU sends it: the context template kept, cmi5's category on cmi5 verbs. */
function statement(
  verb: Cmi5Verb | "experienced",
  result?: Record<string, unknown>,
  { defined = verb !== "experienced", moveOn = false } = {},
) {
  const categories = [...(defined ? [{ id: CMI5_CATEGORY }] : []), ...(moveOn ? [{ id: MOVE_ON_CATEGORY }] : [])];
  return {
    id: crypto.randomUUID(),
    timestamp: "2026-05-04T09:30:00.000Z",
    actor: { objectType: "Agent", account: { homePage: "https://acme.test", name: "7" } },
    verb: { id: verb === "experienced" ? "http://adlnet.gov/expapi/verbs/experienced" : CMI5_VERBS[verb] },
    object: { id: "https://acme.test/lms/au/7" },
    ...(result ? { result } : {}),
    context: {
      registration: REGISTRATION,
      contextActivities: { grouping: [{ id: "https://publisher.test/au/intro" }], ...(categories.length ? { category: categories } : {}) },
      extensions: { [SESSION_ID]: "session-1", [MASTERY_SCORE]: 0.8 },
    },
  };
}
const initialized = statement("initialized");
const completed = statement("completed", { completion: true, duration: "PT5M" }, { moveOn: true });
const passed = statement("passed", { success: true, score: { scaled: 0.9 }, duration: "PT6M" }, { moveOn: true });
const failed = statement("failed", { success: false, score: { scaled: 0.5 }, duration: "PT6M" }, { moveOn: true });
const terminated = statement("terminated", { duration: "PT7M" });

/** Runs statements through one session; the refusal of each (null when taken). */
function run(session: Cmi5Session, ...statements: object[]) {
  const refusals: Array<string | null> = [];
  for (const s of statements) {
    const refusal = cmi5Refusal(s as Record<string, unknown>, session);
    refusals.push(refusal);
    if (!refusal) session = afterStatement(s as Record<string, unknown>, session);
  }
  return { refusals, session };
}

describe("cmi5's session rules", () => {
  it("take a session that initializes, completes, passes and terminates, then nothing more", () => {
    const { refusals, session } = run(
      start(),
      initialized,
      statement("experienced"),
      completed,
      passed,
      terminated,
      statement("experienced"),
    );
    expect(refusals.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(refusals[5]).toMatch(/ended/);
    expect(session.registrationHas).toEqual({ completed: true, passed: true });
  });

  it("ask every statement for its id, a UTC timestamp and an account Agent", () => {
    const { id: _id, ...noId } = initialized;
    const local = { ...initialized, timestamp: "2026-05-04T09:30:00.000-06:00" };
    const group = { ...initialized, actor: { ...initialized.actor, objectType: "Group" } };
    const mbox = { ...initialized, actor: { objectType: "Agent", mbox: "mailto:catapult@example.com" } };
    expect(run(start(), noId).refusals[0]).toMatch(/its own id/);
    expect(run(start(), local).refusals[0]).toMatch(/UTC/);
    expect(run(start(), group).refusals[0]).toMatch(/account/);
    expect(run(start(), mbox).refusals[0]).toMatch(/account/);
    expect(run(start(), { ...initialized, timestamp: "2026-05-04T09:30:00+00:00" }).refusals[0]).toBeNull();
  });

  it("begin with initialized, sent once", () => {
    expect(run(start(), statement("experienced")).refusals[0]).toMatch(/begins with an initialized/);
    expect(run(start(), completed).refusals[0]).toMatch(/begins with an initialized/);
    expect(run(start(), initialized, initialized).refusals[1]).toMatch(/initialized already|once, first/);
    // The learner's preferences are read on startup, before initialized (cmi5 §11).
    expect(run(start({ preferencesRead: false }), initialized).refusals[0]).toMatch(/preferences/);
  });

  it("refuse a verb twice in a session, passed after failed, and what the registration has done already", () => {
    expect(run(start(), initialized, completed, completed).refusals[2]).toMatch(/completed already/);
    expect(run(start(), initialized, failed, passed).refusals[2]).toMatch(/passed or failed once/);
    const done = start({ registrationHas: { completed: true, passed: true } });
    expect(run(done, initialized, completed).refusals[1]).toMatch(/registration has been completed/);
    expect(run(done, initialized, passed).refusals[1]).toMatch(/registration has been passed/);
    expect(run(done, initialized, failed).refusals[1]).toMatch(/does not follow a passed/);
  });

  it("keep Browse and Review sessions to initialized, terminated and allowed statements", () => {
    for (const launchMode of ["Browse", "Review"] as const) {
      const { refusals } = run(start({ launchMode }), initialized, statement("experienced"), completed, passed, terminated);
      expect(refusals.map((r) => r === null)).toEqual([true, true, false, false, true]);
    }
  });

  it("ask a raw score for its min and max", () => {
    const raw = statement("passed", { success: true, score: { scaled: 0.95, raw: 95, max: 100 }, duration: "PT1M" }, { moveOn: true });
    expect(run(start(), initialized, raw).refusals[1]).toMatch(/min and max/);
  });

  it("judge passed and failed by the mastery score, which they name", () => {
    const low = statement("passed", { success: true, score: { scaled: 0.7 }, duration: "PT1M" }, { moveOn: true });
    expect(run(start(), initialized, low).refusals[1]).toMatch(/at least the mastery score/);
    const high = statement("failed", { success: false, score: { scaled: 0.8 }, duration: "PT1M" }, { moveOn: true });
    expect(run(start(), initialized, high).refusals[1]).toMatch(/below the mastery score/);
    const unnamed = structuredClone(passed);
    delete (unnamed.context.extensions as Record<string, unknown>)[MASTERY_SCORE];
    expect(run(start(), initialized, unnamed).refusals[1]).toMatch(/names the mastery score/);
    expect(run(start({ masteryScore: null }), initialized, unnamed).refusals[1]).toBeNull();
  });

  it("ask each verb for its own result: completion, success, score, duration, the moveOn category", () => {
    const refused = (s: object) => run(start(), initialized, s).refusals[1];
    expect(refused(statement("completed", { duration: "PT1M" }, { moveOn: true }))).toMatch(/completion true/);
    expect(refused(statement("completed", { completion: true, duration: "PT1M", score: { scaled: 1 } }, { moveOn: true }))).toMatch(
      /no score/,
    );
    expect(refused(statement("completed", { completion: true }, { moveOn: true }))).toMatch(/duration/);
    expect(refused(statement("completed", { completion: true, duration: "PT1M" }))).toMatch(/moveOn category/);
    expect(refused(statement("passed", { success: false, duration: "PT1M" }, { moveOn: true }))).toMatch(/success true/);
    expect(refused(statement("terminated"))).toMatch(/duration/);
    expect(refused(statement("terminated", { duration: "PT1M", success: true }))).toMatch(/no success/);
  });

  it("keep the context template and the AU's activity id, and the LMS's verbs to the LMS", () => {
    const refused = (s: object) => run(start(), initialized, s).refusals[1];
    const otherSession = structuredClone(completed);
    otherSession.context.extensions[SESSION_ID] = "session-0";
    expect(refused(otherSession)).toMatch(/session's id/);
    const noGrouping = structuredClone(completed);
    noGrouping.context.contextActivities.grouping = [];
    expect(refused(noGrouping)).toMatch(/publisher id/);
    const elsewhere = { ...completed, object: { id: "https://publisher.test/au/intro" } };
    expect(refused(elsewhere)).toMatch(/AU's activity id/);
    expect(refused(statement("satisfied"))).toMatch(/Only the LMS/);
    expect(refused(statement("waived"))).toMatch(/Only the LMS/);
    expect(refused(statement("experienced", undefined, { defined: true }))).toMatch(/uses a cmi5 verb/);
    expect(refused(statement("experienced", undefined, { moveOn: true }))).toMatch(/moveOn category/);
  });
});

describe("An AU's moveOn", () => {
  it("is met as cmi5 §13.1.4 says, and always when waived", () => {
    const cases: Array<[Parameters<typeof auSatisfied>[0], boolean, boolean, boolean]> = [
      ["NotApplicable", false, false, true],
      ["Completed", true, false, true],
      ["Completed", false, true, false],
      ["Passed", false, true, true],
      ["CompletedAndPassed", true, false, false],
      ["CompletedAndPassed", true, true, true],
      ["CompletedOrPassed", false, true, true],
      ["CompletedOrPassed", false, false, false],
    ];
    for (const [moveOn, completed, passed, met] of cases) expect(auSatisfied(moveOn, { completed, passed }), moveOn).toBe(met);
    expect(auSatisfied("CompletedAndPassed", { completed: false, passed: false, waived: true })).toBe(true);
  });
});
