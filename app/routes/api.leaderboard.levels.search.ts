import { levelResource } from "~/models/level-resource.server";
import { searchRoute } from "~/kernel/resource.server";

/** `GET /api/leaderboard/levels/search?q=`. */
export const { loader, action } = searchRoute(levelResource);
