import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { courseCompletions, pathAssignmentPeople, pathAssignments, pathEnrolments, users } from "../../../db/tenant";
import { manageableGroupIds } from "../../access/rules";
import type { Viewer } from "../../access/viewer";
import { assignmentState, localToday, type AssignmentState } from "../assignment.server";
import { countedCompletions, stepRules } from "./enrolments.server";
import { pathProgress, type StepState } from "./progress";

/*
 * A path assignment's report (issue 49): its people, a page at a time, each with their due day and state (not
 * started, in progress, overdue, done, as a course's) and each step's state on the path. A page costs the page's
 * rows, their enrolments and their completions of the path's courses, whatever the assignment's size. A group admin
 * sees the people of the groups they administer only.
 */

export interface ReportRow {
  userId: number;
  name: string;
  email: string;
  dueOn: string;
  state: AssignmentState;
  steps: StepState["state"][];
}

/** The people of a path assignment the viewer may see, as SQL over `path_assignment_people`. */
function seen(viewer: Viewer) {
  const groups = manageableGroupIds(viewer);
  if (groups === null) return undefined;
  return sql`${pathAssignmentPeople.userId} in (select user_id from group_members where group_id in (select value from json_each(${JSON.stringify(groups)})))`;
}

/** One page of a path assignment's open people (those who left the group are history), by name. */
export function pathAssignmentReport(
  db: TenantConn,
  viewer: Viewer,
  assignmentId: number,
  { page = 1, perPage = 25, now = new Date() }: { page?: number; perPage?: number; now?: Date } = {},
) {
  const assignment = db.select().from(pathAssignments).where(eq(pathAssignments.id, assignmentId)).get();
  if (!assignment) return null;
  const where = and(eq(pathAssignmentPeople.assignmentId, assignmentId), isNull(pathAssignmentPeople.leftAt), seen(viewer));
  const total = db.select({ n: count() }).from(pathAssignmentPeople).where(where).get()?.n ?? 0;
  const rows = db
    .select({
      userId: pathAssignmentPeople.userId,
      dueOn: pathAssignmentPeople.dueOn,
      completedAt: pathAssignmentPeople.completedAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      enrolledAt: pathEnrolments.enrolledAt,
      cycle: pathEnrolments.cycle,
    })
    .from(pathAssignmentPeople)
    .innerJoin(users, eq(users.id, pathAssignmentPeople.userId))
    .leftJoin(pathEnrolments, and(eq(pathEnrolments.pathId, assignment.pathId), eq(pathEnrolments.userId, pathAssignmentPeople.userId)))
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  const rules = stepRules(db, assignment.pathId);
  const courseIds = [...new Set(rules.flatMap((r) => r.courseIds))];
  const completed = new Map<number, Map<number, Date>>();
  if (rows.length && courseIds.length)
    for (const c of db
      .select({ userId: courseCompletions.userId, courseId: courseCompletions.courseId, at: courseCompletions.completedAt })
      .from(courseCompletions)
      .where(
        and(
          inArray(
            courseCompletions.userId,
            rows.map((r) => r.userId),
          ),
          inArray(courseCompletions.courseId, courseIds),
        ),
      )
      .all()) {
      const mine = completed.get(c.userId) ?? new Map<number, Date>();
      mine.set(c.courseId, c.at);
      completed.set(c.userId, mine);
    }
  const today = localToday(db, now);
  const people: ReportRow[] = rows.map((r) => {
    const enrolledAt = r.enrolledAt ?? now;
    const counted = countedCompletions(completed.get(r.userId) ?? new Map(), { enrolledAt, cycle: r.cycle ?? 1 });
    const progress = pathProgress(rules, { enrolledAt, completedAt: counted, now });
    const started = progress.steps.some((s) => s.completed > 0);
    return {
      userId: r.userId,
      name: `${r.firstName} ${r.lastName}`.trim() || r.email,
      email: r.email,
      dueOn: r.dueOn,
      state: assignmentState({ dueOn: r.dueOn, completedAt: r.completedAt ?? progress.doneAt }, started, today),
      steps: progress.steps.map((s) => s.state),
    };
  });
  return { assignment, total, page, perPage, steps: rules.length, people };
}
