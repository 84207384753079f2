import type { LoaderFunctionArgs } from "@remix-run/node";
import { assertion } from "~/models/open-badges.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Public: an earned badge as an Open Badges 2.0 Assertion (hosted verification). */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { db, organization } = requireOrganization(context);
  const body = assertion(db, context.platform.originFor(organization), params.uid ?? "");
  if (!body) throw new Response("Not Found", { status: 404 });
  return Response.json(body, { headers: { "Content-Type": "application/ld+json; charset=utf-8", "Access-Control-Allow-Origin": "*" } });
}
