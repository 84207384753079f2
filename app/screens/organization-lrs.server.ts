import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createXapiCredential, DEFAULT_CREDENTIAL_DAYS, MAX_CREDENTIAL_DAYS, revokeXapiCredential } from "~/models/xapi/credentials.server";
import { lrsCredentialList } from "~/models/xapi/credential-list.server";
import { LRS_CREDENTIAL_LIST } from "~/models/forms/lrs-credential-list";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { xapiCredentialFormSchema } from "~/models/forms/xapi-credentials";
import { organizationHost } from "~/models/organization.server";
import { parseForm } from "~/utils/form";
import { redirectWithFlash } from "~/utils/flash.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { readForm } from "~/utils/form-data.server";
import { xapiCredentialLacks } from "~/access/xapi";

/**
 * The organization's Learning Record Store (issue 47; docs/decisions/043-learning-record-store.md): its address,
 * its credentials (listed with their last use, searched, filtered, sorted and paged from the address as every
 * management list is (issue 50); made with a name, a scope, a version and a lifetime, the secret shown once;
 * revoked), and a way to its statements.
 */
const createSchema = xapiCredentialFormSchema(MAX_CREDENTIAL_DAYS, DEFAULT_CREDENTIAL_DAYS);

/** The LRS's address: the organization's own host in the dashboard, its host name from the registry in the admin area. */
function endpointOf(request: Request, { area, organization }: Managed, platformDomain: string) {
  const url = new URL(request.url);
  const host = area === "dashboard" ? url.host : (organizationHost(organization, platformDomain) ?? url.host);
  return `${url.protocol}//${host}/xapi/`;
}

export function lrsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:xapi" }, (managed) => {
      const { query, errors } = parseListQuery(new URL(request.url), LRS_CREDENTIAL_LIST);
      const list = lrsCredentialList(managed.db, query);
      return {
        endpoint: endpointOf(request, managed, context.platform.config.PLATFORM_DOMAIN),
        base: managed.base,
        list: `${managed.base}/lrs`,
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, LRS_CREDENTIAL_LIST),
        locale: dateLocaleFor(managed.viewer),
        credentials: list.rows,
        maxDays: MAX_CREDENTIAL_DAYS,
        defaultDays: DEFAULT_CREDENTIAL_DAYS,
      };
    });
}

export function lrsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:xapi" }, async ({ db, viewer, base }) => {
      const formData = await readForm(request, context);
      if (formData.get("intent") === "revoke") {
        revokeXapiCredential(db, Number(formData.get("id")));
        // Back to the view the credential was revoked from (its search, filters, sort and page).
        const { query } = parseListQuery(new URL(request.url), LRS_CREDENTIAL_LIST);
        return redirectWithFlash(`${base}/lrs${listSearch(query, LRS_CREDENTIAL_LIST)}`, "lrs.flash.revoked");
      }
      const submission = parseForm(formData, createSchema);
      if (submission.status !== "success") return json({ made: null, result: submission.reply() }, { status: 400 });
      const lacks = xapiCredentialLacks(viewer.capabilities, submission.value.scope);
      if (lacks.length)
        return json({ made: null, result: submission.reply({ formErrors: ["api.beyondOwnCapabilities"] }) }, { status: 400 });
      const made = createXapiCredential(db, {
        name: submission.value.name,
        scope: submission.value.scope,
        version: submission.value.version,
        days: submission.value.days,
        // A super-admin's credential belongs to the organization.
        userId: area === "admin" ? null : viewer.person.id,
      });
      if ("error" in made) return json({ made: null, result: submission.reply({ formErrors: ["validation.required"] }) }, { status: 400 });
      return json({ made: { key: made.key, secret: made.secret }, result: submission.reply({ resetForm: true }) });
    });
}
