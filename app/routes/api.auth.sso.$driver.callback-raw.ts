import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getDriverBySlug } from "~/models/sso/drivers.server";
import { apiNotFound, apiOk } from "~/utils/api.server";
import { ssoTenant } from "~/kernel/sso.server";

const FIELDS = ["code", "state", "iss", "error", "error_description"] as const;

/**
 * `GET|POST /api/auth/sso/{driver}/callback-raw` (spec §7): the redirect address of an app's sign-in.
 * It spends nothing and signs no one in: it hands the provider's answer (code, state, iss, or error) back
 * as JSON to the app that opened the browser, which watches for this address and then calls
 * `/api/auth/sso/{driver}/callback` with the answer and its binding value.
 */
async function raw({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (!context.organization) return apiNotFound(request, context);
  const driver = getDriverBySlug(ssoTenant(context).db, params.driver ?? "");
  if (!driver) return apiNotFound(request, context);
  let source = new URL(request.url).searchParams;
  if (request.method === "POST" && (request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    source = new URLSearchParams(await request.text());
  }
  const answer: Record<string, string | null> = {};
  for (const field of FIELDS) answer[field] = source.get(field)?.slice(0, 2000) ?? null;
  return apiOk({ driver: driver.slug, ...answer }, 200, { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
}

export const loader = raw;
export const action = raw;
