import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listOrganizations } from "~/models/organization.server";
import { apiMethodNotAllowed } from "~/utils/api.server";
import { csvResponse, toCsv } from "~/utils/csv.server";
import { requireApiSuperAdmin } from "~/kernel/platform-api.server";

/** `GET /api/organizations/export` (super-admin): CSV, formula-looking cells neutralised. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireApiSuperAdmin(request, context);
  const rows = listOrganizations(context.platform.db).map((o) => [
    o.id,
    o.name,
    context.platform.originFor(o),
    o.urlPrefix,
    o.domain,
    o.customDomain,
    o.language,
    o.createdAt.toISOString(),
  ]);
  return csvResponse("organizations.csv", toCsv(["id", "name", "url", "urlPrefix", "domain", "customDomain", "language", "created_at"], rows));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
