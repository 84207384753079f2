import { and, eq, notInArray, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courses, learningPaths, pathStepCourses, pathSteps, type LearningPath } from "../../db/tenant";
import { groupsOf, inAnyGroup, visibleCourses } from "./courses";
import { isSignedIn, mayPreview } from "./rules";
import type { Viewer } from "./viewer";

/**
 * The learning path rules (issue 49, docs/decisions/045-learning-paths.md), the only place that knows them. A path
 * is seen as a course is (published; open to everyone, or given by one of the viewer's groups; everything for
 * those who may preview), and a signed-in person may enrol in a path they see when it takes enrolments. A path
 * never opens a course: each of its courses keeps its own rules, and `coursesHiddenFrom` names those a viewer
 * could not see, for the admin who assigns the path.
 */

/** The rule with the viewer's groups given as a value or as a placeholder (a prepared statement binds it). */
function pathVisibility(viewer: Viewer, groups: string | ReturnType<typeof sql.placeholder>): SQL | undefined {
  if (mayPreview(viewer)) return undefined;
  const open = sql`(${learningPaths.blockDefaultAccess} = 0 and ${learningPaths.forceGroups} = 0)`;
  const published = eq(learningPaths.published, true);
  if (!inAnyGroup(viewer)) return sql`(${published} and ${open})`;
  const given = sql`${learningPaths.id} in (select pg.path_id from path_groups pg where pg.group_id in (select value from json_each(${groups})))`;
  return sql`(${published} and (${open} or ${given}))`;
}

/** Which paths a viewer sees listed, as SQL over `learning_paths`. */
export function visiblePaths(viewer: Viewer): SQL | undefined {
  return pathVisibility(viewer, groupsOf(viewer));
}

/**
 * The same rule for a prepared statement (db/prepared.ts), as app/access/courses.ts `visibleCoursesPrepared`:
 * `key` names its variant, `params` binds the `viewerGroups` placeholder it may hold.
 */
export function visiblePathsPrepared(viewer: Viewer): { key: string; where: SQL | undefined; params: { viewerGroups: string } } {
  const key = mayPreview(viewer) ? "all" : inAnyGroup(viewer) ? "groups" : "open";
  return { key, where: pathVisibility(viewer, sql.placeholder("viewerGroups")), params: { viewerGroups: groupsOf(viewer) } };
}

/** Whether a viewer sees this path (the same rule for a row already read). */
export function isPathVisible(db: TenantConn, viewer: Viewer, path: LearningPath): boolean {
  const where = visiblePaths(viewer);
  return (
    db
      .select({ id: learningPaths.id })
      .from(learningPaths)
      .where(where ? and(eq(learningPaths.id, path.id), where) : eq(learningPaths.id, path.id))
      .get() !== undefined
  );
}

/** Whether a viewer may enrol themselves: signed in, the path seen, published, and taking enrolments. */
export function mayEnrolInPath(db: TenantConn, viewer: Viewer, path: LearningPath): boolean {
  return isSignedIn(viewer) && path.published && path.selfEnrol && isPathVisible(db, viewer, path);
}

/** The path's courses a viewer could not see (in the order of the path): the path does not open them for them. */
export function coursesHiddenFrom(db: TenantConn, viewer: Viewer, pathId: number): number[] {
  const seen = db.select({ id: courses.id }).from(courses).where(visibleCourses(viewer));
  return db
    .select({ courseId: pathStepCourses.courseId })
    .from(pathStepCourses)
    .innerJoin(pathSteps, eq(pathSteps.id, pathStepCourses.stepId))
    .where(and(eq(pathSteps.pathId, pathId), notInArray(pathStepCourses.courseId, seen)))
    .orderBy(pathSteps.position, pathStepCourses.position)
    .all()
    .map((r) => r.courseId);
}
