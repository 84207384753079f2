import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { fileView, listFiles } from "~/models/file.server";
import { FILE_KINDS } from "~/models/vocabulary";
import { apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { pageSchema, paginated } from "~/utils/pagination";

export const querySchema = pageSchema.extend({ type: z.enum(FILE_KINDS) });

/** `GET /api/files/type/{type}` (read:file): image, document, video, audio or archive. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "read:file" });
  const query = querySchema.safeParse({ ...Object.fromEntries(new URL(request.url).searchParams), type: params.type });
  if (!query.success) return apiInvalid(request, context, query.error);
  const p = { page: query.data.page, perPage: query.data.per_page };
  const { items, total } = listFiles(context.db, { kind: query.data.type, page: p });
  return apiOk(paginated(items.map(fileView), total, p));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
