import { z } from "zod";
import { lessonResource, moveLesson } from "~/models/lesson.server";
import { materialResource } from "~/models/material.server";
import { id, isoDate, type ApiCall } from "../contract.server";
import { moveCall, resourceCalls } from "../resource.server";

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
};

export const lessonCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/lessons",
    tag: "Lessons",
    noun: "lesson",
    view: lessonView,
    resource: lessonResource,
    filters: "`course_id` narrows the list to one course.",
    createExample: { course_id: 7, title: "Welcome", kind: "text", body: "<p>Hello!</p>" },
    updateExample: { title: "Welcome aboard" },
    replyExample: lessonExample,
  }),
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
