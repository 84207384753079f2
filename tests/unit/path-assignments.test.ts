import { describe, expect, it } from "vitest";
import type { Viewer } from "~/access/viewer";
import { assignPath } from "~/models/paths/assignments.server";
import { capabilitiesOf } from "~/utils/capabilities";
import { groupMembers, groups, learningPaths, pathAssignmentPeople, users } from "../../db/tenant";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { ruleViewers } from "../helpers/viewers";

/**
 * Who may assign a learning path (issue 49): the rule courses follow (app/access/rules.ts `mayAssign`): an
 * organization admin anyone; a group admin only the groups they administer, never a person by name; a learner no one.
 * A path they do not see is refused too, and nothing is written when refused.
 */
const tenant = tenantDatabasePerTest("lectern-path-assignments-");

function setUp() {
  const { db } = tenant;
  const person = db.insert(users).values({ email: "p@acme.test", firstName: "P", lastName: "P", role: "learner" }).returning().get().id;
  const [mine, theirs] = ["Mine", "Theirs"].map((name) => db.insert(groups).values({ name }).returning().get().id);
  db.insert(groupMembers).values({ groupId: mine, userId: person }).run();
  const path = db.insert(learningPaths).values({ title: "Path", published: true }).returning().get().id;
  const draft = db.insert(learningPaths).values({ title: "Draft" }).returning().get().id;
  const base = ruleViewers(db, { loner: person, member: person, groupIds: [] });
  const groupAdmin: Viewer = {
    ...base.member,
    role: "group_admin",
    capabilities: capabilitiesOf("group_admin"),
    administeredGroupIds: [mine],
  };
  return { person, mine, theirs, path, draft, base, groupAdmin };
}

const due = { kind: "days", days: 7 } as const;

describe("assigning a learning path", () => {
  it("lets a group admin assign their own group only, never a person by name nor another group", () => {
    const { db } = tenant;
    const { person, mine, theirs, path, groupAdmin } = setUp();
    expect(assignPath(db, groupAdmin, { pathId: path, target: { kind: "group", groupId: theirs }, due })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(assignPath(db, groupAdmin, { pathId: path, target: { kind: "person", userId: person }, due })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(db.select().from(pathAssignmentPeople).all()).toEqual([]);
    expect(assignPath(db, groupAdmin, { pathId: path, target: { kind: "group", groupId: mine }, due })).toMatchObject({
      ok: true,
      assigned: 1,
    });
  });

  it("refuses a learner, and a path the assigner does not see", () => {
    const { db } = tenant;
    const { person, path, draft, base, groupAdmin, mine } = setUp();
    expect(assignPath(db, base.member, { pathId: path, target: { kind: "person", userId: person }, due })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(assignPath(db, groupAdmin, { pathId: draft, target: { kind: "group", groupId: mine }, due })).toMatchObject({
      ok: false,
      status: 400,
      field: "pathId",
    });
    expect(assignPath(db, base.admin, { pathId: draft, target: { kind: "person", userId: person }, due })).toMatchObject({ ok: true });
  });
});
