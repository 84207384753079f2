import { moveCourse } from "~/models/course.server";
import { moveRoute } from "~/kernel/resource.server";

/** `POST /api/courses/{id}/move {position}|{direction}`. */
export const { loader, action } = moveRoute("write:course", (scope, id, to) => moveCourse(scope.db, id, to));
