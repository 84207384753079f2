import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { revokeSession } from "~/models/auth/session.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { requireApiSession , realmFor } from "~/kernel/auth.server";

/** `POST /api/auth/logout`: revokes the calling token (pending or not). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const auth = await requireApiSession(request, context, { allowPendingTwoFactor: true });
  revokeSession(realmFor(context), auth.session.id);
  return apiOk({ logged_out: true });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
