import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createOrganizationSchema } from "~/models/forms/organizations";
import { ORGANIZATION_LIST } from "~/models/forms/organization-list";
import { organizationList } from "~/models/organization-list.server";
import { provisionOrganization } from "~/models/provision.server";
import { requireSuperAdmin } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm } from "~/utils/form-data.server";
import { isWholeList, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";

/**
 * The super-admin's organizations (docs/product.md §2): listed with name and address, and since issue 50 searched,
 * filtered, sorted and paged from the address (app/models/organization-list.server.ts: the platform database
 * alone, so a thousand organizations answer as fast as two); created with name and language.
 */
export const ORGANIZATIONS_BASE = "/admin/organizations";

export async function organizationsLoader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireSuperAdmin(request, context);
  const { query, errors } = parseListQuery(new URL(request.url), ORGANIZATION_LIST);
  const list = organizationList(context.platform.db, query);
  return {
    base: ORGANIZATIONS_BASE,
    platformDomain: context.platform.platformDomain,
    query: { ...query, page: list.page },
    errors,
    page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
    filtered: !isWholeList(query, ORGANIZATION_LIST),
    locale: dateLocaleFor(viewer),
    organizations: list.rows.map(({ organization: o, people, courses }) => ({
      id: o.id,
      name: o.name,
      url: context.platform.originFor(o),
      details: {
        language: o.language,
        twoFactor: o.twoFactorRequired,
        createdAt: o.createdAt.toISOString(),
        people,
        courses,
      },
    })),
  };
}

export async function organizationsAction({ request, context }: ActionFunctionArgs) {
  await requireSuperAdmin(request, context);
  const submission = parseForm(await readForm(request, context), createOrganizationSchema);
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const result = await provisionOrganization(context.platform, submission.value);
  if (!result.ok) return json(submission.reply({ fieldErrors: result.fields }), { status: 400 });
  return redirectWithFlash(`${ORGANIZATIONS_BASE}/${result.organization.id}`, "flash.organizationCreated");
}
