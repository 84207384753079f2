import { z } from "zod";
import {
  apiTokenView,
  createApiToken,
  DEFAULT_TOKEN_DAYS,
  listApiTokens,
  MAX_TOKEN_DAYS,
  revokeApiToken,
} from "~/models/auth/api-token.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { CAPABILITIES } from "~/utils/capabilities";
import { paginated } from "~/utils/pagination";
import { call, E, guarded, id, isoDate, page, type ApiCall } from "../contract.server";
import { tokenExample } from "./sign-in.server";

/** The organization's API tokens: listed, made and revoked by those who manage them (docs/product.md §7 "API"). */

export const tokenBody = z.object({
  name: z.string().trim().min(1, "validation.required").max(100),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1, "validation.required").max(CAPABILITIES.length),
  expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS).default(DEFAULT_TOKEN_DAYS),
});

const tokenPath = z.object({ id: z.coerce.number().int().positive() });

const apiTokenReply = z.object({
  id,
  name: z.string(),
  user_id: id.nullable(),
  capabilities: z.array(z.string()),
  created_at: isoDate,
  expires_at: isoDate,
  last_used_at: isoDate.nullable(),
});

export const apiTokenCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/api/tokens",
    tag: "API tokens",
    summary: "The organization's API tokens",
    description: "With their last use; never the secrets.",
    access: "manage:api-token",
    reply: page(apiTokenReply),
    errors: guarded(),
    example: {
      reply: {
        data: [
          {
            id: 2,
            name: "HR sync",
            user_id: 1,
            capabilities: ["read:user", "write:user"],
            created_at: "2026-05-04T09:30:00.000Z",
            expires_at: "2026-06-03T09:30:00.000Z",
            last_used_at: null,
          },
        ],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    handler: ({ context }) => {
      const items = listApiTokens(context.db!).map(apiTokenView);
      return paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) });
    },
  }),
  call({
    method: "POST",
    path: "/api/api/tokens",
    tag: "API tokens",
    summary: "Create an API token",
    description:
      "The secret (`token`) is in this reply only. A token may hold only capabilities its creator holds, and lives 1 to 30 days (`expires_in_days`).",
    access: "manage:api-token",
    body: tokenBody,
    reply: apiTokenReply.extend({ token: z.string() }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { name: "HR sync", capabilities: ["read:user", "write:user"], expires_in_days: 30 },
      reply: {
        id: 2,
        name: "HR sync",
        user_id: 1,
        capabilities: ["read:user", "write:user"],
        created_at: "2026-05-04T09:30:00.000Z",
        expires_at: "2026-06-03T09:30:00.000Z",
        last_used_at: null,
        token: tokenExample,
      },
    },
    // A token may hold only capabilities its creator holds.
    handler: async ({ request, context, viewer, body }) => {
      const result = createApiToken(context.db!, {
        userId: viewer.person?.id ?? null,
        name: body.name,
        capabilities: body.capabilities,
        ceiling: viewer.capabilities,
        days: body.expires_in_days,
        notAfter: viewer.token?.expiresAt ?? viewer.session?.expiresAt,
      });
      if ("error" in result) {
        const t = await apiT(request, context);
        return apiError(422, {
          message: t("api.invalid"),
          code: "invalid",
          fields: { capabilities: [t("api.beyondOwnCapabilities", { capabilities: result.capabilities.join(", ") })] },
        });
      }
      return { ...apiTokenView(result.apiToken), token: result.token };
    },
  }),
  call({
    method: "DELETE",
    path: "/api/api/tokens/{id}",
    tag: "API tokens",
    summary: "Revoke an API token",
    access: "manage:api-token",
    reply: z.object({ id, revoked: z.literal(true) }),
    errors: guarded(),
    example: { reply: { id: 2, revoked: true } },
    handler: ({ request, context, params }) => {
      const parsed = tokenPath.safeParse(params);
      if (!parsed.success || !revokeApiToken(context.db!, parsed.data.id)) return apiNotFound(request, context);
      return { id: parsed.data.id, revoked: true };
    },
  }),
];
