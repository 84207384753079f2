import type { ActionFunctionArgs } from "@remix-run/node";
import { inviteUser } from "~/models/provision.server";
import { userCreateSchema, userResource, userView } from "~/models/user-resource.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { mayGrant } from "~/utils/capabilities";
import { collectionRoute } from "~/kernel/resource.server";

/** Spec §7 "Users": `GET users` (read:user, scoped for group admins). */
export const { loader } = collectionRoute(userResource);

/**
 * `POST users {email, type, first_name?, last_name?, phone?, language?}` (write:user): adds the person and
 * mails an invitation to choose a password. `type` (or its older name `role`) is learner, admin or none,
 * and must be within the caller's own reach (`mayGrant`).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.organization || !context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "write:user" });
  const body = await parseApiBody(request, context, userCreateSchema);
  if (!mayGrant(auth, body.role)) {
    const t = await apiT(request, context);
    return apiError(403, { message: t("users.cannotGrantRole"), code: "forbidden" });
  }
  const added = await inviteUser(context.platform, context.db, context.organization, body);
  if (!added.ok) {
    const t = await apiT(request, context);
    const fields = Object.fromEntries(Object.entries(added.fields).map(([k, v]) => [k, v.map((m) => t(m))]));
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
  }
  return apiOk(userView(added.user), 201);
}
