import { groupItemAction, groupItemLoader } from "~/api/groups.server";

/** `GET groups/{id}` (read:group, scoped), `PUT` and `DELETE groups/{id}` (organization admins). */
export const loader = groupItemLoader;
export const action = groupItemAction;
