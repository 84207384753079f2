import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { publicOrganization } from "~/models/organization.server";
import { apiInvalid, apiNotFound, apiOk } from "~/utils/api.server";

export const querySchema = z.object({ domain: z.string().trim().min(1).max(253) });

/** `GET /api/resolve?domain=<host>`: the organization reached on a host, before anyone logs in. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  // Tenancy resolved this request's own host a moment ago; the registry is as current as that.
  const { organization } = context.platform.organizations.lookup(query.data.domain);
  if (!organization) return apiNotFound(request, context);
  return apiOk(publicOrganization(organization, (v) => context.platform.brandingUrl(organization, v, { absolute: true })));
}
