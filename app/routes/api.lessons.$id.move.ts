import { moveLesson } from "~/models/lesson.server";
import { moveRoute } from "~/kernel/resource.server";

/** `POST /api/lessons/{id}/move {position}|{direction}`: within its course. */
export const { loader, action } = moveRoute("write:course", (db, _viewer, id, to) => moveLesson(db, id, to));
