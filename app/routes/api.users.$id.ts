import type { ActionFunctionArgs } from "@remix-run/node";
import { userResource, userUpdateSchema, userView } from "~/models/user-resource.server";
import { deleteUser, editUser, getUser } from "~/models/user.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { mayGrant } from "~/utils/capabilities";
import { itemRoute } from "~/kernel/resource.server";

/** `GET users/{id}` (read:user, scoped for group admins). */
export const { loader } = itemRoute(userResource);

/**
 * `PUT users/{id}` (the fields of the reply, by the same names; only those sent change) and
 * `DELETE users/{id}` (write:user). Nobody changes their own role or deletes themselves here: an
 * organization must not lock itself out. A new role must be within the caller's own reach (`mayGrant`).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["GET", "PUT", "DELETE"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "write:user" });
  const user = /^\d{1,15}$/.test(params.id ?? "") ? getUser(context.db, Number(params.id)) : undefined;
  if (!user) return apiNotFound(request, context);
  const t = await apiT(request, context);
  const isSelf = auth.person?.id === user.id;
  if (request.method === "DELETE") {
    if (isSelf) return apiError(403, { message: t("users.cannotDeleteSelf"), code: "self" });
    deleteUser(context.db, user.id);
    return apiOk({ id: user.id, deleted: true });
  }
  const patch = await parseApiBody(request, context, userUpdateSchema);
  const newRole = patch.role !== undefined && patch.role !== user.role;
  if (isSelf && newRole) return apiError(403, { message: t("api.forbidden"), code: "self" });
  if (newRole && !mayGrant(auth, patch.role ?? null)) return apiError(403, { message: t("users.cannotGrantRole"), code: "forbidden" });
  const result = editUser(context.db, user.id, patch);
  if (!result) return apiNotFound(request, context);
  if (!result.ok) {
    const fields = Object.fromEntries(Object.entries(result.fields).map(([k, v]) => [k, v.map((m) => t(m))]));
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
  }
  return apiOk(userView(result.user));
}
