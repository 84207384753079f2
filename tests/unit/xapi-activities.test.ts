import { beforeEach, describe, expect, it } from "vitest";
import type { TenantDb } from "../../db/open";
import type { XapiCredential } from "../../db/tenant";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { activityObject, mergeDefinitions, personOf } from "~/models/xapi/activities.server";
import { createXapiCredential } from "~/models/xapi/credentials.server";
import { storeStatements } from "~/models/xapi/statements.server";

/**
 * What the LRS knows of activities and agents (issue 47; GET /xapi/activities and /xapi/agents): definitions
 * merged from the statements that give them, language by language, and an agent as a Person with the names
 * its statements gave it.
 */
const tenant = tenantDatabasePerTest("lectern-xapi-activities-");
let db: TenantDb;
let all: XapiCredential;
const COURSE = "http://acme.localhost/courses/1";
const ANNA = { objectType: "Agent", mbox: "mailto:anna@example.test" };
const send = (statement: object) => {
  const outcome = storeStatements(db, all, statement, { version: "2.0.0", authority: ANNA });
  if (!outcome.ok) throw new Error(outcome.message);
};
const completed = { id: "http://adlnet.gov/expapi/verbs/completed" };

beforeEach(() => {
  db = tenant.db;
  const made = createXapiCredential(db, { name: "all", scope: "all", userId: null });
  if ("error" in made) throw new Error(made.error);
  all = made.credential;
});

describe("activities and agents", () => {
  it("keep an activity's definition as its statements gave it, merging language maps", () => {
    expect(activityObject(db, COURSE)).toEqual({ objectType: "Activity", id: COURSE });
    send({
      actor: ANNA,
      verb: completed,
      object: { id: COURSE, definition: { name: { "en-US": "Winter seas" }, type: "http://adlnet.gov/expapi/activities/course" } },
    });
    send({
      actor: ANNA,
      verb: completed,
      object: { id: "http://acme.localhost/lessons/7" },
      context: {
        contextActivities: { parent: [{ id: COURSE, definition: { name: { da: "Vinterhav" }, description: { da: "Om havet" } } }] },
      },
    });
    expect(activityObject(db, COURSE)).toEqual({
      objectType: "Activity",
      id: COURSE,
      definition: {
        name: { "en-US": "Winter seas", da: "Vinterhav" },
        description: { da: "Om havet" },
        type: "http://adlnet.gov/expapi/activities/course",
      },
    });
    expect(mergeDefinitions({ type: "http://a.test/1", moreInfo: "http://a.test/m" }, { type: "http://a.test/2" })).toEqual({
      type: "http://a.test/2",
      moreInfo: "http://a.test/m",
    });
  });

  it("answer an agent as a Person with its identifier and the names its statements gave", () => {
    send({ actor: { ...ANNA, name: "Anna" }, verb: completed, object: { id: COURSE } });
    send({ actor: { ...ANNA, name: "Anna Berg" }, verb: completed, object: { id: COURSE } });
    expect(personOf(db, ANNA)).toEqual({ objectType: "Person", name: ["Anna Berg", "Anna"], mbox: [ANNA.mbox] });
    expect(personOf(db, { objectType: "Agent", openid: "http://id.example.test/bo" })).toEqual({
      objectType: "Person",
      openid: ["http://id.example.test/bo"],
    });
    expect(personOf(db, { name: "nobody" })).toBeNull();
  });
});
