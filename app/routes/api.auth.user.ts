import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { personView } from "~/models/user.server";
import { apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/utils/auth.server";

/** `POST /api/auth/user` (spec §7; GET answers the same): the person the token belongs to. */
async function currentUser({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  const auth = await requireApiAuth(request, context);
  return apiOk(personView(auth.realm, auth.person, { twoFactorPending: auth.session.twoFactorPending }));
}

export const action = currentUser;
export const loader = currentUser;
