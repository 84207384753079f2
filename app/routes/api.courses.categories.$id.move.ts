import { moveCategory } from "~/models/category.server";
import { moveRoute } from "~/kernel/resource.server";

/** `POST /api/courses/categories/{id}/move {position}|{direction}`. */
export const { loader, action } = moveRoute("write:category", (db, _viewer, id, to) => moveCategory(db, id, to));
