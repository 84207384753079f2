import { and, asc, avg, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { TenantConn, TenantDb } from "../../db/open";
import { cachedByVersion } from "../../db/content-cache";
import { commitSoon } from "../../db/group-commit";
import { preparedOnce, toSeconds } from "../../db/prepared";
import { connectionOf } from "../../db/connections";
import {
  countedLessons,
  isCourseCompleted,
  isLessonHidden,
  isVisible,
  lessonAccess,
  published,
  visibleCourses,
  visibleCoursesPrepared,
  courseRulesSql,
} from "../access/courses";
import { mayPreview } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { publish } from "./events.server";
import { recordCourseCompletion } from "./completion-cycle.server";
import { bookmarks, courses, lessonProgress, lessons, ratings, watchTimeDaily, users, type Course, type Lesson } from "../../db/tenant";
import type { Page } from "../utils/pagination";

/**
 * The learner's side: who may open what (docs/product.md §4, §8 access messages), progress and watch time, course
 * completion, bookmarks, ratings, history and search. Pages and /api call the same functions.
 */
export type { Access, AccessDenied } from "../access/courses";
// The course rules, for the pages and /api calls that ask them of a course they found here.
export { courseAccess, isLessonHidden, lessonAccess } from "../access/courses";

/**
 * Watch time is credited against one clock per person (users.watch_credited_until): a heartbeat gets at
 * most the time between that clock and now, and moves the clock on by what it got. However many
 * heartbeats, lessons or devices, the total never passes the wall clock. Idle time banks at most a minute.
 */
const MAX_BANKED_MS = 60_000;

/** A placeholder usable where drizzle's types want a value (update sets): bound when the query runs. */
const placeholder = (name: string) => sql`${sql.placeholder(name)}`;

function day(now: Date) {
  return now.toISOString().slice(0, 10);
}

function progressRow(db: TenantConn, userId: number, lesson: Lesson) {
  const existing = preparedOnce(db, "learning.progressRow", () =>
    db
      .select()
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, sql.placeholder("userId")), eq(lessonProgress.lessonId, sql.placeholder("lessonId"))))
      .prepare(),
  ).get({ userId, lessonId: lesson.id });
  if (existing) return existing;
  // The timestamps' defaults are SQL (unixepoch()), so a prepared insert does not freeze them.
  return preparedOnce(db, "learning.newProgressRow", () =>
    db
      .insert(lessonProgress)
      .values({ userId: sql.placeholder("userId"), lessonId: sql.placeholder("lessonId"), courseId: sql.placeholder("courseId") })
      .returning()
      .prepare(),
  ).get({ userId, lessonId: lesson.id, courseId: lesson.courseId })!;
}

/**
 * A player's heartbeat: the position, and the seconds it says were watched since the last one. What is
 * credited is never more than the wall-clock time between heartbeats (no farming by claiming hours).
 */
export function recordHeartbeat(db: TenantConn, heartbeat: Heartbeat) {
  return db.transaction((tx) => writeHeartbeat(tx, heartbeat));
}

export interface Heartbeat {
  userId: number;
  lesson: Lesson;
  positionSeconds: number;
  watchedSeconds: number;
  now?: Date;
}

/**
 * A heartbeat from /api: committed together with the other heartbeats of this moment, each in a savepoint
 * of its own (db/group-commit.ts); resolves once durable.
 */
export function recordHeartbeatInBatch(db: TenantDb, heartbeat: Heartbeat) {
  return commitSoon(db.$client, () => writeHeartbeat(db, heartbeat));
}

/**
 * `recordHeartbeat`'s writes without a transaction of their own, for a caller that already makes them
 * all-or-nothing: db/group-commit.ts gives every work of a batch its own savepoint.
 */
