import type { AppLoadContext } from "@remix-run/node";

/** Throws the 404 page when the request is not on an organization's host (e.g. the platform host). */
export function requireOrganization(context: AppLoadContext) {
  const { organization, db } = context;
  if (!organization || !db) {
    throw new Response("Not Found", { status: 404 });
  }
  return { organization, db };
}
