import { asc } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { coursesHiddenFrom, isPathVisible, mayEnrolInPath, visiblePaths } from "../../app/access/paths";
import type { Viewer } from "../../app/access/viewer";
import { createCourse } from "../../app/models/course.server";
import { groupMembers, groups, learningPaths, pathGroups, pathStepCourses, pathSteps, users } from "../../db/tenant";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { ruleViewers } from "../helpers/viewers";

/**
 * The learning path rules (issue 49): a path is seen as a course is, in SQL for lists and for one row alike; a
 * signed-in person enrols where the path takes it; the path's courses the viewer could not see are named.
 */
const tenant = tenantDatabasePerTest("lectern-path-access-");
const ids: Record<string, number> = {};
const viewers: Record<string, Viewer> = {};

beforeEach(() => {
  const { db } = tenant;
  const path = (name: string, fields: Partial<typeof learningPaths.$inferInsert> = {}) =>
    (ids[name] = db
      .insert(learningPaths)
      .values({ title: name, published: true, ...fields })
      .returning()
      .get().id);
  path("open");
  path("draft", { published: false });
  path("blocked", { blockDefaultAccess: true });
  path("groupOnly", { forceGroups: true });
  path("assignedOnly", { selfEnrol: false });
  const given = db.insert(groups).values({ name: "given" }).returning().get().id;
  for (const name of ["blocked", "groupOnly"]) db.insert(pathGroups).values({ pathId: ids[name], groupId: given }).run();
  const member = db.insert(users).values({ email: "m@acme.test", firstName: "M", lastName: "M", role: "learner" }).returning().get().id;
  const loner = db.insert(users).values({ email: "l@acme.test", firstName: "L", lastName: "L", role: "learner" }).returning().get().id;
  db.insert(groupMembers).values({ groupId: given, userId: member }).run();

  // The open path's steps: an open course, then a course blocked by default that the group gives.
  const openCourse = createCourse(db, { title: "Open course", description: "", type: "series", published: true, position: 0 }).id;
  const blockedCourse = createCourse(db, {
    title: "Blocked course",
    description: "",
    type: "series",
    published: true,
    position: 1,
    blockDefaultAccess: true,
  }).id;
  ids.blockedCourse = blockedCourse;
  for (const [position, courseId] of [openCourse, blockedCourse].entries()) {
    const step = db.insert(pathSteps).values({ pathId: ids.open, position }).returning().get().id;
    db.insert(pathStepCourses).values({ stepId: step, courseId }).run();
  }
  db.run(`insert into group_courses (group_id, course_id) values (${given}, ${blockedCourse})`);

  Object.assign(viewers, ruleViewers(db, { loner, member, groupIds: [given] }));
});

const listed = (viewer: Viewer) =>
  tenant.db
    .select({ title: learningPaths.title })
    .from(learningPaths)
    .where(visiblePaths(viewer))
    .orderBy(asc(learningPaths.title))
    .all()
    .map((p) => p.title);

describe("the learning path rules", () => {
  it("list what each viewer should see, as a course's rules would", () => {
    expect(listed(viewers.visitor)).toEqual(["assignedOnly", "open"]);
    expect(listed(viewers.loner)).toEqual(["assignedOnly", "open"]);
    expect(listed(viewers.member)).toEqual(["assignedOnly", "blocked", "groupOnly", "open"]);
    expect(listed(viewers.admin)).toEqual(["assignedOnly", "blocked", "draft", "groupOnly", "open"]);
  });

  it("agree for one row, and let a signed-in person enrol only where the path takes it", () => {
    const all = tenant.db.select().from(learningPaths).all();
    for (const viewer of Object.values(viewers))
      expect(
        all
          .filter((p) => isPathVisible(tenant.db, viewer, p))
          .map((p) => p.title)
          .sort(),
      ).toEqual(listed(viewer));
    const byName = (name: string) => all.find((p) => p.title === name)!;
    expect(mayEnrolInPath(tenant.db, viewers.loner, byName("open"))).toBe(true);
    expect(mayEnrolInPath(tenant.db, viewers.visitor, byName("open"))).toBe(false);
    expect(mayEnrolInPath(tenant.db, viewers.loner, byName("assignedOnly"))).toBe(false);
    expect(mayEnrolInPath(tenant.db, viewers.loner, byName("blocked"))).toBe(false);
    expect(mayEnrolInPath(tenant.db, viewers.member, byName("blocked"))).toBe(true);
  });

  it("name the path's courses a viewer could not see: the path does not open them", () => {
    expect(coursesHiddenFrom(tenant.db, viewers.loner, ids.open)).toEqual([ids.blockedCourse]);
    expect(coursesHiddenFrom(tenant.db, viewers.member, ids.open)).toEqual([]);
  });
});
