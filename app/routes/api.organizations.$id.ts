import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { currentSettings, deleteOrganization, getOrganization, hostConflicts, organizationSettingsSchema, organizationView, updateOrganization } from "~/models/organization.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiSuperAdmin } from "~/kernel/platform-api.server";

function find(context: LoaderFunctionArgs["context"], id: string | undefined) {
  const n = Number(id);
  return Number.isSafeInteger(n) && n > 0 ? getOrganization(context.platform.db, n) : undefined;
}

/** `GET /api/organizations/{id}` (super-admin). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireApiSuperAdmin(request, context);
  const organization = find(context, params.id);
  return organization ? apiOk(organizationView(organization, context.platform.originFor(organization))) : apiNotFound(request, context);
}

/** A PUT names any of the settings (checked with organizationSettingsSchema once merged with the stored ones). */
export const settingsBody = z.record(z.unknown());

/** `PUT /api/organizations/{id}` (all settings) and `DELETE` (the folder is moved aside, not destroyed). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["GET", "PUT", "DELETE"]);
  await requireApiSuperAdmin(request, context);
  const organization = find(context, params.id);
  if (!organization) return apiNotFound(request, context);
  if (request.method === "DELETE") {
    context.platform.tenants.discard(organization.id);
    deleteOrganization(context.platform.db, { dataDir: context.platform.dataDir }, organization.id);
    context.platform.organizations.invalidate();
    return apiOk({ id: organization.id, deleted: true });
  }
  // A PUT changes what it names and keeps the rest: settings as stored, overlaid with the body (which may
  // use the names GET answers with, such as two_factor_required and featured_course).
  const raw = await parseApiBody(request, context, settingsBody);
  const aliases: Record<string, string> = { two_factor_required: "twoFactorRequired", featured_course: "featuredCourse" };
  const given = Object.fromEntries(Object.entries(raw).map(([k, v]) => [aliases[k] ?? k, v]));
  const merged = { ...currentSettings(organization), ...given };
  const parsed = organizationSettingsSchema.safeParse(merged);
  if (!parsed.success) return apiInvalid(request, context, parsed.error);
  const body = parsed.data;
  const conflicts = hostConflicts(context.platform.db, context.platform.platformDomain, body, organization.id);
  if (Object.keys(conflicts).length) {
    const t = await apiT(request, context);
    const fields = Object.fromEntries(Object.entries(conflicts).map(([k, v]) => [k, v.map((m) => t(m))]));
    return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
  }
  const updated = updateOrganization(context.platform.db, organization.id, body);
  context.platform.organizations.invalidate();
  return apiOk(organizationView(updated!, context.platform.originFor(updated!)));
}
