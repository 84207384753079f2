import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { revokeApiToken } from "~/models/auth/api-token.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

const paramsSchema = z.object({ id: z.coerce.number().int().positive() });

/** `DELETE /api/api/tokens/{id}`: revoked at once; the token fails on its very next call. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["DELETE"]);
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "manage:api-token" });
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success || !revokeApiToken(context.db, parsed.data.id)) return apiNotFound(request, context);
  return apiOk({ id: parsed.data.id, revoked: true });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["DELETE"]);
}
