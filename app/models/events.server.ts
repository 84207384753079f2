import type { TenantConn } from "../../db/open";
import { issueCertificate } from "./certificate.server";
import { recordCourseCompleted, recordQuizAttempt, recordWatchTime } from "./analytics.server";
import { recomputeUserMemberships } from "./group.server";
import { pointsForBookmark, pointsForCourseCompleted, pointsForLessonCompleted, pointsForQuizAttempt, pointsForWatchTime } from "./points.server";

/**
 * Learning events, called inside the transaction that records them. Features that react to learning
 * (points and badges, certificates, analytics) add one call each to the body of the event they care about,
 * so every path that records progress (pages, /api, quizzes, SCORM) triggers them the same way, once.
 * Handlers must be idempotent where an event can repeat and must only write to the tenant's database.
 */
export type Tx = TenantConn;

export interface LessonCompleted {
  userId: number;
  lessonId: number;
  courseId: number;
  at: Date;
}

export interface CourseCompleted {
  userId: number;
  courseId: number;
  at: Date;
}

export interface QuizAttemptEnded {
  userId: number;
  quizId: number;
  attemptId: number;
  /** The quiz lesson the attempt was taken in, when taken inside a course. */
  lessonId: number | null;
  courseId: number | null;
  /** Score out of 100. */
  score: number;
  passed: boolean;
  /** 1 for the first attempt. */
  attemptNumber: number;
  at: Date;
}

export interface Bookmarked {
  userId: number;
  courseId: number;
  at: Date;
}

export interface WatchTimeCredited {
  userId: number;
  lessonId: number;
  courseId: number;
  seconds: number;
  at: Date;
}

/** A lesson became completed for the first time. */
export function onLessonCompleted(_tx: Tx, _e: LessonCompleted) {
  pointsForLessonCompleted(_tx, _e);
}

/** A course became completed for the first time (every lesson completed, quiz lessons passed). */
export function onCourseCompleted(tx: Tx, e: CourseCompleted) {
  issueCertificate(tx, e);
  recordCourseCompleted(tx, e);
  recomputeUserMemberships(tx, e.userId); // groups: "completed course X" rules
  pointsForCourseCompleted(tx, e);
}

/** A quiz attempt was submitted and graded (or ended by its deadline). */
export function onQuizAttemptEnded(tx: Tx, e: QuizAttemptEnded) {
  recordQuizAttempt(tx, e);
  pointsForQuizAttempt(tx, e);
}

/** A course was bookmarked (not called when it already was). */
export function onBookmarked(_tx: Tx, _e: Bookmarked) {
  pointsForBookmark(_tx, _e);
}

/** Watch time was credited by a heartbeat. */
export function onWatchTimeCredited(tx: Tx, e: WatchTimeCredited) {
  recordWatchTime(tx, e);
  pointsForWatchTime(tx, e);
}
