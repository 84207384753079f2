import { z } from "zod";
import { may } from "~/access/rules";
import { courseView as courseReply } from "~/models/course.server";
import { getFile } from "~/models/file.server";
import { lessonAccess } from "~/access/courses";
import { isBookmarked, listBookmarks, setBookmark } from "~/models/bookmarks.server";
import { canWatchFile, findCourse } from "~/models/course-lookup.server";
import { recordHeartbeatInBatch } from "~/models/heartbeat.server";
import { completeLesson, listOwnProgress, recentCourses } from "~/models/learning.server";
import { search } from "~/models/search.server";
import { getLesson } from "~/models/lesson.server";
import { attemptView as scormReply, commitAttempt, getAttempts, getPackage, lessonTracking } from "~/models/scorm.server";
import { markPlayerInstructionsShown } from "~/models/user.server";
import { apiError, apiNotFound, apiT, parseApiBody } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { redirect } from "~/utils/redirect";
import { call, E, guarded, id, isoDate, page, signedUrl, type ApiCall } from "../contract.server";
import { courseView } from "./courses.server";
import {
  courseProgressExample,
  courseProgressReply,
  courseProgressView,
  progressExample,
  progressReplies,
  progressView,
} from "./progress-views.server";

/** The learner's own calls: bookmarks, progress (the player's heartbeat), search, videos and SCORM tracking. */
const stamp = "2026-05-04T09:30:00.000Z";
const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };

/** The player page's form post without JavaScript: the page to go back to (a path on this site: app/utils/redirect.ts). */
const playerWindowForm = z.object({ redirectTo: z.string().optional() });
export const bookmarkBody = z.object({ course_id: z.number().int().positive() });
export const heartbeatBody = z.object({
  lesson_id: z.number().int().positive(),
  position_seconds: z.number().min(0).max(1_000_000).default(0),
  watched_seconds: z.number().min(0).max(1_000_000).default(0),
  completed: z.boolean().optional(),
});
export const searchQuery = pageSchema.extend({ q: z.string().trim().min(1).max(200) });
export const scormQuery = z.object({ lesson_id: z.string().regex(/^\d+$/) });
export const scormBody = z.object({
  lesson_id: z.number().int().positive(),
  sco_id: z.string().min(1).max(4000),
  cmi: z.record(z.unknown()),
  terminate: z.boolean().default(false),
  /** Optional; when given it must be the caller: a commit for another learner's attempt is refused. */
  user_id: z.number().int().positive().optional(),
});

/** How long a video address works: long enough for a feature-length lesson with pauses. */
const VIDEO_TTL_SECONDS = 6 * 3600;

const scormAttempt = z.object({
  id,
  lesson_id: id,
  sco_id: z.string(),
  version: z.string(),
  completion_status: z.string().nullable(),
  success_status: z.string().nullable(),
  completed: z.boolean(),
  score: z.object({ raw: z.number().nullable(), min: z.number().nullable(), max: z.number().nullable(), scaled: z.number().nullable() }),
  total_seconds: z.number(),
  updated_at: isoDate,
});
const scormExample = {
  id: 2,
  lesson_id: 33,
  sco_id: "item_1",
  version: "1.2",
  completion_status: "completed",
  success_status: null,
  completed: true,
  score: { raw: 80, min: 0, max: 100, scaled: null },
  total_seconds: 300,
  updated_at: stamp,
};

const learner = "learn:course" as const;