export function writeHeartbeat(tx: TenantConn, { userId, lesson, positionSeconds, watchedSeconds, now = new Date() }: Heartbeat) {
  const row = progressRow(tx, userId, lesson);
  // Built once per connection (db/prepared.ts): heartbeats are the most frequent write.
  const person = preparedOnce(tx, "learning.creditClock", () =>
    tx
      .select({ until: users.watchCreditedUntil })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare(),
  ).get({ userId });
  const nowMs = now.getTime();
  // The first heartbeat only starts the clock; later ones draw on the time that has passed since.
  const from = person?.until == null ? nowMs : Math.min(nowMs, Math.max(person.until, nowMs - MAX_BANKED_MS));
  const available = Math.floor((nowMs - from) / 1000);
  // Only videos are watched; text and image lessons are read, and earn no watch time.
  const credited = lesson.kind === "video" ? Math.max(0, Math.min(Math.floor(watchedSeconds), available)) : 0;
  const until = from + credited * 1000;
  // A prepared update would freeze users.updated_at's $onUpdate value, so it is a placeholder here. A
  // clock that does not move (a reading lesson's heartbeat within the banked window) is not written.
  if (person?.until !== until)
    preparedOnce(tx, "learning.moveCreditClock", () =>
      tx
        .update(users)
        .set({ watchCreditedUntil: placeholder("until"), updatedAt: placeholder("updatedAt") })
        .where(eq(users.id, sql.placeholder("userId")))
        .prepare(),
    ).run({ until, updatedAt: toSeconds(new Date()), userId });
  const updated = preparedOnce(tx, "learning.heartbeatProgress", () =>
    tx
      .update(lessonProgress)
      .set({
        positionSeconds: placeholder("position"),
        watchedSeconds: placeholder("watched"),
        lastHeartbeatAt: placeholder("heartbeatMs"),
        updatedAt: placeholder("updatedAt"),
      })
      .where(eq(lessonProgress.id, sql.placeholder("id")))
      .returning()
      .prepare(),
  ).get({
    position: Math.max(0, Math.floor(positionSeconds)),
    watched: row.watchedSeconds + credited,
    heartbeatMs: now.getTime(), // last_heartbeat_at keeps milliseconds
    updatedAt: toSeconds(now),
    id: row.id,
  })!;
  if (credited > 0) {
    preparedOnce(tx, "learning.watchTimeDaily", () =>
      tx
        .insert(watchTimeDaily)
        .values({ userId: sql.placeholder("userId"), day: sql.placeholder("day"), seconds: sql.placeholder("seconds") })
        .onConflictDoUpdate({
          target: [watchTimeDaily.userId, watchTimeDaily.day],
          set: { seconds: sql`${watchTimeDaily.seconds} + ${sql.placeholder("seconds")}` },
        })
        .prepare(),
    ).run({ userId, day: day(now), seconds: credited });
    publish(tx, "watchTimeCredited", { userId, lessonId: lesson.id, courseId: lesson.courseId, seconds: credited, at: now });
  }
  return { progress: updated, credited };
}

/** Whether a viewer may watch a stored file: it is the media of a lesson they may open. */
export function canWatchFile(db: TenantConn, viewer: Viewer, fileId: number) {
  const candidates = db.select().from(lessons).where(eq(lessons.fileId, fileId)).all();
  return candidates.some((lesson) => {
    const course = findCourse(db, viewer, lesson.courseId);
    return Boolean(course && lessonAccess(db, viewer, course, lesson).allowed);
  });
}

