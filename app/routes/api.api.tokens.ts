import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTokenView, createApiToken, DEFAULT_TOKEN_DAYS, listApiTokens, MAX_TOKEN_DAYS } from "~/models/auth/api-token.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { CAPABILITIES } from "~/utils/capabilities";
import { paginated } from "~/utils/pagination";

export const bodySchema = z.object({
  name: z.string().trim().min(1, "validation.required").max(100),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1, "validation.required").max(CAPABILITIES.length),
  expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS).default(DEFAULT_TOKEN_DAYS),
});

/** `GET /api/api/tokens`: the organization's API tokens, with their last use; never the secrets. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "manage:api-token" });
  const items = listApiTokens(context.db).map(apiTokenView);
  return apiOk(paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) }));
}

/**
 * `POST /api/api/tokens {name, capabilities, expires_in_days}`: the secret is in this reply only. A
 * token may hold only capabilities its creator holds.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "manage:api-token" });
  const body = await parseApiBody(request, context, bodySchema);
  const result = createApiToken(context.db, {
    userId: auth.person?.id ?? null,
    name: body.name,
    capabilities: body.capabilities,
    ceiling: auth.capabilities,
    days: body.expires_in_days,
    notAfter: auth.token?.expiresAt ?? auth.session?.expiresAt,
  });
  if ("error" in result) {
    const t = await apiT(request, context);
    return apiError(422, {
      message: t("api.invalid"),
      code: "invalid",
      fields: { capabilities: [t("api.beyondOwnCapabilities", { capabilities: result.capabilities.join(", ") })] },
    });
  }
  return apiOk({ ...apiTokenView(result.apiToken), token: result.token }, 201);
}
