import { moveCourse } from "~/models/course.server";
import { moveRoute } from "~/kernel/resource.server";

/** `POST /api/courses/{id}/move {position}|{direction}`. */
export const { loader, action } = moveRoute("write:course", (db, _viewer, id, to) => moveCourse(db, id, to));
