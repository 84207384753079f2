import type { TenantConn } from "../../../db/open";
import type { Organization } from "../../../db/platform";
import { eq } from "drizzle-orm";
import { contentPackages, type Lesson, type LessonKind, type User } from "../../../db/tenant";
import { lessonAccess } from "../../access/courses";
import { viewerOfMember } from "../../access/viewer";
import { isLanguage } from "../../utils/i18n";
import { findLesson } from "../course-lookup.server";
import { membershipsOf } from "../group-members.server";
import { completeLesson } from "../learning.server";
import { markLessonStarted } from "../lesson-state.server";
import { findUserByEmail, getUser } from "../user.server";
import { lessonOfActivity, originOf } from "./lesson-activity.server";
import type { Statement } from "./statement-schema";

/*
 * What a statement feeds (docs/decisions/043-learning-record-store.md, "What it feeds"): a person of the
 * organization who `completed`, `passed` or `failed` one of its lessons gets what a SCORM package's result
 * gives them (app/models/scorm/runtime.server.ts `commitAttempt`), through the same functions, in the
 * transaction that stores the statement: the lesson started (`markLessonStarted`) and, unless failed,
 * completed (`completeLesson`, which completes the course when it was the last lesson and publishes the
 * learning events that award points and certificates and count the completion in analytics). The
 * attempt's score and success are the statement's own `result`, kept with it in the LRS, as a SCO's are
 * its scorm_attempts row.
 */

const ADL = "http://adlnet.gov/expapi/verbs/";

/** What each verb does to the lesson (as SCORM's statuses do, decision 020 "Status mapping"): completes it, or only starts it. */
const OUTCOMES: Readonly<Record<string, "completed" | "started">> = {
  [`${ADL}completed`]: "completed",
  [`${ADL}passed`]: "completed",
  [`${ADL}failed`]: "started",
};

/**
 * Lessons a statement never completes: a quiz lesson only by passing its quiz, a SCORM lesson only by its
 * package (as the lesson page refuses to mark them: app/screens/lesson-page.server.ts).
 */
const COMPLETED_ELSEWHERE: ReadonlySet<LessonKind> = new Set(["quiz", "scorm", "package"]);

/** An xAPI or cmi5 package's lesson is completed by its own rules (app/models/packages/tracking.server.ts), never by a plain statement. */
function hasPackage(tx: TenantConn, lessonId: number) {
  return tx.select({ id: contentPackages.id }).from(contentPackages).where(eq(contentPackages.lessonId, lessonId)).get() !== undefined;
}

/** Where statements feed learning: the organization the LRS belongs to (built by the dispatcher for `storeStatements`). */
export interface LessonFeed {
  /** The organization's origin (`https://acme.example`): its lessons' activity ids and its people's accounts name it. */
  origin: string;
  /** The organization, whose people the access rules are asked about. */
  organization: Organization;
}

/** The account Agent that names a person of the organization at `origin`. */
export function learnerAgent(origin: string, person: Pick<User, "id">) {
  return { objectType: "Agent" as const, account: { homePage: originOf(origin) ?? origin, name: String(person.id) } };
}

/**
 * The person of the organization an actor names, or null: an Agent (never a Group) with `mbox` the
 * `mailto:` of their e-mail address (in any case), or `account` of the organization's origin (with or
 * without a trailing slash) and their id. Whether they may take a lesson is asked afterwards.
 */
export function personOfAgent(db: TenantConn, origin: string, actor: unknown): User | null {
  if (!actor || typeof actor !== "object") return null;
  const agent = actor as { objectType?: string; mbox?: unknown; account?: { homePage?: unknown; name?: unknown } };
  if ((agent.objectType ?? "Agent") !== "Agent") return null;
  if (typeof agent.mbox === "string") {
    const email = /^mailto:(.+)$/i.exec(agent.mbox)?.[1];
    return (email && findUserByEmail(db, email)) || null;
  }
  const { homePage, name } = agent.account ?? {};
  const home = originOf(origin);
  if (!home || (homePage !== home && homePage !== `${home}/`) || typeof name !== "string" || !/^[1-9][0-9]{0,14}$/.test(name)) return null;
  return getUser(db, Number(name)) ?? null;
}

/**
 * May the person take the lesson now? The one rule SCORM's launch asks too (server/scorm/access.ts
 * `openedBy`): the lesson as they find it (app/models/course-lookup.server.ts `findLesson`) and
 * app/access/courses.ts `lessonAccess`, for the viewer they are (app/access/viewer.ts `viewerOfMember`: a
 * disabled person, or one without a role here, is nobody and may take nothing).
 */
function mayTake(tx: TenantConn, feed: LessonFeed, person: User, lesson: Lesson) {
  const language = isLanguage(feed.organization.language) ? feed.organization.language : "en";
  const viewer = viewerOfMember({ organization: feed.organization, db: null, language }, person, membershipsOf(tx, person.id));
  const found = findLesson(tx, viewer, lesson.id);
  return Boolean(found && lessonAccess(tx, viewer, found.course, found.lesson).allowed);
}

/**
 * Feeds one statement just stored (in its transaction, `at` its `stored` time) into its actor's progress,
 * when it is a `completed`, `passed` or `failed` of an activity that is one of the organization's lessons
 * (./lesson-activity.server.ts) by a person of the organization who may take it; any other statement feeds
 * nothing. Voiding the statement later takes nothing back: the completion stays, as a SCO's does once
 * reached (commitAttempt keeps `completedAt`), and its events (points, certificate) have happened.
 */
export function feedLessonResult(tx: TenantConn, statement: Statement, feed: LessonFeed, at: Date): void {
  const outcome = OUTCOMES[statement.verb.id];
  const object = statement.object as { objectType?: string; id?: string };
  if (!outcome || (object.objectType ?? "Activity") !== "Activity" || !object.id) return;
  const lesson = lessonOfActivity(tx, feed.origin, object.id);
  if (!lesson || COMPLETED_ELSEWHERE.has(lesson.kind) || hasPackage(tx, lesson.id)) return;
  const person = personOfAgent(tx, feed.origin, statement.actor);
  if (!person || !mayTake(tx, feed, person, lesson)) return;
  markLessonStarted(tx, { userId: person.id, lesson, now: at });
  if (outcome === "completed") completeLesson(tx, { userId: person.id, lesson, now: at });
}
