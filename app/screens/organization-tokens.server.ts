import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  apiTokenView,
  createApiToken,
  DEFAULT_TOKEN_DAYS,
  listApiTokens,
  MAX_TOKEN_DAYS,
  revokeApiToken,
} from "~/models/auth/api-token.server";
import { tokenFormSchema } from "~/models/forms/tokens";
import { parseForm } from "~/utils/form";
import { redirectWithFlash } from "~/utils/flash.server";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { readForm } from "~/utils/form-data.server";

/**
 * An organization's API tokens (docs/product.md §2 admin tab "api"; permissions issue item 3): list with last use,
 * create with a name, capabilities and a lifetime (the secret is shown once), revoke.
 */
const createSchema = tokenFormSchema(MAX_TOKEN_DAYS, DEFAULT_TOKEN_DAYS);

export function tokensLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:api-token" }, ({ db }) => ({
      tokens: listApiTokens(db).map(apiTokenView),
      maxDays: MAX_TOKEN_DAYS,
      defaultDays: DEFAULT_TOKEN_DAYS,
    }));
}

export function tokensAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:api-token" }, async ({ db, viewer: auth, base }) => {
      const formData = await readForm(request, context);
      if (formData.get("intent") === "revoke") {
        revokeApiToken(db, Number(formData.get("id")));
        return redirectWithFlash(`${base}/api`, "flash.tokenRevoked");
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
