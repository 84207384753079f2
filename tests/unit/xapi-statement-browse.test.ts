import { describe, expect, it } from "vitest";
import { createXapiCredential } from "~/models/xapi/credentials.server";
import { actorKeyOf, browseStatements, statementsAfter, verbsUsed } from "~/models/xapi/statement-browse.server";
import { storeStatements, VOIDED } from "~/models/xapi/statements.server";
import { tenantDatabasePerTest } from "../helpers/tenant-database";

/**
 * The organization's statements as its admins read them (issue 47; the LRS screen, its CSV and
 * GET /api/xapi/statements), on a real tenant database: the verbs the filter offers, pages newest first,
 * voided ones marked, an actor found by e-mail, and the CSV's chunks oldest first.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-browse-");
const AUTHORITY = { objectType: "Agent", account: { homePage: "http://acme.localhost", name: "reports" } };
const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { "en-US": name } });

function fill() {
  const made = createXapiCredential(tenant.db, { name: "all", scope: "all", userId: null });
  if ("error" in made) throw new Error(made.error);
  const ids: string[] = [];
  const names = ["attempted", "completed", "answered", "completed", "passed"];
  names.forEach((name, i) => {
    const stored = storeStatements(
      tenant.db,
      made.credential,
      {
        actor: { objectType: "Agent", name: i % 2 ? "Bo" : "Anna", mbox: `mailto:${i % 2 ? "bo" : "anna"}@example.test` },
        verb: verb(name),
        object: { id: `http://acme.localhost/activities/${i}`, definition: { name: { "en-US": `Activity ${i}` } } },
        ...(name === "passed" ? { result: { score: { scaled: 0.9 }, success: true, completion: true } } : {}),
      },
      { version: "2.0.0", authority: AUTHORITY, now: new Date(Date.UTC(2026, 10, 1 + i)) },
    );
    if (!stored.ok) throw new Error(stored.message);
    ids.push(stored.ids[0]);
  });
  const voiding = storeStatements(
    tenant.db,
    made.credential,
    { actor: { mbox: "mailto:admin@example.test" }, verb: { id: VOIDED }, object: { objectType: "StatementRef", id: ids[0] } },
    { version: "2.0.0", authority: AUTHORITY, now: new Date(Date.UTC(2026, 10, 9)) },
  );
  if (!voiding.ok) throw new Error(voiding.message);
  return ids;
}

describe("Browsing statements", () => {
  it("offers each verb used once, in order", () => {
    fill();
    expect(verbsUsed(tenant.db)).toEqual(
      ["answered", "attempted", "completed", "passed", "voided"].map((v) => `http://adlnet.gov/expapi/verbs/${v}`),
    );
    expect(verbsUsed(tenant.db, 2)).toHaveLength(2);
  });

  it("pages newest first with voided ones marked, finds a person by e-mail, and reads the CSV's chunks oldest first", () => {
    const ids = fill();
    const first = browseStatements(tenant.db, {}, undefined, 4);
    expect(first.statements.map((s) => s.verb)).toEqual([VOIDED, "passed", "completed", "answered"]);
    expect(first.statements[1]).toMatchObject({
      actor: "Anna",
      object: "Activity 4",
      score: 0.9,
      success: true,
      completion: true,
      voided: false,
    });
    const rest = browseStatements(tenant.db, {}, first.next!, 4);
    expect(rest.statements.map((s) => s.id)).toEqual([ids[1], ids[0]]);
    expect(rest.statements[1].voided).toBe(true);
    expect(rest.next).toBeNull();
    expect(actorKeyOf(" Bo@Example.test ")).toBe("mbox:mailto:bo@example.test");
    expect(browseStatements(tenant.db, { actor: "bo@example.test" }).statements.map((s) => s.id)).toEqual([ids[3], ids[1]]);
    const chunk = statementsAfter(tenant.db, {}, 0, 4);
    expect(chunk.statements.map((s) => s.id)).toEqual(ids.slice(0, 4));
    expect(statementsAfter(tenant.db, {}, chunk.last!, 4).statements).toHaveLength(2);
  });
});