/** Marks a lesson seen; the course is completed when all its lessons are. */
export function completeLesson(db: TenantConn, { userId, lesson, now = new Date() }: { userId: number; lesson: Lesson; now?: Date }) {
  return db.transaction((tx) => {
    const row = progressRow(tx, userId, lesson);
    if (!row.completedAt) {
      preparedOnce(tx, "learning.completeProgress", () =>
        tx
          .update(lessonProgress)
          .set({ completedAt: placeholder("at"), updatedAt: placeholder("at") })
          .where(eq(lessonProgress.id, sql.placeholder("id")))
          .prepare(),
      ).run({ at: toSeconds(now), id: row.id });
      publish(tx, "lessonCompleted", { userId, lessonId: lesson.id, courseId: lesson.courseId, at: now });
    }
    const courseId = lesson.courseId;
    const total =
      preparedOnce(tx, "learning.countedLessons", () =>
        tx
          .select({ n: count() })
          .from(lessons)
          .where(countedLessons(sql.placeholder("courseId")))
          .prepare(),
      ).get({ courseId })?.n ?? 0;
    const done =
      preparedOnce(tx, "learning.completedLessons", () =>
        tx
          .select({ n: count() })
          .from(lessonProgress)
          .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
          .where(
            and(
              eq(lessonProgress.userId, sql.placeholder("userId")),
              countedLessons(sql.placeholder("courseId")),
              isNotNull(lessonProgress.completedAt),
            ),
          )
          .prepare(),
      ).get({ userId, courseId })?.n ?? 0;
    const courseCompleted = total > 0 && done >= total;
    if (courseCompleted) {
      // The first completion, or a new cycle when a renewal is open (recertification, issue 34).
      const cycle = recordCourseCompletion(tx, { userId, courseId, now });
      if (cycle !== null) publish(tx, "courseCompleted", { userId, courseId, at: now, cycle });
    }
    return { courseCompleted };
  });
}

export function courseProgress(db: TenantConn, userId: number, courseId: number) {
  // Prepared once per connection: the course page and the player ask on every view.
  const rows = preparedOnce(db, "learning.courseProgressRows", () =>
    db
      .select()
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, sql.placeholder("userId")), eq(lessonProgress.courseId, sql.placeholder("courseId"))))
      .prepare(),
  ).all({ userId, courseId });
  const counted = new Set(
    preparedOnce(db, "learning.countedLessonIds", () =>
      db
        .select({ id: lessons.id })
        .from(lessons)
        .where(countedLessons(sql.placeholder("courseId")))
        .prepare(),
    )
      .all({ courseId })
      .map((l) => l.id),
  );
  const total = counted.size;
  const completed = rows.filter((r) => r.completedAt && counted.has(r.lessonId)).length;
  return {
    course_id: courseId,
    lessons: total,
    completed_lessons: completed,
    percent: total ? Math.round((100 * completed) / total) : 0,
    completed: isCourseCompleted(db, userId, courseId),
    watched_seconds: rows.reduce((sum, r) => sum + r.watchedSeconds, 0),
    lesson_progress: rows.map(progressView),
  };
}

/** Whether a person has progress in any lesson at all (docs/product.md §2: a learner with none is greeted on /welcome). */
export function hasStartedLearning(db: TenantConn, userId: number) {
  return db.select({ id: lessonProgress.id }).from(lessonProgress).where(eq(lessonProgress.userId, userId)).limit(1).get() !== undefined;
}

/** A person's own lesson progress (never anyone else's), newest first, one page of it and the total. */
export function listOwnProgress(db: TenantConn, userId: number, { page, perPage }: Page) {
  const mine = eq(lessonProgress.userId, userId);
  const items = db
    .select()
    .from(lessonProgress)
    .where(mine)
    .orderBy(desc(lessonProgress.updatedAt))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  const total = db.select({ n: count() }).from(lessonProgress).where(mine).get()?.n ?? 0;
  return { items, total };
}

export function progressView(p: typeof lessonProgress.$inferSelect) {
  return {
    id: p.id,
    lesson_id: p.lessonId,
    course_id: p.courseId,
    position_seconds: p.positionSeconds,
    watched_seconds: p.watchedSeconds,
    completed: p.completedAt !== null,
    completed_at: p.completedAt?.toISOString() ?? null,
    updated_at: p.updatedAt.toISOString(),
  };
}

/**
 * For a query prepared with a `userId` placeholder: each course that learner has progress in, with when
 * they last watched it. The rows are grouped by course first (in the order of the user/course index) and
 * only then joined to their courses: joining first made SQLite fetch a whole course row per progress row
 * and group them in a temporary tree (0.71 against 0.41 ms for 280 rows).
 */
