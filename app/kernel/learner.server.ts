import type { AppLoadContext } from "@remix-run/node";
import type { Learner } from "../models/learning.server";
import { getAuth } from "./auth.server";
import { requireOrganization } from "../utils/tenant.server";

/**
 * The learner pages' view of who is asking: anyone may look at a published course; signed-in people of
 * the organization (with a confirmed code) may take it; those who may write courses may preview drafts.
 */
export async function learnerContext(request: Request, context: AppLoadContext) {
  const { organization, db } = requireOrganization(context);
  const auth = await getAuth(request, context);
  const signedIn = auth?.person && auth.role && !auth.session?.twoFactorPending ? auth : null;
  const learner: Learner | null = signedIn?.person ? { id: signedIn.person.id, canPreview: signedIn.capabilities.has("write:course") } : null;
  return { organization, db, auth: signedIn, learner };
}
