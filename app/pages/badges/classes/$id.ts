import type { LoaderFunctionArgs } from "@remix-run/node";
import { badgeClass, getBadgeClass } from "~/models/open-badges.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Public: a badge's Open Badges 2.0 BadgeClass. */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { db, organization } = requireOrganization(context);
  const badge = /^\d{1,15}$/.test(params.id ?? "") ? getBadgeClass(db, Number(params.id)) : undefined;
  if (!badge) throw new Response("Not Found", { status: 404 });
  return Response.json(badgeClass(context.platform.originFor(organization), badge), {
    headers: { "Content-Type": "application/ld+json; charset=utf-8", "Access-Control-Allow-Origin": "*" },
  });
}
