import type { LoaderFunctionArgs } from "@remix-run/node";
import { attachAction } from "~/api/groups.server";
import { apiMethodNotAllowed } from "~/utils/api.server";

/** Spec §7 `POST groups/{id}/attach` (body: attachSchema in app/models/group.server.ts). */
export const loader = ({ request, context }: LoaderFunctionArgs) => apiMethodNotAllowed(request, context, ["POST"]);
export const action = attachAction;
