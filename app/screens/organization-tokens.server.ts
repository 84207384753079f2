import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createApiToken, DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, revokeApiToken } from "~/models/auth/api-token.server";
import { tokenList } from "~/models/auth/api-token-list.server";
import { TOKEN_LIST } from "~/models/forms/token-list";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { tokenFormSchema } from "~/models/forms/tokens";
import { parseForm } from "~/utils/form";
import { redirectWithFlash } from "~/utils/flash.server";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { readForm } from "~/utils/form-data.server";

/**
 * An organization's API tokens (docs/product.md §2 admin tab "api"; permissions issue item 3): list with last use,
 * create with a name, capabilities and a lifetime (the secret is shown once), revoke. The list is searched, filtered,
 * sorted and paged from its address (issue 50; app/models/auth/api-token-list.server.ts).
 */
const createSchema = tokenFormSchema(MAX_TOKEN_DAYS, DEFAULT_TOKEN_DAYS);

export function tokensLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:api-token" }, ({ db, viewer, base }) => {
      const { query, errors } = parseListQuery(new URL(request.url), TOKEN_LIST);
      const list = tokenList(db, query);
      return {
        list: `${base}/api`,
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, TOKEN_LIST),
        locale: dateLocaleFor(viewer),
        tokens: list.rows,
        maxDays: MAX_TOKEN_DAYS,
        defaultDays: DEFAULT_TOKEN_DAYS,
      };
    });
}

export function tokensAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:api-token" }, async ({ db, viewer: auth, base }) => {
      const formData = await readForm(request, context);
      if (formData.get("intent") === "revoke") {
        revokeApiToken(db, Number(formData.get("id")));
        // Back to the view the token was revoked from (its search, filters, sort and page).
        const { query } = parseListQuery(new URL(request.url), TOKEN_LIST);
        return redirectWithFlash(`${base}/api${listSearch(query, TOKEN_LIST)}`, "flash.tokenRevoked");
      }
      const submission = parseForm(formData, createSchema);
      if (submission.status !== "success") return json({ token: null, result: submission.reply() }, { status: 400 });
      const result = createApiToken(db, {
        // A super-admin's token belongs to the organization; an admin's is bounded by its maker.
        userId: area === "admin" ? null : auth.person.id,
        name: submission.value.name,
        capabilities: submission.value.capabilities,
        ceiling: auth.capabilities,
        days: submission.value.days,
      });
      if ("error" in result)
        return json({ token: null, result: submission.reply({ formErrors: ["api.beyondOwnCapabilities"] }) }, { status: 400 });
      return json({ token: result.token, result: submission.reply({ resetForm: true }) });
    });
}
