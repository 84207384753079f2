import type { TenantConn } from "../../db/open";

/**
 * Learning events, published inside the transaction that records them (lessons, courses, quizzes, bookmarks,
 * watch time), so every path that records progress (pages, /api, quizzes, SCORM) triggers the same reactions,
 * once. This module only publishes: what reacts (certificates, analytics, groups, points and badges) subscribes
 * at start-up, in app/models/subscribers.server.ts, so the features that react are not imported by the
 * learning code that publishes (no import cycle through the models). Handlers must be idempotent where an
 * event can repeat and must only write to the tenant's database.
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
  /** Which completion of the course this is (recertification: 2 and more after renewals); 1 when left out. */
  cycle?: number;
}

/** A learning path done (issue 49): its last step, by the course completion that finished it or found done later. */
export interface PathCompleted {
  userId: number;
  pathId: number;
  at: Date;
  /** Which completion of the path this is: 1 for the first, more after renewals. */
  cycle: number;
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

/** Every event, by name, with what it carries. */
export interface LearningEvents {
  /** A lesson became completed for the first time. */
  lessonCompleted: LessonCompleted;
  /**
   * A course became completed (every lesson completed, quiz lessons passed): the first time, and again for
   * each renewal of a completion that expires (app/models/completion-cycle.server.ts).
   */
  courseCompleted: CourseCompleted;
  /** A learning path became done (issue 49), once a completion cycle. */
  pathCompleted: PathCompleted;
  /** A quiz attempt was submitted and graded (or ended by its deadline). */
  quizAttemptEnded: QuizAttemptEnded;
  /** A course was bookmarked (not published when it already was). */
  bookmarked: Bookmarked;
  /** Watch time was credited by a heartbeat. */
  watchTimeCredited: WatchTimeCredited;
}

export type EventName = keyof LearningEvents;
export type Handler<K extends EventName> = (tx: Tx, event: LearningEvents[K]) => void;
/** Each event's handlers, called in this order. */
export type Subscribers = { readonly [K in EventName]: ReadonlyArray<Handler<K>> };

let subscribers: Subscribers | null = null;

/** Sets who reacts to each event (once, at start-up: app/models/subscribers.server.ts). */
export function setSubscribers(table: Subscribers) {
  subscribers = table;
}

/**
 * Calls the event's handlers in the caller's transaction. An event published before anything subscribed is a
 * program that forgot its start-up, never a learner's event to drop: it throws.
 */
export function publish<K extends EventName>(tx: Tx, name: K, event: LearningEvents[K]) {
  if (!subscribers)
    throw new Error(`learning event "${name}" published before subscribeLearningEvents() ran (app/models/subscribers.server.ts)`);
  for (const handler of subscribers[name] as ReadonlyArray<Handler<K>>) handler(tx, event);
}
