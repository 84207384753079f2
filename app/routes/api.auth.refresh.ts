import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { refreshSession, SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { requireApiSession , realmFor } from "~/kernel/auth.server";

/** `POST /api/auth/refresh`: a new token for another 30 days; the old one is revoked at once. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const auth = await requireApiSession(request, context);
  // A browser's cookie session is refreshed by signing in; handing its token out as JSON would undo HttpOnly.
  if (auth.via !== "bearer") return apiMethodNotAllowed(request, context, ["POST"]);
  const { token } = refreshSession(realmFor(context), auth.session);
  return apiOk({ token, token_type: "Bearer", expires_in: SESSION_LIFETIME_SECONDS });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
