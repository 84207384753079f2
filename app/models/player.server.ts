import { and, eq, inArray } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { files, type Course, type Lesson } from "../../db/tenant";
import { lessonsAccess } from "../access/courses";
import type { Viewer } from "../access/viewer";
import { lessonStates, type LessonState } from "./lesson-state.server";

/**
 * The course page's and the player's view of a learner's episodes (issue 18): which are completed, which
 * are under way (with the place reached), and which one to watch next. The state is the one lesson state
 * of every kind of lesson (app/models/lesson-state.server.ts, issue 45).
 */
export type EpisodeState = LessonState;

export interface EpisodeProgress {
  state: EpisodeState;
  /** Where the learner stopped, in seconds (0 when not started). */
  positionSeconds: number;
  /**
   * The share of the episode done (0–100): 100 once completed; for one under way, the place reached against
   * the video's length when both are known, else null (a SCORM package, a quiz, a text: under way, no share).
   */
  percent: number | null;
}

/** Each lesson's state for this learner (everything "not_started" for a visitor). */
export function episodeProgress(db: TenantConn, userId: number | null, courseId: number, lessons: Lesson[]): Map<number, EpisodeProgress> {
  const states = lessonStates(db, userId, courseId, lessons);
  return new Map<number, EpisodeProgress>(
    lessons.map((lesson): [number, EpisodeProgress] => {
      const { state, row } = states.get(lesson.id)!;
      if (state === "completed") return [lesson.id, { state, positionSeconds: row!.positionSeconds, percent: 100 }];
      if (state === "in_progress") {
        const position = row!.positionSeconds;
        const measured = lesson.kind === "video" && lesson.durationSeconds && position > 0;
        const percent = measured ? Math.min(99, Math.max(1, Math.round((100 * position) / lesson.durationSeconds!))) : null;
        return [lesson.id, { state, positionSeconds: position, percent }];
      }
      return [lesson.id, { state, positionSeconds: 0, percent: 0 }];
    }),
  );
}

/** The lesson the learner should watch next: the first one not completed, in order; else the first. */
export function nextLesson<L extends { id: number }>(lessons: L[], completed: (lesson: L) => boolean): L | undefined {
  return lessons.find((l) => !completed(l)) ?? lessons[0];
}

/** The sum of the known episode lengths, in seconds (null when none is known). */
export function totalDuration(lessons: Pick<Lesson, "durationSeconds">[]) {
  const known = lessons.filter((l) => l.durationSeconds != null);
  return known.length ? known.reduce((sum, l) => sum + (l.durationSeconds ?? 0), 0) : null;
}

/**
 * The episodes list of the course page and the player, for one viewer: state, length, lock, and a picture
 * (image lessons show their image) only when the viewer may open the lesson — a provider address never
 * expires, so it is not handed to anyone who may not see the lesson.
 */
export function episodeItems(
  db: TenantConn,
  viewer: Viewer,
  { course, lessons, image }: { course: Course; lessons: Lesson[]; image: (fileId: number) => string },
) {
  const progress = episodeProgress(db, viewer.person?.id ?? null, course.id, lessons);
  const fileIds = lessons.filter((l) => l.kind === "image" && l.fileId).map((l) => l.fileId!);
  const images = new Set(
    fileIds.length
      ? db
          .select({ id: files.id })
          .from(files)
          .where(and(inArray(files.id, fileIds), eq(files.kind, "image")))
          .all()
          .map((f) => f.id)
      : [],
  );
  const access = lessonsAccess(db, viewer, course, lessons);
  return lessons.map((l) => {
    const locked = !access.get(l.id)!.allowed;
    const p = progress.get(l.id)!;
    return {
      id: l.id,
      title: l.title,
      kind: l.kind,
      durationSeconds: l.durationSeconds,
      thumbnail: !locked && l.fileId && images.has(l.fileId) ? image(l.fileId) : null,
      state: p.state,
      percent: p.percent,
      positionSeconds: p.positionSeconds,
      locked,
    };
  });
}
