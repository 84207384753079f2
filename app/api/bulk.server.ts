import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { apiError, apiT } from "~/utils/api.server";
import { id } from "./contract.server";

/**
 * What the /api calls of bulk actions share (issue 50; `POST /api/users/bulk` and `/api/courses/bulk`): the job
 * they answer with, and their refusals — a list filter that does not parse (never widened), or what the action's
 * checks refused before any row was touched.
 */
export const bulkJobReply = <A extends readonly [string, ...string[]]>(actions: A) =>
  z.object({
    id,
    status: z.enum(["queued", "running", "done", "failed"]),
    progress: z.number().int().min(0).max(100),
    action: z.enum(actions),
    total: z.number().int(),
    done: z.number().int().nullable(),
    unchanged: z.number().int().nullable(),
    refused: z.record(z.number().int()).nullable(),
    error: z.string().nullable(),
  });

/** A list filter that does not parse: 422, naming `filter`, with the list's own message. */
export async function bulkFilterRefused(request: Request, context: AppLoadContext, message: string) {
  const t = await apiT(request, context);
  return apiError(422, { message: t(message), code: "invalid", fields: { filter: [t(message)] } });
}

/**
 * An action refused by its checks: 403 when the caller may not start it, else 422 naming the body's field
 * (`fields` maps the checks' field names to the body's).
 */
export async function bulkRefused(
  request: Request,
  context: AppLoadContext,
  refusal: { status: 400 | 403; field?: string; message: string },
  fields: Record<string, string>,
) {
  const t = await apiT(request, context);
  if (refusal.status === 403) return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
  const field = fields[refusal.field ?? ""] ?? "action";
  return apiError(422, { message: t(refusal.message), code: "invalid", fields: { [field]: [t(refusal.message)] } });
}
