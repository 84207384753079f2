import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { refreshSession, SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/utils/auth.server";

/** `POST /api/auth/refresh`: a new token for another 30 days; the old one is revoked at once. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const auth = await requireApiAuth(request, context);
  const { token } = refreshSession(auth.realm, auth.session);
  return apiOk({ token, token_type: "Bearer", expires_in: SESSION_LIFETIME_SECONDS });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
