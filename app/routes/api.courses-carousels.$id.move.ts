import { moveCarousel } from "~/models/carousel.server";
import { moveRoute } from "~/kernel/resource.server";

/** `POST /api/courses-carousels/{id}/move {position}|{direction}`. */
export const { loader, action } = moveRoute("write:carousel", (db, _viewer, id, to) => moveCarousel(db, id, to));
