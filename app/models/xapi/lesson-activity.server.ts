import type { TenantConn } from "../../../db/open";
import type { Lesson } from "../../../db/tenant";
import { getLesson } from "../lesson.server";

/*
 * Which xAPI activities are Lectern lessons (docs/decisions/043-learning-record-store.md, "What it feeds"):
 * a lesson's activity id is its own page's address on the organization's host,
 * `<origin>/courses/<course id>/lessons/<lesson id>`, an IRI that names nothing else and that a person can
 * open. Packages that declare their own activity ids (issue 48) will be mapped to their lessons here too,
 * so every caller asks `lessonOfActivity` and none parses an id itself.
 */

/** What follows `<origin>/courses/` in a lesson's activity id. */
const LESSON_PATH = /^([1-9][0-9]{0,14})\/lessons\/([1-9][0-9]{0,14})$/;

/** `https://acme.example` from any address on that host (scheme, host and port, as URL reads them). */
export function originOf(address: string): string | null {
  try {
    const { origin } = new URL(address);
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** The activity id of a lesson of the organization at `origin`. */
export function lessonActivityId(origin: string, lesson: Pick<Lesson, "id" | "courseId">): string {
  return `${originOf(origin) ?? origin}/courses/${lesson.courseId}/lessons/${lesson.id}`;
}

/**
 * The lesson an activity id names on the organization's host `origin`, or null. Activity ids are compared as
 * the strings they are (xAPI), so only a lesson's own id counts: not another host's, path, query or
 * fragment, nor an address naming the lesson under another course than its own.
 */
export function lessonOfActivity(db: TenantConn, origin: string, activityId: string): Lesson | null {
  const home = originOf(origin);
  const prefix = `${home}/courses/`;
  if (!home || !activityId.startsWith(prefix)) return null;
  const match = LESSON_PATH.exec(activityId.slice(prefix.length));
  if (!match) return null;
  const lesson = getLesson(db, Number(match[2]));
  return lesson && lesson.courseId === Number(match[1]) ? lesson : null;
}
