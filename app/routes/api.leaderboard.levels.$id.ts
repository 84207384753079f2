import { levelResource } from "~/models/level-resource.server";
import { itemRoute } from "~/kernel/resource.server";

/** `GET`, `PUT`, `DELETE /api/leaderboard/levels/{id}`. */
export const { loader, action } = itemRoute(levelResource);
