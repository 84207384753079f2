import { levelResource } from "~/models/level-resource.server";
import { collectionRoute } from "~/kernel/resource.server";

/** Spec §7 `leaderboard/levels`: list (read:leaderboard) and create (write:leaderboard). */
export const { loader, action } = collectionRoute(levelResource);
