import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTokenView, createApiToken, DEFAULT_TOKEN_DAYS, listApiTokens, MAX_TOKEN_DAYS, revokeApiToken } from "~/models/auth/api-token.server";
import { CAPABILITIES } from "~/utils/capabilities";
import { redirectWithFlash } from "~/utils/flash.server";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";

/**
 * An organization's API tokens (docs/product.md §2 admin tab "api"; permissions issue item 3): list with last use,
 * create with a name, capabilities and a lifetime (the secret is shown once), revoke.
 */
const createSchema = z.object({
  name: z.string().trim().min(1, "validation.required").max(100),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1, "validation.required"),
  // docs/product.md §9: 30 days at most; the model clamps too (api-token.server.ts), this says so to the person.
  days: z.coerce
    .number({ invalid_type_error: "tokens.daysRange" })
    .int("tokens.daysRange")
    .min(1, "tokens.daysRange")
    .max(MAX_TOKEN_DAYS, "tokens.daysRange")
    .default(DEFAULT_TOKEN_DAYS),
});

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
      const formData = await request.formData();
      if (formData.get("intent") === "revoke") {
        revokeApiToken(db, Number(formData.get("id")));
        return redirectWithFlash(`${base}/api`, "flash.tokenRevoked");
      }
      const parsed = createSchema.safeParse({ ...Object.fromEntries(formData), capabilities: formData.getAll("capabilities") });
      if (!parsed.success) return json({ token: null, errors: parsed.error.issues.map((i) => i.message) }, { status: 400 });
      const result = createApiToken(db, {
        // A super-admin's token belongs to the organization; an admin's is bounded by its maker.
        userId: area === "admin" ? null : auth.person.id,
        name: parsed.data.name,
        capabilities: parsed.data.capabilities,
        ceiling: auth.capabilities,
        days: parsed.data.days,
      });
      if ("error" in result) return json({ token: null, errors: ["api.beyondOwnCapabilities"] }, { status: 400 });
      return json({ token: result.token, errors: [] as string[] });
    });
}
