import { and, count, inArray, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { lessons, users } from "../../db/tenant";
import { countedLessons } from "../access/courses";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { contains } from "../utils/pagination";
import type { CourseLearnerListQuery, LearnerState } from "./forms/course-learner-list";
import { listOrder, listPage } from "./list-page.server";

/** The listed person, named with its table: drizzle leaves a lone table's columns bare, which a subquery would take for its own. */
const person = sql`"users"."id"`;

/**
 * A course's learners (issue 50; docs/decisions/046-management-lists.md): everyone with progress in the course, a
 * completion of it, or an open assignment of it (assignment_people still in the group), with their progress (the
 * course's counted lessons they completed, as the course page counts them: app/access/courses.ts `countedLessons`),
 * their state, last activity and completion day. Searched by name or e-mail address; filtered by state, a group they
 * are in and whether the course is assigned to them; sorted by name, progress, last activity or completion. Only
 * people the viewer may see: an organization's admins everyone, anyone else the members of the groups they manage
 * (app/access/rules.ts `manageableGroupIds`).
 *
 * **Speed.** The learners are read from the course's own rows: its range of lesson_progress_course_user_idx
 * (migration 0051: who has progress, their completed lessons and last activity, without the table), its completions
 * and its assignments' people; the first page in name order then walks users_name_idx and stops after one page.
 * Before that index a learner was found by probing every person's own rows (the total about 90 ms at 100,000 people,
 * a sort by progress about 620 ms).
 */
export function courseLearnerList(db: TenantConn, viewer: Viewer, courseId: number, query: CourseLearnerListQuery) {
  const where = learnerWhere(viewer, courseId, query);
  const done = doneLessons(courseId);
  const last = sql<
    number | null
  >`(select max(lp.updated_at) from lesson_progress lp where lp.course_id = ${courseId} and lp.user_id = ${person})`;
  const completedAt = sql<
    number | null
  >`(select cc.completed_at from course_completions cc where cc.user_id = ${person} and cc.course_id = ${courseId} and cc.renewal_started_at is null)`;
  // As the people list: searched, the names are sorted as expressions, so SQLite does not walk every person in name order.
  const name = query.q ? [sql`${users.lastName} || ''`, sql`${users.firstName} || ''`] : [users.lastName, users.firstName];
  const order = listOrder(query, { name, progress: doneOfAll(courseId), activity: lastOfAll(courseId), completed: completedAt }, users.id);
  const lessonTotal = db.select({ n: count() }).from(lessons).where(countedLessons(courseId)).get()?.n ?? 0;
  const list = listPage(query, {
    count: () => learnerCount(db, viewer, courseId, query),
    // The page's people first, by the sort alone, then their columns: SQLite keeps every selected column of every
    // sorted row, so each of the five probes below would otherwise run for every learner (50,000 of a big course).
    rows: (limit, offset) => {
      const ids = db
        .select({ id: users.id })
        .from(users)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all()
        .map((r) => r.id);
      if (ids.length === 0) return [];
      const byId = new Map(
        db
          .select({
            id: users.id,
            email: users.email,
            firstName: users.firstName,
            lastName: users.lastName,
            done,
            last,
            completedAt,
            started: sql<number>`exists (select 1 from lesson_progress lp where lp.course_id = ${courseId} and lp.user_id = ${person})`,
            assigned: assignedTo(courseId),
          })
          .from(users)
          .where(inArray(users.id, ids))
          .all()
          .map((r) => [r.id, r]),
      );
      return ids.map((id) => byId.get(id)!);
    },
  });
  return {
    ...list,
    lessonTotal,
    rows: list.rows.map((r) => ({
      id: r.id,
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
      percent: r.completedAt !== null ? 100 : lessonTotal ? Math.min(100, Math.round((100 * r.done) / lessonTotal)) : 0,
      state: (r.completedAt !== null ? "completed" : r.started ? "in_progress" : "not_started") as LearnerState,
      lastActivity: r.last === null ? null : new Date(r.last * 1000),
      completedAt: r.completedAt === null ? null : new Date(r.completedAt * 1000),
      assigned: Boolean(r.assigned),
    })),
  };
}

/** The course's counted lessons the person has completed. */
const doneLessons = (courseId: number) =>
  sql<number>`(select count(*) from lesson_progress lp where lp.course_id = ${courseId} and lp.user_id = ${person}
    and lp.completed_at is not null and lp.lesson_id in (select ${lessons.id} from ${lessons} where ${countedLessons(courseId)}))`;

/**
 * The same two as sort keys: each learner's figure looked up in the course's figures, counted in one pass over its
 * range of lesson_progress_course_user_idx (SQLite keeps them, indexed, for the statement), rather than counted for
 * each learner (a sort by progress of 50,000 learners: 110 → 45 ms).
 */
const doneOfAll = (courseId: number) =>
  sql`coalesce((select d.n from (select lp.user_id as uid, count(*) as n from lesson_progress lp where lp.course_id = ${courseId}
    and lp.completed_at is not null and lp.lesson_id in (select ${lessons.id} from ${lessons} where ${countedLessons(courseId)})
    group by lp.user_id) d where d.uid = ${person}), 0)`;
const lastOfAll = (courseId: number) =>
  sql`(select d.t from (select lp.user_id as uid, max(lp.updated_at) as t from lesson_progress lp where lp.course_id = ${courseId}
    group by lp.user_id) d where d.uid = ${person})`;

/** The person has an open assignment of the course (still in its group). */
const assignedTo = (courseId: number) =>
  sql<number>`exists (select 1 from assignment_people ap where ap.user_id = ${person} and ap.left_at is null
    and ap.assignment_id in (select a.id from assignments a where a.course_id = ${courseId}))`;

/** Who has progress in the course, along its range of lesson_progress_course_user_idx. */
const started = (courseId: number) => sql`${person} in (select lp.user_id from lesson_progress lp where lp.course_id = ${courseId})`;

const completedNow = (courseId: number) =>
  sql`exists (select 1 from course_completions cc where cc.user_id = ${person} and cc.course_id = ${courseId} and cc.renewal_started_at is null)`;
const memberOf = (groupIds: readonly number[]) =>
  sql`${person} in (select gm.user_id from group_members gm where gm.group_id in (select value from json_each(${JSON.stringify(groupIds)})))`;

/** Those who completed the course (not renewing it): the course's range of course_completions_course_expiry_idx. */
const completedList = (courseId: number) =>
  sql`${person} in (select cc.user_id from course_completions cc where cc.course_id = ${courseId} and cc.renewal_started_at is null)`;

function stateIs(courseId: number, state: LearnerState): SQL {
  if (state === "completed") return completedList(courseId);
  if (state === "in_progress") return sql`(${started(courseId)} and not ${completedNow(courseId)})`;
  return sql`(not ${started(courseId)} and not ${completedNow(courseId)})`;
}

/** Who is a learner of the course, with the list's search and filters, among the people the viewer may see. */
function learnerWhere(viewer: Viewer, courseId: number, query: CourseLearnerListQuery) {
  // Someone who completed or started the course is a learner of it: their state's own list is enough, rather than
  // every learner's gathered first (the completed of a course of 50,000 learners: 45 → 3 ms to count).
  const state = query.filters.state;
  return and(state === "completed" || state === "in_progress" ? undefined : learners(courseId), filtersWhere(viewer, courseId, query));
}

/** Everyone with progress in the course, a completion of it or an open assignment of it: one list of ids. */
const learners = (courseId: number) =>
  sql`${person} in (select lp.user_id from lesson_progress lp where lp.course_id = ${courseId}
    union select cc.user_id from course_completions cc where cc.course_id = ${courseId}
    union select ap.user_id from assignment_people ap where ap.left_at is null
      and ap.assignment_id in (select a.id from assignments a where a.course_id = ${courseId}))`;

/** How many learners match. */
function learnerCount(db: TenantConn, viewer: Viewer, courseId: number, query: CourseLearnerListQuery) {
  return (
    db
      .select({ n: count() })
      .from(users)
      .where(learnerWhere(viewer, courseId, query))
      .get()?.n ?? 0
  );
}

/** The list's search and filters, among the people the viewer may see. */
function filtersWhere(viewer: Viewer, courseId: number, query: CourseLearnerListQuery) {
  const { state, group, assigned } = query.filters;
  const reach = manageableGroupIds(viewer);
  return and(
    reach ? memberOf(reach) : undefined,
    query.q ? contains(sql`(${users.email} || ' ' || ${users.firstName} || ' ' || ${users.lastName})`, query.q) : undefined,
    state ? stateIs(courseId, state as LearnerState) : undefined,
    // As a list of the group's members, so that SQLite can start from the group rather than probe every person.
    group ? sql`${person} in (select gm.user_id from group_members gm where gm.group_id = ${Number(group)})` : undefined,
    assigned === "yes" ? assignedTo(courseId) : assigned === "no" ? sql`not ${assignedTo(courseId)}` : undefined,
  );
}

export type CourseLearnerRow = ReturnType<typeof courseLearnerList>["rows"][number];
