import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { personView } from "~/models/user.server";
import { apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth , realmFor } from "~/kernel/auth.server";

/**
 * `POST /api/auth/user` (spec §7; GET answers the same): the person the session or token belongs to.
 * An organization's own token (made by a super-admin) and a super-admin's platform token have no person
 * in this organization.
 */
async function currentUser({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  const auth = await requireApiAuth(request, context);
  if (!auth.person) return apiNotFound(request, context);
  return apiOk({
    ...personView(realmFor(context), auth.person, { twoFactorPending: auth.session?.twoFactorPending ?? false }),
    type: auth.role,
    capabilities: [...auth.capabilities].sort(),
  });
}

export const action = currentUser;
export const loader = currentUser;
