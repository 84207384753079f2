import type { AppLoadContext } from "@remix-run/node";
import { requireOrganization } from "../utils/tenant.server";
import { signedInViewer } from "./auth.server";

/**
 * The learner pages' request: an organization's host, its database, and the viewer. Anyone may look at a
 * published course; what the viewer may open is for app/access/courses.ts to say. `person` is the
 * signed-in person (code confirmed, a role here), or null.
 */
export function learnerContext(_request: Request, context: AppLoadContext) {
  const { organization, db } = requireOrganization(context);
  const signedIn = signedInViewer(context);
  return { organization, db, viewer: context.viewer, person: signedIn?.person ?? null };
}
