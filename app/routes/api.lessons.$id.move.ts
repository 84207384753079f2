import { moveLesson } from "~/models/lesson.server";
import { moveRoute } from "~/kernel/resource.server";

/** `POST /api/lessons/{id}/move {position}|{direction}`: within its course. */
export const { loader, action } = moveRoute("write:course", (scope, id, to) => moveLesson(scope.db, id, to));
