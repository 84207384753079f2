import { and, asc, eq, isNotNull, min, notExists, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { carousels, courseCompletions, courses, groupCourses, lessonProgress, lessons, type Course, type Lesson } from "../../db/tenant";
import { isSignedIn, mayAct, mayPreview } from "./rules";
import type { Viewer } from "./viewer";

/**
 * The course rules (docs/product.md §4, §8), the only place that knows them: which courses a viewer sees in any list
 * (visibility, as a SQL predicate for any query over `courses`), and whether they may open a course or a
 * lesson (access, with the spec's access message when not). Models take the predicate or call these
 * functions; none re-derives a rule (docs/decisions/031-request-kernel.md).
 */

export type AccessDenied = "login" | "limited" | "prerequisite" | "previous_lessons";
/** Why a viewer may not open a course or lesson: each reason is one of the spec's access messages, `access.<reason>` in locales/<lng>/common.json. */
export type Access = { allowed: true } | { allowed: false; reason: AccessDenied };

/** The one published check, for a row already read. */
export function isPublished(course: Pick<Course, "published">): boolean {
  return course.published;
}

/** The one published check, as SQL over `courses`: what anyone may see once a course is out of draft. */
export const published: SQL = eq(courses.published, true);

/** Carousels: published ones for everyone, drafts too for those who may write carousels. */
export function visibleCarousels(viewer: Viewer): SQL | undefined {
  return mayAct(viewer, "write:carousel") ? undefined : eq(carousels.published, true);
}

/** A course open to everyone in the organization: neither blocked by default nor kept to its groups. */
function isOpen(course: Pick<Course, "blockDefaultAccess" | "forceGroups">) {
  return !course.blockDefaultAccess && !course.forceGroups;
}

type Bound = number | string | ReturnType<typeof sql.placeholder>;

/**
 * Which courses a viewer sees listed (catalogue, home, carousels, search, leaderboards, analytics, /api):
 * those who may preview see all; everyone else sees published courses that are open, or that one of their
 * groups gives them. `groups` is the viewer's group ids as a JSON array (a value, or a prepared
 * statement's placeholder), so one statement serves every set of groups.
 */
function visibility(viewer: Viewer, groups: Bound): SQL | undefined {
  if (mayPreview(viewer)) return undefined;
  const open = sql`(${courses.blockDefaultAccess} = 0 and ${courses.forceGroups} = 0)`;
  if (!inAnyGroup(viewer)) return sql`(${published} and ${open})`;
  // Not correlated with the row: SQLite works the viewer's given courses out once per statement.
  const given = sql`${courses.id} in (select gc.course_id from group_courses gc where gc.group_id in (select value from json_each(${groups})))`;
  return sql`(${published} and (${open} or ${given}))`;
}

/** Only a signed-in person's groups count; without any, a person sees what a visitor sees. */
export function inAnyGroup(viewer: Viewer) {
  return isSignedIn(viewer) && viewer.groupIds.length > 0;
}

/**
 * Which courses a viewer may open (lessons and materials: the search's hits), as SQL over `courses`: the
 * listed ones, for a signed-in person, whose prerequisite is among `done` (the courses they completed that
 * are someone's prerequisite, as a JSON array) — `courseAccess` in SQL. Bound by value, so people with the
 * same groups and the same completed prerequisites share one statement and one kept result.
 */
function openability(viewer: Viewer, groups: Bound, done: Bound): SQL | undefined {
  if (mayPreview(viewer)) return undefined;
  if (!isSignedIn(viewer)) return sql`0`;
  const ready = sql`(${courses.prerequisiteCourseId} is null or ${courses.prerequisiteCourseId} in (select value from json_each(${done})))`;
  return sql`(${visibility(viewer, groups)} and ${ready})`;
}

/**
 * Whether the person `userId` (a column or placeholder) completed the prerequisite of the row's course, as SQL
 * over `courses`: what `courseAccess` asks of a listed course for a signed-in person, for a query that
 * reads many people's rows at once (a learner's assignments).
 */
export function prerequisiteDone(userId: SQL | SQLWrapper): SQL<number> {
  return sql<number>`(${courses.prerequisiteCourseId} is null or exists (select 1 from course_completions cc where cc.user_id = ${userId} and cc.course_id = ${courses.prerequisiteCourseId}))`;
}

/** The courses the viewer completed that are some course's prerequisite: what the opening rule reads of them. */
export function completedPrerequisites(db: TenantConn, viewer: Viewer): number[] {
  if (!viewer.person || mayPreview(viewer)) return [];
  return preparedOnce(db, "access.completedPrerequisites", () =>
    db
      .select({ id: courseCompletions.courseId })
      .from(courseCompletions)
      .where(
        and(
          eq(courseCompletions.userId, sql.placeholder("userId")),
          sql`${courseCompletions.courseId} in (select prerequisite_course_id from courses where prerequisite_course_id is not null)`,
        ),
      )
      .orderBy(asc(courseCompletions.courseId))
      .prepare(),
  )
    .all({ userId: viewer.person.id })
    .map((r) => r.id);
}

/** A viewer's group ids as the JSON array the rules bind. */
export const groupsOf = (viewer: Viewer) => JSON.stringify(viewer.groupIds);

/** The visibility rule with the viewer's groups bound: for a query built and run once. */
export function visibleCourses(viewer: Viewer): SQL | undefined {
  return visibility(viewer, groupsOf(viewer));
}

/**
 * The visibility rule for a prepared statement (db/prepared.ts): `key` names its variant (part of the
 * statement's name), and `params` binds the `viewerGroups` placeholder it may hold. The rows it selects
 * depend on the courses, their groups' courses and `params` alone: a result kept by `key` and `params`
 * holds while the content version (app/models/content-version.server.ts) is unchanged.
 */
export function visibleCoursesPrepared(viewer: Viewer): { key: string; where: SQL | undefined; params: { viewerGroups: string } } {
  const key = mayPreview(viewer) ? "all" : inAnyGroup(viewer) ? "groups" : "open";
  return { key, where: visibility(viewer, sql.placeholder("viewerGroups")), params: { viewerGroups: groupsOf(viewer) } };
}

/** The opening rule with the viewer bound: courses whose lessons and materials they may open. */
export function openableCourses(db: TenantConn, viewer: Viewer): SQL | undefined {
  return openability(viewer, groupsOf(viewer), JSON.stringify(completedPrerequisites(db, viewer)));
}

const dialect = new SQLiteSyncDialect();
const asText = (where: SQL | undefined) => {
  if (!where) return { text: "1", params: [] as unknown[] };
  const query = dialect.sqlToQuery(where);
  return { text: query.sql, params: query.params };
};

/**
 * The visibility and opening rules as SQL text with their parameters, for the raw queries of full-text
 * search (over a `courses` table joined by that name). The rows they select depend on the courses, their
 * groups' courses and these parameters alone.
 */
export function courseRulesSql(db: TenantConn, viewer: Viewer) {
  return {
    visible: asText(visibility(viewer, groupsOf(viewer))),
    openable: asText(openability(viewer, groupsOf(viewer), JSON.stringify(completedPrerequisites(db, viewer)))),
  };
}

/**
 * Everything the visibility and opening rules read of the database besides the viewer's own values (their
 * groups and completed prerequisites, bound as parameters): these columns of `courses` and `group_courses`.
 * tests/unit/course-rules.test.ts fails when the rules' SQL reads a column not listed here.
 */
const RULE_INPUTS = [
  {
    table: courses,
    columns: [courses.id, courses.published, courses.blockDefaultAccess, courses.forceGroups, courses.prerequisiteCourseId],
  },
  { table: groupCourses, columns: [groupCourses.groupId, groupCourses.courseId] },
] as const;

/**
 * The rules' inputs as one SQL expression (text, no parameters): every row of `RULE_INPUTS`, each table's
 * rows in one string. It differs after any change to which courses any viewer sees or may open, whatever
 * their groups and completed prerequisites, so what is worked out from the rules and the viewer's values
 * alone may be kept while it is unchanged (the search's results: app/models/search.server.ts).
 */
export const courseRulesState: string = dialect.sqlToQuery(
  sql.join(
    RULE_INPUTS.map(({ table, columns }) => {
      const row = sql.join(
        columns.map((column) => sql`coalesce(${column}, '')`),
        sql` || ':' || `,
      );
      return sql`coalesce((select group_concat(r, ',') from (select ${row} as r from ${table} order by 1)), '')`;
    }),
    sql` || '|' || `,
  ),
).sql;

/** Whether a course, already read, is one the viewer sees listed (the same rule as `visibleCourses`). */
export function isVisible(db: TenantConn, viewer: Viewer, course: Course): boolean {
  if (mayPreview(viewer)) return true;
  if (!isPublished(course)) return false;
  if (isOpen(course)) return true;
  return isSignedIn(viewer) && inCourseGroup(db, viewer, course.id);
}

function inCourseGroup(db: TenantConn, viewer: Viewer, courseId: number) {
  if (viewer.groupIds.length === 0) return false;
  const given = preparedOnce(db, "access.courseGroups", () =>
    db
      .select({ groupId: groupCourses.groupId })
      .from(groupCourses)
      .where(eq(groupCourses.courseId, sql.placeholder("courseId")))
      .prepare(),
  ).all({ courseId });
  return given.some((g) => viewer.groupIds.includes(g.groupId));
}

export function isCourseCompleted(db: TenantConn, userId: number, courseId: number) {
  return Boolean(
    preparedOnce(db, "access.courseCompleted", () =>
      db
        .select({ id: courseCompletions.courseId })
        .from(courseCompletions)
        .where(and(eq(courseCompletions.userId, sql.placeholder("userId")), eq(courseCompletions.courseId, sql.placeholder("courseId"))))
        .prepare(),
    ).get({ userId, courseId }),
  );
}

/**
 * The people `courseAccess` might refuse the course, as SQL over `users`: a superset, leaving out only those
 * it certainly lets in — an enabled person with a role here (app/access/viewer.ts `viewerOfMember`), when the
 * course is published, open to them (open to everyone, or given to one of their groups) and its prerequisite
 * done. For a caller asking about thousands of people at once (an assignment's): `courseAccess` then decides
 * for those left. Keep it in step with `courseAccess` below; tests/integration/assignments.test.ts compares them.
 * It names the table `users` (a query giving it another name cannot use it).
 */
export function mayBeRefused(course: Course): SQL {
  if (!isPublished(course)) return sql`1`;
  const parts: SQL[] = [sql`users.disabled_at is not null`, sql`users.role is null`];
  if (!isOpen(course))
    parts.push(sql`not exists (select 1 from group_members gm join group_courses gc on gc.group_id = gm.group_id
      where gm.user_id = users.id and gc.course_id = ${course.id})`);
  if (course.prerequisiteCourseId)
    parts.push(
      sql`not exists (select 1 from course_completions cc where cc.user_id = users.id and cc.course_id = ${course.prerequisiteCourseId})`,
    );
  return sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * May the viewer open the course (its lessons, materials, quizzes, SCORM content)? Drafts are for those
 * who may preview: anyone else finds no such course (app/models/course-lookup.server.ts `findCourse`), and is
 * refused here should a caller ask about one. Then sign-in, groups, and the prerequisite.
 */
export function courseAccess(db: TenantConn, viewer: Viewer, course: Course): Access {
  if (mayPreview(viewer)) return { allowed: true };
  if (!isPublished(course)) return { allowed: false, reason: "limited" };
  if (!isSignedIn(viewer) || !viewer.person) return { allowed: false, reason: "login" };
  if (!isOpen(course) && !inCourseGroup(db, viewer, course.id)) return { allowed: false, reason: "limited" };
  if (course.prerequisiteCourseId && !isCourseCompleted(db, viewer.person.id, course.prerequisiteCourseId)) {
    return { allowed: false, reason: "prerequisite" };
  }
  return { allowed: true };
}

/**
 * The lessons that count for a course: all of them, except quiz lessons when the course does not allow
 * quizzes (docs/product.md §3 `allow_quizzes`: they are not shown, so they cannot hold a course back).
 */
export function countedLessons(courseId: number | ReturnType<typeof sql.placeholder>) {
  return and(
    eq(lessons.courseId, courseId),
    sql`(${lessons.kind} <> 'quiz' or (select allow_quizzes from courses where courses.id = ${courseId}) = 1)`,
  );
}

/**
 * A quiz lesson is shown only when its course allows quizzes (docs/product.md §3 `allow_quizzes`); otherwise it does
 * not exist for learners. Those who may preview see it.
 */
export function isLessonHidden(viewer: Viewer, course: Pick<Course, "allowQuizzes">, lesson: Pick<Lesson, "kind">): boolean {
  return lesson.kind === "quiz" && !course.allowQuizzes && !mayPreview(viewer);
}

/** The course's rules, then its lesson order: lessons can require all earlier lessons to be completed. */
export function lessonAccess(db: TenantConn, viewer: Viewer, course: Course, lesson: Pick<Lesson, "id" | "position">): Access {
  return lessonsAccess(db, viewer, course, [lesson]).get(lesson.id)!;
}

const PREVIOUS_LESSONS: Access = { allowed: false, reason: "previous_lessons" };

/**
 * `lessonAccess` for several lessons of one course at once (a course's episode list), by lesson id: the
 * course's rules are checked once, and the lesson order in one read however many lessons are asked about.
 * Where lessons must be taken in order, a lesson is open once every counted lesson before it (a lower
 * position) is completed: that is, unless the first counted lesson not completed comes before it.
 */
export function lessonsAccess(
  db: TenantConn,
  viewer: Viewer,
  course: Course,
  list: readonly Pick<Lesson, "id" | "position">[],
): Map<number, Access> {
  const access = courseAccess(db, viewer, course);
  const inOrder = access.allowed && !mayPreview(viewer) && course.sequentialLessons ? viewer.person : null;
  const firstOpen = inOrder ? firstUnfinishedPosition(db, inOrder.id, course.id) : null;
  return new Map(list.map((lesson) => [lesson.id, firstOpen !== null && firstOpen < lesson.position ? PREVIOUS_LESSONS : access]));
}

/** The lowest position among the course's counted lessons the person has not completed; null when none is left. */
function firstUnfinishedPosition(db: TenantConn, userId: number, courseId: number): number | null {
  const row = preparedOnce(db, "access.firstUnfinishedLesson", () =>
    db
      .select({ position: min(lessons.position) })
      .from(lessons)
      .where(
        and(
          countedLessons(sql.placeholder("courseId")),
          notExists(
            db
              .select({ one: sql`1` })
              .from(lessonProgress)
              .where(
                and(
                  eq(lessonProgress.userId, sql.placeholder("userId")),
                  eq(lessonProgress.lessonId, lessons.id),
                  isNotNull(lessonProgress.completedAt),
                ),
              ),
          ),
        ),
      )
      .prepare(),
  ).get({ courseId, userId });
  return row?.position ?? null;
}
