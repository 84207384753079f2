import { asc, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import {
  assignmentPeople,
  assignments,
  bookmarks,
  courseCompletionHistory,
  courseCompletions,
  courses,
  groups,
  lessonProgress,
  lessons,
  ratings,
  recertifications,
  watchTimeDaily,
} from "../../../db/tenant";
import { iso } from "./account.server";
import { certificatesOf, quizAttemptsOf, scormAttemptsOf } from "./results.server";

/*
 * The export's learning sections (../personal-data.server.ts): their place in each lesson, their completions,
 * watch time, bookmarks and ratings, the courses assigned to them, and their results (./results.server.ts).
 * Courses and lessons are named by id and by their title now (null once deleted).
 */

function progressOf(db: TenantConn, userId: number) {
  return db
    .select({ p: lessonProgress, lesson: lessons.title, course: courses.title })
    .from(lessonProgress)
    .leftJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
    .leftJoin(courses, eq(courses.id, lessonProgress.courseId))
    .where(eq(lessonProgress.userId, userId))
    .orderBy(asc(lessonProgress.courseId), asc(lessonProgress.lessonId))
    .all()
    .map(({ p, lesson, course }) => ({
      course_id: p.courseId,
      course_title: course,
      lesson_id: p.lessonId,
      lesson_title: lesson,
      position_seconds: p.positionSeconds,
      watched_seconds: p.watchedSeconds,
      last_heartbeat_at: iso(p.lastHeartbeatAt),
      completed_at: iso(p.completedAt),
      started_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
    }));
}

function completionsOf(db: TenantConn, userId: number) {
  const current = db
    .select({ c: courseCompletions, course: courses.title })
    .from(courseCompletions)
    .leftJoin(courses, eq(courses.id, courseCompletions.courseId))
    .where(eq(courseCompletions.userId, userId))
    .orderBy(asc(courseCompletions.completedAt))
    .all();
  const earlier = db
    .select({ c: courseCompletionHistory, course: courses.title })
    .from(courseCompletionHistory)
    .leftJoin(courses, eq(courses.id, courseCompletionHistory.courseId))
    .where(eq(courseCompletionHistory.userId, userId))
    .orderBy(asc(courseCompletionHistory.completedAt))
    .all();
  return {
    course_completions: current.map(({ c, course }) => ({
      course_id: c.courseId,
      course_title: course,
      completed_at: iso(c.completedAt),
      cycle: c.cycle,
      expires_on: c.expiresOn,
      renewal_started_at: iso(c.renewalStartedAt),
    })),
    earlier_completions: earlier.map(({ c, course }) => ({
      course_id: c.courseId,
      course_title: course,
      cycle: c.cycle,
      completed_at: iso(c.completedAt),
      expires_on: c.expiresOn,
    })),
  };
}

/** Their bookmarks, ratings and watch time per day. */
function choicesOf(db: TenantConn, userId: number) {
  const marked = db
    .select({ courseId: bookmarks.courseId, course: courses.title, at: bookmarks.createdAt })
    .from(bookmarks)
    .leftJoin(courses, eq(courses.id, bookmarks.courseId))
    .where(eq(bookmarks.userId, userId))
    .orderBy(asc(bookmarks.createdAt))
    .all();
  const rated = db
    .select({ courseId: ratings.courseId, course: courses.title, stars: ratings.stars, at: ratings.updatedAt })
    .from(ratings)
    .leftJoin(courses, eq(courses.id, ratings.courseId))
    .where(eq(ratings.userId, userId))
    .orderBy(asc(ratings.courseId))
    .all();
  const watched = db.select().from(watchTimeDaily).where(eq(watchTimeDaily.userId, userId)).orderBy(asc(watchTimeDaily.day)).all();
  return {
    bookmarks: marked.map((b) => ({ course_id: b.courseId, course_title: b.course, bookmarked_at: iso(b.at) })),
    ratings: rated.map((r) => ({ course_id: r.courseId, course_title: r.course, stars: r.stars, rated_at: iso(r.at) })),
    watchTime: watched.map((w) => ({ day: w.day, seconds: w.seconds })),
  };
}

/** The courses assigned to them (their own assignment or a group's: the group is named, never who assigned it). */
function assignmentsOf(db: TenantConn, userId: number) {
  const assigned = db
    .select({ p: assignmentPeople, a: assignments, course: courses.title, group: groups.name })
    .from(assignmentPeople)
    .innerJoin(assignments, eq(assignments.id, assignmentPeople.assignmentId))
    .leftJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(groups, eq(groups.id, assignments.groupId))
    .where(eq(assignmentPeople.userId, userId))
    .orderBy(asc(assignmentPeople.dueOn), asc(assignmentPeople.assignmentId))
    .all();
  const renewed = db
    .select({ r: recertifications, course: courses.title })
    .from(recertifications)
    .leftJoin(courses, eq(courses.id, recertifications.courseId))
    .where(eq(recertifications.userId, userId))
    .orderBy(asc(recertifications.reassignedAt))
    .all();
  return {
    courses: assigned.map(({ p, a, course, group }) => ({
      assignment_id: a.id,
      course_id: a.courseId,
      course_title: course,
      assigned_as: a.target,
      group_id: a.groupId,
      group_name: group,
      due: a.dueKind === "date" ? { on: a.dueDate } : { days_after_assigned: a.dueDays },
      assigned_at: iso(p.assignedAt),
      due_on: p.dueOn,
      completed_at: iso(p.completedAt),
      left_group_at: iso(p.leftAt),
      cycle: p.cycle,
    })),
    recertifications: renewed.map(({ r, course }) => ({
      course_id: r.courseId,
      course_title: course,
      expiring_on: r.expiresOn,
      cycle: r.cycle,
      reassigned_at: iso(r.reassignedAt),
      due_on: r.dueOn,
    })),
  };
}

/** The learning sections: progress, bookmarks, ratings, assignments, quizzes, certificates and SCORM. */
export function learningData(db: TenantConn, userId: number, env: { origin: string; timeZone?: string; now: Date }) {
  const { watchTime, ...choices } = choicesOf(db, userId);
  return {
    progress: { lessons: progressOf(db, userId), ...completionsOf(db, userId), watch_time_by_day: watchTime },
    ...choices,
    assignments: assignmentsOf(db, userId),
    quiz_attempts: quizAttemptsOf(db, userId),
    certificates: certificatesOf(db, userId, env),
    scorm_attempts: scormAttemptsOf(db, userId),
  };
}
