import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listGroupsLoader } from "~/api/groups.server";
import { apiMethodNotAllowed } from "~/utils/api.server";

/** `GET groups/search?q=` (read:group; group admins search their own groups). */
export const loader = (args: LoaderFunctionArgs) => listGroupsLoader(args, true);
export const action = ({ request, context }: ActionFunctionArgs) => apiMethodNotAllowed(request, context, ["GET"]);
