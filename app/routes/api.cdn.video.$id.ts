import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { may } from "~/access/rules";
import { getFile } from "~/models/file.server";
import { canWatchFile } from "~/models/learning.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/** How long a video address works: long enough for a feature-length lesson with pauses. */
const VIDEO_TTL_SECONDS = 6 * 3600;

/**
 * `GET /api/cdn/video/{id}` (spec §7 "Files"): `{ url, expires_at, mime, size }` for a stored video, a
 * signed address that serves it with range requests (seeking) until it expires. Those who may read the
 * file library get any video; learners only the video of a lesson they may open.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.organization || !context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  const file = /^\d{1,15}$/.test(params.id ?? "") ? getFile(context.db, Number(params.id)) : undefined;
  if (!file || file.kind !== "video") return apiNotFound(request, context);
  const allowed =
    may(auth, "read:file") || canWatchFile(context.db, auth, file.id);
  if (!allowed) return apiNotFound(request, context);
  const { url, expires } = context.platform.signFileUrl(context.organization.id, file, VIDEO_TTL_SECONDS, 60);
  return apiOk({
    url: `${context.platform.originFor(context.organization)}${url}`,
    expires_at: new Date(expires * 1000).toISOString(),
    mime: file.mime,
    size: file.size,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