export function lastSeenCourses(db: TenantConn) {
  return db
    .select({ courseId: lessonProgress.courseId, lastSeen: sql<number>`max(${lessonProgress.updatedAt})`.as("last_seen") })
    .from(lessonProgress)
    .where(eq(lessonProgress.userId, sql.placeholder("userId")))
    .groupBy(lessonProgress.courseId)
    .as("seen");
}

/** Courses the viewer has started and still sees, most recently watched first (docs/product.md §2 /history, /api). */
export function recentCourses(db: TenantConn, viewer: Viewer, limit = 20) {
  if (!viewer.person) return [];
  const visible = visibleCoursesPrepared(viewer);
  return preparedOnce(db, `learning.recentCourses.${visible.key}`, () => {
    const seen = lastSeenCourses(db);
    return db
      .select({ course: courses, lastSeen: seen.lastSeen })
      .from(seen)
      .innerJoin(courses, eq(courses.id, seen.courseId))
      .where(visible.where)
      .orderBy(desc(seen.lastSeen), desc(courses.id))
      .limit(sql.placeholder("limit"))
      .prepare();
  }).all({ userId: viewer.person.id, limit, ...visible.params });
}

export function isBookmarked(db: TenantConn, userId: number, courseId: number) {
  return Boolean(
    preparedOnce(db, "learning.isBookmarked", () =>
      db
        .select({ userId: bookmarks.userId })
        .from(bookmarks)
        .where(and(eq(bookmarks.userId, sql.placeholder("userId")), eq(bookmarks.courseId, sql.placeholder("courseId"))))
        .prepare(),
    ).get({ userId, courseId }),
  );
}

export function setBookmark(db: TenantConn, userId: number, courseId: number, on: boolean, now = new Date()) {
  if (on) {
    db.transaction((tx) => {
      const inserted = tx.insert(bookmarks).values({ userId, courseId, createdAt: now }).onConflictDoNothing().run();
      if (inserted.changes > 0) publish(tx, "bookmarked", { userId, courseId, at: now });
    });
  } else
    db.delete(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.courseId, courseId)))
      .run();
}

/** The viewer's bookmarked courses that they still see, newest bookmark first. */
export function listBookmarks(db: TenantConn, viewer: Viewer) {
  if (!viewer.person) return [];
  return db
    .select({ course: courses, createdAt: bookmarks.createdAt })
    .from(bookmarks)
    .innerJoin(courses, eq(courses.id, bookmarks.courseId))
    .where(and(eq(bookmarks.userId, viewer.person.id), visibleCourses(viewer)))
    .orderBy(desc(bookmarks.createdAt))
    .all();
}

export function rateCourse(db: TenantConn, userId: number, courseId: number, stars: number) {
  db.insert(ratings)
    .values({ userId, courseId, stars, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [ratings.userId, ratings.courseId], set: { stars, updatedAt: new Date() } })
    .run();
}

export function courseRating(db: TenantConn, courseId: number, userId?: number) {
  const row = preparedOnce(db, "learning.courseRating", () =>
    db
      .select({ average: avg(ratings.stars), count: count() })
      .from(ratings)
      .where(eq(ratings.courseId, sql.placeholder("courseId")))
      .prepare(),
  ).get({ courseId });
  const mine = userId
    ? preparedOnce(db, "learning.ownRating", () =>
        db
          .select({ stars: ratings.stars })
          .from(ratings)
          .where(and(eq(ratings.userId, sql.placeholder("userId")), eq(ratings.courseId, sql.placeholder("courseId"))))
          .prepare(),
      ).get({ userId, courseId })
    : undefined;
  return { average: row?.average ? Math.round(Number(row.average) * 10) / 10 : null, count: row?.count ?? 0, mine: mine?.stars ?? null };
}

