import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { createOrganizationSchema, listOrganizations, organizationView } from "~/models/organization.server";
import { provisionOrganization } from "~/models/provision.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { requireApiSuperAdmin } from "~/kernel/platform-api.server";

export const bodySchema = z.object({
  name: createOrganizationSchema.shape.name,
  language: createOrganizationSchema.shape.language,
  urlPrefix: createOrganizationSchema.shape.urlPrefix,
  admin_email: createOrganizationSchema.shape.adminEmail,
});

/** `GET /api/organizations` (super-admin): every organization, paginated. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireApiSuperAdmin(request, context);
  const page = pageSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!page.success) return apiInvalid(request, context, page.error);
  const all = listOrganizations(context.platform.db);
  const p = { page: page.data.page, perPage: page.data.per_page };
  const items = all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map((o) => organizationView(o, context.platform.originFor(o)));
  return apiOk(paginated(items, all.length, p));
}

/** `POST /api/organizations {name, language, urlPrefix?, admin_email?}`: provisions folder and database. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  await requireApiSuperAdmin(request, context);
  const body = await parseApiBody(request, context, bodySchema);
  const result = await provisionOrganization(context.platform, { ...body, adminEmail: body.admin_email });
  if (!result.ok) {
    const t = await apiT(request, context);
    const fields = Object.fromEntries(Object.entries(result.fields).map(([k, v]) => [k, v.map((m) => t(m))]));
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
  }
  return apiOk(organizationView(result.organization, context.platform.originFor(result.organization)), 201);
}
