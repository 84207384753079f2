import { describe, expect, it } from "vitest";
import { sameStatement } from "~/models/xapi/statement-compare";

/** When two statements are the same as xAPI compares them (issue 47): what counts, and what does not. */
const BASE = {
  id: "6e4f3c2a-1b0d-4e9f-8a7b-5c4d3e2f1a0b",
  actor: { objectType: "Agent", mbox: "mailto:anna@example.test" },
  verb: { id: "http://adlnet.gov/expapi/verbs/completed", display: { "en-US": "completed" } },
  object: { objectType: "Activity", id: "http://acme.localhost/courses/1", definition: { name: { "en-US": "Winter seas" } } },
  result: { duration: "P1DT12H36M0.12S" },
  context: {
    registration: "7c1d5a0e-3b1f-4c1e-9a55-6d1f2c3b4a5e",
    team: { objectType: "Group", member: [{ mbox: "mailto:a@example.test" }, { mbox: "mailto:b@example.test" }] },
    contextActivities: { parent: [{ id: "http://acme.localhost/paths/2" }] },
  },
  timestamp: "2023-05-04T17:00:00.000Z",
};

describe("statement comparison", () => {
  it("does not count what xAPI leaves out of it", () => {
    const other = {
      ...BASE,
      id: BASE.id.toUpperCase(),
      actor: { mbox: "mailto:anna@example.test" },
      verb: { id: BASE.verb.id, display: { "da-DK": "gennemførte" } },
      object: { id: BASE.object.id, definition: { name: { da: "Vinterhav" } } },
      result: { duration: "P1DT12H36M0.1237S" },
      context: {
        ...BASE.context,
        registration: BASE.context.registration.toUpperCase(),
        team: { ...BASE.context.team, member: [...BASE.context.team.member].reverse() },
        contextActivities: { parent: { id: "http://acme.localhost/paths/2" } },
      },
      timestamp: "2023-05-04T12:00:00-05:00",
      stored: "2026-11-02T09:00:00Z",
      authority: { mbox: "mailto:lrs@example.test" },
      version: "2.0.0",
    };
    expect(sameStatement(BASE, other)).toBe(true);
  });

  it("counts everything else", () => {
    for (const change of [
      { actor: { mbox: "mailto:bo@example.test" } },
      { verb: { id: "http://adlnet.gov/expapi/verbs/failed" } },
      { result: { duration: "P1DT12H36M0.13S" } },
      { result: { duration: "P1DT12H36M0.12S", success: true } },
      { timestamp: "2023-05-04T17:00:01.000Z" },
      { context: { ...BASE.context, team: { objectType: "Group", member: [{ mbox: "mailto:a@example.test" }] } } },
    ])
      expect(sameStatement(BASE, { ...BASE, ...change }), JSON.stringify(change)).toBe(false);
    expect(sameStatement(BASE, { ...BASE, authority: { mbox: "mailto:x@example.test" } }, [])).toBe(false);
  });
});
