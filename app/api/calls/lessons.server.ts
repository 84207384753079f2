import { z } from "zod";
import { lessonResource, moveLesson } from "~/models/lesson.server";
import { materialResource } from "~/models/material.server";
import { tracksOfLessons } from "~/models/captions.server";
import { trackReplies } from "~/kernel/captions.server";
import { apiOk } from "~/utils/api.server";
import { id, isoDate, type ApiCall } from "../contract.server";
import { moveCall, resourceCalls } from "../resource.server";
import { trackExample, trackView } from "./captions.server";
import { scormPackageCalls, withScormPackages } from "./lesson-packages.server";
import { packageCalls } from "./packages.server";

/** A course's lessons and materials (docs/product.md §7 "lessons", "materials"). */
const nullableId = id.nullable();

export const lessonView = z.object({
  id,
  course_id: id,
  title: z.string(),
  kind: z.string(),
  body: z.string(),
  file_id: nullableId,
  video_url: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  position: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
});
/** The lesson calls' lesson: with its caption tracks and their signed addresses (issue 35); none for a lesson the caller may not open. */
const lessonWithTracks = lessonView.extend({ tracks: z.array(trackView) });

const materialView = z.object({ id, course_id: id, file_id: id, title: z.string(), position: z.number().int(), created_at: isoDate });

const stamp = { created_at: "2026-05-04T09:30:00.000Z", updated_at: "2026-05-04T09:30:00.000Z" };

const lessonExample = {
  id: 31,
  course_id: 7,
  title: "Welcome",
  kind: "text",
  body: "<p>Hello!</p>",
  file_id: null,
  video_url: null,
  duration_seconds: null,
  position: 0,
  ...stamp,
  tracks: [{ ...trackExample, lesson_id: 31 }],
};

type LessonReply = { id: number; locked?: boolean; tracks?: unknown };

/**
 * The lesson calls' replies with each lesson's caption tracks (docs/decisions/036-captions.md), signed here
 * as the video is: the resource's model lists lessons; the tracks of a locked lesson are left out.
 */
function withTracks(call: ApiCall): ApiCall {
  if (call.method === "DELETE") return call;
  const handler = call.handler;
  return {
    ...call,
    handler: async (args) => {
      const answered = (await handler(args)) as unknown;
      // A write's reply is already in its envelope (app/api/resource.server.ts): its lesson is read back out.
      const enveloped = answered instanceof Response && answered.ok;
      const result = enveloped ? ((await answered.clone().json()) as { payload: unknown }).payload : answered;
      if (result instanceof Response || !result || typeof result !== "object") return answered;
      const { context } = args;
      const items: LessonReply[] = "data" in result ? (result as { data: LessonReply[] }).data : [result as LessonReply];
      const byLesson = tracksOfLessons(
        context.db!,
        items.filter((l) => !l.locked).map((l) => l.id),
      );
      for (const lesson of items)
        lesson.tracks = lesson.locked ? [] : trackReplies(context, context.organization!, context.db!, byLesson.get(lesson.id) ?? []);
      return enveloped ? apiOk(result, (answered as Response).status) : result;
    },
  };
}

export const lessonCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/lessons",
    tag: "Lessons",
    noun: "lesson",
    view: lessonWithTracks,
    resource: lessonResource,
    filters: "`course_id` narrows the list to one course.",
    createExample: { course_id: 7, title: "Welcome", kind: "text", body: "<p>Hello!</p>" },
    updateExample: { title: "Welcome aboard" },
    replyExample: lessonExample,
  })
    .map(withScormPackages)
    .map(withTracks),
  ...scormPackageCalls,
  ...packageCalls, // xAPI and cmi5 packages (issue 48)
  moveCall("/api/lessons", "Lessons", "lesson", "write:course", " within its course", (db, _viewer, id, to) => moveLesson(db, id, to)),
  ...resourceCalls({
    base: "/api/materials",
    tag: "Materials",
    noun: "material",
    view: materialView,
    resource: materialResource,
    filters: "`course_id` narrows the list to one course.",
    createExample: { course_id: 7, file_id: 12, title: "Checklist (PDF)" },
    updateExample: { title: "Site checklist (PDF)" },
    replyExample: { id: 4, course_id: 7, file_id: 12, title: "Checklist (PDF)", position: 0, created_at: stamp.created_at },
  }),
];
