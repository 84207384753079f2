import type { LoaderFunctionArgs } from "@remix-run/node";
import { createGroupAction, listGroupsLoader } from "~/api/groups.server";

/** Spec §7 "Groups": `GET groups` (read:group; group admins see their own) and `POST groups` (organization admins). */
export const loader = (args: LoaderFunctionArgs) => listGroupsLoader(args);
export const action = createGroupAction;
