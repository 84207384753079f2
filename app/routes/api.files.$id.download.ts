import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getFile } from "~/models/file.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/**
 * `GET /api/files/{id}/download` (read:file): `{ url, expires_at }`, a signed address that serves the
 * file (with ranges) until it expires; the app opens or downloads it (spec §7 "Files").
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.organization || !context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "read:file" });
  const file = /^\d{1,15}$/.test(params.id ?? "") ? getFile(context.db, Number(params.id)) : undefined;
  if (!file) return apiNotFound(request, context);
  const { url, expires } = context.platform.signFileUrl(context.organization.id, file, context.platform.config.DOWNLOAD_TTL_SECONDS);
  return apiOk({ url: `${context.platform.originFor(context.organization)}${url}`, expires_at: new Date(expires * 1000).toISOString() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