/** The learner's completed lessons of a course, by id. */
export function completedLessonIds(db: TenantConn, userId: number, courseId: number) {
  return new Set(
    db
      .select({ id: lessonProgress.lessonId })
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.courseId, courseId), isNotNull(lessonProgress.completedAt)))
      .all()
      .map((r) => r.id),
  );
}

/**
 * A course as the viewer may find it by its id: published, or a draft for those who may preview it
 * (app/access/courses.ts). Whether they may open it is `courseAccess`'s to say.
 */
export function findCourse(db: TenantConn, viewer: Viewer, id: number) {
  const drafts = mayPreview(viewer);
  return preparedOnce(db, drafts ? "learning.course" : "learning.publishedCourse", () =>
    db
      .select()
      .from(courses)
      .where(and(eq(courses.id, sql.placeholder("id")), drafts ? undefined : published))
      .prepare(),
  ).get({ id });
}

/**
 * A lesson by its id with its course, as the viewer may find them: the course by `findCourse`, and not a
 * quiz lesson its course hides. Whether they may open it is `lessonAccess`'s to say.
 */
export function findLesson(db: TenantConn, viewer: Viewer, lessonId: number): { lesson: Lesson; course: Course } | undefined {
  const lesson = preparedOnce(db, "learning.lesson", () =>
    db
      .select()
      .from(lessons)
      .where(eq(lessons.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: lessonId });
  const course = lesson ? findCourse(db, viewer, lesson.courseId) : undefined;
  if (!lesson || !course || isLessonHidden(viewer, course, lesson)) return undefined;
  return { lesson, course };
}

/** A course by its id if the viewer sees it listed (app/access/courses.ts), e.g. the home page's featured one. */
export function findVisibleCourse(db: TenantConn, viewer: Viewer, id: number) {
  const course = findCourse(db, viewer, id);
  return course && isVisible(db, viewer, course) ? course : undefined;
}

/** Any course by its id, whatever its state: for the rules' own checks and the management screens. */
export function courseById(db: TenantConn, id: number) {
  return preparedOnce(db, "learning.course", () =>
    db
      .select()
      .from(courses)
      .where(eq(courses.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id });
}

export function courseLessons(db: TenantConn, courseId: number) {
  return preparedOnce(db, "learning.courseLessons", () =>
    db
      .select()
      .from(lessons)
      .where(countedLessons(sql.placeholder("courseId")))
      .orderBy(asc(lessons.position), asc(lessons.id))
      .prepare(),
  ).all({ courseId });
}

/** FTS5 query from what a person typed: each word as a prefix, all words required. */
export function ftsQuery(q: string) {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, 10)
    .map((w) => `"${w}"*`)
    .join(" ");
}

export interface SearchHit {
  /** `transcript`: words spoken in a lesson's video (its caption cues: docs/decisions/036-captions.md). */
  kind: "course" | "lesson" | "material" | "transcript";
  id: number;
  course_id: number;
  title: string;
  snippet: string;
  /** A transcript hit's moment in the video, in whole seconds (the lesson page's `?t=`); null for the others. */
  seconds: number | null;
}

/**
 * Ranked search (SQLite FTS5, bm25 with titles weighing most) as the viewer may see it: the courses they
 * see listed, and the lessons, materials and spoken words (caption cues) of the courses they may open
 * (app/access/courses.ts, in SQL, so the total counts nothing hidden). A lesson's cues make one hit, its
 * best-ranked cue (the earliest of equals). A lesson they may not open yet (lesson order) shows its title
 * without its text or moment, as the course page does.
 */
export function search(db: TenantConn, viewer: Viewer, q: string, { limit = 20, offset = 0 } = {}) {
  const match = ftsQuery(q);
  if (!match) return { items: [] as SearchHit[], total: 0 };
  const client = connectionOf(db) as import("better-sqlite3").Database;
  const rules = courseRulesSql(db, viewer);
  const where = `search_index match ? and ((s.kind = 'course' and ${rules.visible.text}) or (s.kind <> 'course' and ${rules.openable.text}))`;
  const params = [match, ...rules.visible.params, ...rules.openable.params];
  // One row per thing found: a lesson's cues are grouped into their best one (migrations/tenant/0025).
  const found = `with hits as (
      select s.kind as kind, s.ref_id as ref, s.course_id as course_id, s.title as title,
             snippet(search_index, 4, '', '', '…', 12) as snippet, bm25(search_index, 0, 0, 0, 10.0, 1.0) as rank
      from search_index s join courses on courses.id = s.course_id
      where ${where}
    ), grouped as (
      select hits.*, cue.lesson_id as cue_lesson, cue.start_ms as start_ms,
             row_number() over (partition by hits.kind, coalesce(cue.lesson_id, hits.ref) order by hits.rank, cue.start_ms) as n
      from hits left join caption_cues cue on hits.kind = 'cue' and cue.id = hits.ref
    )`;
  // Kept while the index, the courses and their groups' courses are unchanged (db/content-cache.ts); the
  // rules' parameters (groups, completed prerequisites) are part of the key. Callers get their own array.
  const key = ["search", match, rules.visible.text, rules.openable.text, JSON.stringify(params), limit, offset].join("\u0000");
  const result = cachedByVersion(
    client,
    key,
    () => searchVersion(client),
    () => {
      const rows = client
        .prepare(
          `${found}
         select case kind when 'cue' then 'transcript' else kind end as kind, coalesce(cue_lesson, ref) as id, course_id,
                case kind when 'cue' then coalesce((select title from lessons where lessons.id = cue_lesson), '') else title end as title,
                snippet, case kind when 'cue' then start_ms / 1000 end as seconds
         from grouped where n = 1
         order by rank limit ? offset ?`,
        )
        .all(...params, limit, offset) as SearchHit[];
      const total = (client.prepare(`${found} select count(*) as n from grouped where n = 1`).get(...params) as { n: number }).n;
      return { items: rows.map((i) => Object.freeze({ ...i, snippet: i.snippet.replace(/<[^>]*>/g, "") })), total };
    },
  );
  return { items: lessonTextsShown(db, viewer, result.items), total: result.total };
}

/**
 * What a search's result depends on, exactly: the index (FTS5 rewrites its structure record, id 10 of
 * search_index_data, with a new write counter on every change committed to it), which courses exist and
 * whom they are for (the join and the rules: publishing does not touch the index).
 */
function searchVersion(client: import("better-sqlite3").Database) {
  const row = client
    .prepare(
      `select (select hex(block) from search_index_data where id = 10) as fts,
              (select group_concat(c, ',') from (select id || ':' || published || block_default_access || force_groups || ':' || coalesce(prerequisite_course_id, '') as c from courses order by id)) as courses,
              (select group_concat(g, ',') from (select group_id || ':' || course_id as g from group_courses order by 1)) as given`,
    )
    .get() as { fts: string | null; courses: string | null; given: string | null };
  return `${row.fts ?? ""}|${row.courses ?? ""}|${row.given ?? ""}`;
}

/** The hits as given, less the text of lessons the viewer may not open yet (lesson order): a page at most. */
function lessonTextsShown(db: TenantConn, viewer: Viewer, hits: readonly SearchHit[]): SearchHit[] {
  if (mayPreview(viewer)) return [...hits];
  const courseCache = new Map<number, Course | undefined>();
  return hits.map((hit) => {
    if (hit.kind !== "lesson" && hit.kind !== "transcript") return hit;
    if (!courseCache.has(hit.course_id)) courseCache.set(hit.course_id, courseById(db, hit.course_id));
    const course = courseCache.get(hit.course_id);
    if (!course?.sequentialLessons) return hit;
    const lesson = preparedOnce(db, "learning.lesson", () =>
      db
        .select()
        .from(lessons)
        .where(eq(lessons.id, sql.placeholder("id")))
        .prepare(),
    ).get({ id: hit.id });
    return lesson && lessonAccess(db, viewer, course, lesson).allowed ? hit : { ...hit, snippet: "", seconds: null };
  });
}
