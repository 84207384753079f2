import type { LoaderFunctionArgs } from "@remix-run/node";
import { issuerProfile } from "~/models/open-badges.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Public: the organization as an Open Badges 2.0 Issuer. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { organization } = requireOrganization(context);
  const origin = context.platform.originFor(organization);
  return Response.json(issuerProfile(origin, organization.name), {
    headers: { "Content-Type": "application/ld+json; charset=utf-8", "Access-Control-Allow-Origin": "*" },
  });
}
