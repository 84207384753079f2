import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { organizationView, searchOrganizations } from "~/models/organization.server";
import { apiInvalid, apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { requireApiSuperAdmin } from "~/kernel/platform-api.server";

export const querySchema = pageSchema.extend({ q: z.string().trim().min(1).max(200) });

/** `GET /api/organizations/search?q=` (super-admin): by name or host. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireApiSuperAdmin(request, context);
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  const all = searchOrganizations(context.platform.db, query.data.q);
  const p = { page: query.data.page, perPage: query.data.per_page };
  const items = all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map((o) => organizationView(o, context.platform.originFor(o)));
  return apiOk(paginated(items, all.length, p));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