export const learningCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/bookmarks",
    tag: "Learning",
    summary: "My bookmarked courses",
    access: learner,
    reply: page(z.object({ course_id: id, course: courseView, created_at: isoDate })),
    errors: guarded(),
    example: { reply: { data: [], meta: { current_page: 1, per_page: 1, total: 0, last_page: 1 } } },
    handler: ({ request, context, viewer }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const items = listBookmarks(db, viewer).map((b) => ({
        course_id: b.course.id,
        course: courseReply(b.course),
        created_at: b.createdAt.toISOString(),
      }));
      return paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) });
    },
  }),
  call({
    method: "POST",
    path: "/api/bookmarks",
    tag: "Learning",
    summary: "Bookmark a published course",
    access: learner,
    body: bookmarkBody,
    reply: z.object({ course_id: id, bookmarked: z.literal(true) }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: { body: { course_id: 7 }, reply: { course_id: 7, bookmarked: true } },
    handler: ({ request, context, viewer, body }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      if (!findCourse(db, viewer, body.course_id)) return apiNotFound(request, context);
      setBookmark(db, viewer.person.id, body.course_id, true);
      return { course_id: body.course_id, bookmarked: true };
    },
  }),
  call({
    method: "DELETE",
    path: "/api/bookmarks/{id}",
    tag: "Learning",
    summary: "Remove my bookmark of a course",
    description: "`id` is the course's id.",
    access: learner,
    reply: z.object({ course_id: id, bookmarked: z.literal(false) }),
    errors: guarded(),
    example: { reply: { course_id: 7, bookmarked: false } },
    handler: ({ request, context, params, viewer }) => {
      const db = context.db!;
      const courseId = Number(params.id);
      if (!viewer.person || !Number.isSafeInteger(courseId) || !isBookmarked(db, viewer.person.id, courseId))
        return apiNotFound(request, context);
      setBookmark(db, viewer.person.id, courseId, false);
      return { course_id: courseId, bookmarked: false };
    },
  }),
  call({
    method: "GET",
    path: "/api/lesson-progresses",
    tag: "Learning",
    summary: "My lesson progress",
    description: "Newest first, each with its lesson `state`; SCORM lessons carry their tracking in `scorm`.",
    access: learner,
    query: pageSchema,
    reply: page(progressView.extend({ scorm: z.unknown() })),
    errors: guarded(E.invalid),
    example: { reply: { data: [{ ...progressExample, scorm: null }], meta: meta1 } },
    // Never anyone else's; SCORM lessons carry their tracking (status, score, time; docs/decisions/020-scorm.md).
    handler: ({ request, context, viewer, query }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const p = { page: query.page, perPage: query.per_page };
      const { items, total } = listOwnProgress(db, viewer.person.id, p);
      return paginated(
        progressReplies(db, viewer.person.id, items).map((row) => ({
          ...row,
          scorm: lessonTracking(db, viewer.person!.id, row.lesson_id),
        })),
        total,
        p,
      );
    },
  }),
  call({
    method: "POST",
    path: "/api/lesson-progresses",
    tag: "Learning",
    summary: "Player heartbeat",
    description:
      "Records position and watch time; the time credited never exceeds the wall-clock time since the previous heartbeat. `completed: true` completes the lesson (not quiz lessons: pass the quiz; not SCORM, xAPI or cmi5 lessons: their package completes them).",
    access: learner,
    body: heartbeatBody,
    reply: progressView.extend({ credited_seconds: z.number(), course_completed: z.boolean() }),
    errors: guarded(
      E.invalid,
      E.invalidBody,
      { status: 403, code: "previous_lessons", when: "the caller may not open the lesson yet (also `prerequisite`, `limited`, `login`)" },
      { status: 422, code: "quiz_lesson", when: "a quiz lesson is completed by passing its quiz" },
      { status: 422, code: "package_lesson", when: "a SCORM, xAPI or cmi5 lesson is completed by its package, as it is taken" },
    ),
    example: {
      body: { lesson_id: 31, position_seconds: 120, watched_seconds: 118 },
      reply: { ...progressExample, credited_seconds: 15, course_completed: false },
    },
    handler: async ({ request, context, viewer, body }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const lesson = getLesson(db, body.lesson_id);
      const course = lesson ? findCourse(db, viewer, lesson.courseId) : undefined;
      if (!lesson || !course) return apiNotFound(request, context);
      const access = lessonAccess(db, viewer, course, lesson);
      if (!access.allowed) {
        const t = await apiT(request, context);
        return apiError(403, { message: t(`access.${access.reason}`), code: access.reason });
      }
      if (body.completed && lesson.kind === "quiz") {
        // A quiz lesson is completed only by passing its quiz (POST /api/quizzes/submissions/end/{id}).
        const t = await apiT(request, context);
        return apiError(422, {
          message: t("quiz.refusal.complete_by_passing"),
          code: "quiz_lesson",
          fields: { completed: [t("quiz.refusal.complete_by_passing")] },
        });
      }
      if (body.completed && (lesson.kind === "scorm" || lesson.kind === "package")) {
        // Completed by its package (app/models/scorm*, app/models/packages/), as the lesson page refuses it too.
        const t = await apiT(request, context);
        const message = t("packages.player.completeByPackage");
        return apiError(422, { message, code: "package_lesson", fields: { completed: [message] } });
      }
      // Committed together with the other heartbeats of this moment (db/group-commit.ts); answered once durable.
      const { progress, credited } = await recordHeartbeatInBatch(db, {
        userId: viewer.person.id,
        lesson,
        positionSeconds: body.position_seconds,
        watchedSeconds: body.watched_seconds,
      });
      const completion = body.completed ? completeLesson(db, { userId: viewer.person.id, lesson }) : { courseCompleted: false };
      const view = progressReplies(db, viewer.person.id, [progress])[0];
      return {
        ...view,
        completed: body.completed ? true : view.completed,
        state: body.completed ? ("completed" as const) : view.state,
        credited_seconds: credited,
        course_completed: completion.courseCompleted,
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/lesson-progresses/courses",
    tag: "Learning",
    summary: "My progress in each course I started",
    access: learner,
    reply: page(courseProgressView.extend({ title: z.string() })),
    errors: guarded(),
    example: { reply: { data: [{ ...courseProgressExample, title: "Safety basics" }], meta: meta1 } },
    handler: ({ request, context, viewer }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const personId = viewer.person.id;
      const items = recentCourses(db, viewer, 100).map(({ course }) => {
        const { lesson_progress: _lp, ...summary } = courseProgressReply(db, personId, course.id);
        return { ...summary, title: course.title };
      });
      return paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) });
    },
  }),
  call({
    method: "GET",
    path: "/api/lesson-progresses/course/{id}",
    tag: "Learning",
    summary: "My progress in one course",
    access: learner,
    reply: courseProgressView.extend({ lesson_progress: z.array(progressView) }),
    errors: guarded(),
    example: { reply: { ...courseProgressExample, lesson_progress: [progressExample] } },
    handler: ({ request, context, params, viewer }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const course = findCourse(db, viewer, Number(params.id) || -1);
      if (!course) return apiNotFound(request, context);
      return courseProgressReply(db, viewer.person.id, course.id);
    },
  }),
  call({
    method: "GET",
    path: "/api/search",
    tag: "Learning",
    summary: "Search courses, lessons, materials and words spoken in videos",
    description:
      "Ranked hits among what the caller may see. A `transcript` hit is a lesson whose captions hold the words, with `seconds`: the moment they are spoken (the lesson page takes it as `?t=`).",
    access: "read:course",
    query: searchQuery,
    reply: page(
      z.object({
        kind: z.enum(["course", "lesson", "material", "transcript"]),
        id,
        course_id: id,
        title: z.string(),
        snippet: z.string(),
        seconds: z.number().int().nullable(),
      }),
    ),
    errors: guarded(E.invalid),
    example: {
      query: { q: "first aid" },
      reply: {
        data: [
          { kind: "lesson", id: 31, course_id: 7, title: "First aid", snippet: "…the first aid kit…", seconds: null },
          { kind: "transcript", id: 32, course_id: 7, title: "Burns", snippet: "…where the first aid kit hangs…", seconds: 74 },
        ],
        meta: meta1,
      },
    },
    handler: ({ context, viewer, query }) => {
      const p = { page: query.page, perPage: query.per_page };
      const { items, total } = search(context.db!, viewer, query.q, { limit: p.perPage, offset: (p.page - 1) * p.perPage });
      return paginated(items, total, p);
    },
  }),
  call({
    method: "POST",
    path: "/api/player-window",
    tag: "Learning",
    summary: "The player's instructions were shown",
    description: "A form post with `redirectTo` goes back to that page instead.",
    access: learner,
    reply: z.object({ shown: z.literal(true) }),
    errors: guarded(E.invalid, E.invalidBody),
    example: { reply: { shown: true } },
    // A form post from the page (with `redirectTo`, without JavaScript) goes back to the page; a body that
    // cannot be read is refused (422 in the envelope) before anything is marked.
    handler: async ({ request, context, viewer }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const isForm = (request.headers.get("Content-Type") ?? "").includes("form");
      const back = isForm ? (await parseApiBody(request, context, playerWindowForm)).redirectTo : undefined;
      markPlayerInstructionsShown(db, viewer.person.id);
      if (back) return redirect(back);
      return { shown: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/cdn/video/{id}",
    tag: "Files",
    summary: "A signed address for a lesson video",
    description: "Works for six hours; for the videos of lessons the caller may open (or anything with read:file).",
    access: learner,
    reply: signedUrl.extend({ mime: z.string(), size: z.number().int() }),
    errors: guarded(),
    example: {
      reply: {
        url: "http://acme.localhost:3000/files/12/video.mp4?expires=1767225600&sig=…",
        expires_at: stamp,
        mime: "video/mp4",
        size: 1048576,
      },
    },
    // A signed address that serves the video with range requests (seeking) until it expires.
    handler: ({ request, context, params, viewer }) => {
      const organization = context.organization!;
      const db = context.db!;
      const file = /^\d{1,15}$/.test(params.id) ? getFile(db, Number(params.id)) : undefined;
      if (!file || file.kind !== "video") return apiNotFound(request, context);
      if (!may(viewer, "read:file") && !canWatchFile(db, viewer, file.id)) return apiNotFound(request, context);
      const { url, expires } = context.platform.signFileUrl(organization.id, file, VIDEO_TTL_SECONDS, 60);
      return {
        url: `${context.platform.originFor(organization)}${url}`,
        expires_at: new Date(expires * 1000).toISOString(),
        mime: file.mime,
        size: file.size,
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/scorm-attempts",
    tag: "Learning",
    summary: "My SCORM attempts of a lesson",
    description: "Query `lesson_id`: one attempt per SCO.",
    access: learner,
    query: scormQuery,
    reply: z.array(scormAttempt),
    errors: guarded(),
    example: { query: { lesson_id: "33" }, reply: [scormExample] },
    handler: ({ request, context, viewer, query }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const lessonId = Number(query.lesson_id);
      const lesson = Number.isSafeInteger(lessonId) && lessonId > 0 ? getLesson(db, lessonId) : undefined;
      const course = lesson ? findCourse(db, viewer, lesson.courseId) : undefined;
      if (!lesson || !course || !lessonAccess(db, viewer, course, lesson).allowed) return apiNotFound(request, context);
      return getAttempts(db, viewer.person.id, lesson.id).map(scormReply);
    },
  }),
  call({
    method: "POST",
    path: "/api/scorm-attempts",
    tag: "Learning",
    summary: "Commit SCORM runtime data for one SCO",
    description: '`cmi` is flattened (`{"cmi.suspend_data": "…"}`) and checked against the SCORM data model.',
    access: learner,
    body: scormBody,
    reply: scormAttempt.extend({ lesson_completed: z.boolean(), course_completed: z.boolean() }),
    errors: guarded(
      E.invalid,
      E.invalidBody,
      { status: 422, code: "unknown_sco", when: "the package has no such SCO" },
      {
        status: 409,
        code: "stale",
        when: "the launch belongs to an attempt that has ended since (a renewal of the course started it again): reload",
      },
      { status: 403, code: "limited", when: "the caller may no longer open the lesson (also `prerequisite`, `previous_lessons`, `login`)" },
    ),
    example: {
      body: {
        lesson_id: 33,
        sco_id: "item_1",
        cmi: { "cmi.core.lesson_status": "completed", "cmi.core.score.raw": "80" },
        terminate: true,
      },
      reply: { ...scormExample, lesson_completed: true, course_completed: false },
    },
    handler: async ({ request, context, viewer, body }) => {
      const db = context.db!;
      if (!viewer.person) return apiNotFound(request, context);
      const t = await apiT(request, context);
      if (body.user_id !== undefined && body.user_id !== viewer.person.id)
        return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
      const lesson = getLesson(db, body.lesson_id);
      const course = lesson ? findCourse(db, viewer, lesson.courseId) : undefined;
      const pkg = lesson && course ? getPackage(db, lesson.id) : undefined;
      if (!lesson || !course || !pkg) return apiNotFound(request, context);
      const access = lessonAccess(db, viewer, course, lesson);
      if (!access.allowed) return apiError(403, { message: t(`access.${access.reason}`), code: access.reason });
      const result = commitAttempt(db, {
        userId: viewer.person.id,
        lesson,
        pkg,
        scoId: body.sco_id,
        cmi: body.cmi,
        terminate: body.terminate,
      });
      if (!result.ok) {
        if (result.problem === "stale") return apiError(409, { message: t("scorm.api.stale"), code: "stale" });
        if (result.problem === "unknown_sco")
          return apiError(422, {
            message: t("scorm.api.unknownSco"),
            code: "unknown_sco",
            fields: { sco_id: [t("scorm.api.unknownSco")] },
          });
        const fields: Record<string, string[]> = {};
        for (const p of result.problems) (fields[`cmi.${p.element}`] ??= []).push(t(`scorm.api.${p.problem}`));
        return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
      }
      return { ...scormReply(result.attempt), lesson_completed: result.lessonCompleted, course_completed: result.courseCompleted };
    },
  }),
];
