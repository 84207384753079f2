import { describe, expect, it } from "vitest";
import { acceptedLanguages, formatStatement } from "~/models/xapi/statement-format";

/**
 * The forms GET /xapi/statements answers in (issue 47; docs/decisions/043-learning-record-store.md): `exact` as
 * stored, `ids` reduced to identifiers, `canonical` with one language a map.
 */
const STATEMENT = {
  id: "6e4f3c2a-1b0d-4e9f-8a7b-5c4d3e2f1a0b",
  actor: { objectType: "Agent", name: "Anna", mbox: "mailto:anna@example.test" },
  verb: { id: "http://adlnet.gov/expapi/verbs/completed", display: { "en-US": "completed", "da-DK": "gennemførte", und: "done" } },
  object: {
    objectType: "Activity",
    id: "http://acme.localhost/courses/1",
    definition: {
      name: { "en-US": "Winter seas", da: "Vinterhav" },
      description: { "en-GB": "About the sea" },
      extensions: { "http://example.test/ext": { name: { "en-US": "kept whole", da: "helt" } } },
    },
  },
  context: {
    instructor: { objectType: "Agent", name: "Teacher", account: { homePage: "http://acme.localhost", name: "t" } },
    team: { objectType: "Group", name: "Sales", member: [{ name: "Bo", mbox: "mailto:bo@example.test" }] },
    contextActivities: { parent: [{ id: "http://acme.localhost/paths/2", definition: { name: { "en-US": "Path" } } }] },
  },
  authority: { objectType: "Agent", name: "Reports", account: { homePage: "http://acme.localhost", name: "key" } },
};
const json = JSON.stringify(STATEMENT);

describe("statement formats", () => {
  it("answers exact as stored", () => {
    expect(formatStatement(json, "exact")).toBe(json);
  });

  it("reduces agents, groups, verbs and activities to their identifiers for ids", () => {
    const ids = JSON.parse(formatStatement(json, "ids"));
    expect(ids.actor).toEqual({ objectType: "Agent", mbox: "mailto:anna@example.test" });
    expect(ids.object).toEqual({ id: "http://acme.localhost/courses/1" });
    expect(ids.context.instructor).toEqual({ objectType: "Agent", account: { homePage: "http://acme.localhost", name: "t" } });
    expect(ids.context.team).toEqual({ objectType: "Group", member: [{ objectType: "Agent", mbox: "mailto:bo@example.test" }] });
    expect(ids.context.contextActivities.parent).toEqual([{ id: "http://acme.localhost/paths/2" }]);
    expect(ids.verb).toEqual({ id: STATEMENT.verb.id });
  });

  it("keeps, of each language map, the language asked for, else und, else the first; extensions stay whole", () => {
    const danish = JSON.parse(formatStatement(json, "canonical", acceptedLanguages("da-DK, en;q=0.5")));
    expect(danish.verb.display).toEqual({ "da-DK": "gennemførte" });
    expect(danish.object.definition.name).toEqual({ da: "Vinterhav" });
    expect(danish.object.definition.description).toEqual({ "en-GB": "About the sea" });
    expect(danish.object.definition.extensions).toEqual(STATEMENT.object.definition.extensions);
    expect(danish.actor).toEqual(STATEMENT.actor);
    const none = JSON.parse(formatStatement(json, "canonical", []));
    expect(none.verb.display).toEqual({ und: "done" });
    expect(none.object.definition.name).toEqual({ "en-US": "Winter seas" });
  });

  it("gives each Activity the definition the LRS keeps for it in canonical form, and leaves exact as stored", () => {
    const kept = new Map([
      ["http://acme.localhost/courses/1", { name: { "en-US": "Winter seas, revised", da: "Vinterhav, ny" } }],
      ["http://acme.localhost/paths/2", { name: { "en-US": "Sea path" } }],
    ]);
    const canonical = JSON.parse(formatStatement(json, "canonical", ["da"], kept));
    expect(canonical.object.definition).toEqual({ name: { da: "Vinterhav, ny" } });
    expect(canonical.context.contextActivities.parent).toEqual([
      { id: "http://acme.localhost/paths/2", definition: { name: { "en-US": "Sea path" } } },
    ]);
    expect(formatStatement(json, "exact", ["da"], kept)).toBe(json);
  });

  it("reads Accept-Language best first", () => {
    expect(acceptedLanguages("en;q=0.3, da-DK, sv;q=0.8, *;q=0.1, no;q=0")).toEqual(["da-DK", "sv", "en"]);
    expect(acceptedLanguages(null)).toEqual([]);
  });
});
