import { z } from "zod";
import { courseLessons } from "~/models/course-lookup.server";
import { courseProgress, progressView as progressReply } from "~/models/learning.server";
import { LESSON_STATES, lessonStateRows, stateOf, statesOfRows } from "~/models/lesson-state.server";
import { id, isoDate } from "../contract.server";

/**
 * The learner's progress as /api shows it (app/api/calls/learning.server.ts): each progress row, and a
 * course's progress, with the one lesson state of every kind of lesson (issue 45).
 */
const stamp = "2026-05-04T09:30:00.000Z";

/** The one lesson state of every kind of lesson (app/models/lesson-state.server.ts), as the course page shows it. */
const lessonState = z
  .enum(LESSON_STATES)
  .describe(
    "`in_progress` once the lesson is begun in the course's current cycle (a video played, a SCORM package's first commit, a quiz attempt started), `completed` once completed.",
  );
export const progressView = z.object({
  id,
  lesson_id: id,
  course_id: id,
  position_seconds: z.number(),
  watched_seconds: z.number(),
  completed: z.boolean(),
  completed_at: isoDate.nullable(),
  updated_at: isoDate,
  state: lessonState,
});
export const progressExample = {
  id: 40,
  lesson_id: 31,
  course_id: 7,
  position_seconds: 120,
  watched_seconds: 118,
  completed: false,
  completed_at: null,
  updated_at: stamp,
  state: "in_progress" as const,
};

/** Progress rows of one learner with their lesson states. */
export function progressReplies(db: Parameters<typeof statesOfRows>[0], userId: number, rows: Parameters<typeof progressReply>[0][]) {
  const states = statesOfRows(db, userId, rows);
  return rows.map((row, i) => ({ ...progressReply(row), state: states[i] }));
}

/** A course's progress for /api: the counts, and every counted lesson's state in order. */
export function courseProgressReply(db: Parameters<typeof statesOfRows>[0], userId: number, courseId: number) {
  const { lesson_progress: rows, ...summary } = courseProgress(db, userId, courseId);
  const progress = lessonStateRows(db, userId, courseId);
  const states = courseLessons(db, courseId).map((l) => ({ lesson_id: l.id, state: stateOf(progress.get(l.id)) }));
  return {
    ...summary,
    in_progress_lessons: states.filter((s) => s.state === "in_progress").length,
    lesson_states: states,
    lesson_progress: rows.map((row) => ({ ...row, state: stateOf(progress.get(row.lesson_id)) })),
  };
}

export const courseProgressView = z.object({
  course_id: id,
  lessons: z.number().int(),
  completed_lessons: z.number().int(),
  in_progress_lessons: z.number().int(),
  percent: z.number().int().min(0).max(100),
  completed: z.boolean(),
  watched_seconds: z.number(),
  lesson_states: z.array(z.object({ lesson_id: id, state: lessonState })),
});
export const courseProgressExample = {
  course_id: 7,
  lessons: 3,
  completed_lessons: 1,
  in_progress_lessons: 1,
  percent: 33,
  completed: false,
  watched_seconds: 640,
  lesson_states: [
    { lesson_id: 30, state: "completed" as const },
    { lesson_id: 31, state: "in_progress" as const },
    { lesson_id: 32, state: "not_started" as const },
  ],
};
