import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { markPlayerInstructionsShown } from "~/models/user.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { safeRedirectPath } from "~/utils/redirect";

/**
 * `POST /api/player-window` (spec §7): the player's instructions have been shown to the caller. A form
 * post from the page (with `redirectTo`) goes back to the page; other callers get the envelope.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  if (!auth.person) return apiNotFound(request, context);
  markPlayerInstructionsShown(context.db, auth.person.id);
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("form")) {
    const back = (await request.formData()).get("redirectTo");
    if (typeof back === "string" && back) return redirect(safeRedirectPath(back));
  }
  return apiOk({ shown: true });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
