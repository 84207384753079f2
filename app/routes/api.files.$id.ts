import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteFile, fileView, getFile } from "~/models/file.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

const idOf = (value: string | undefined) => (/^\d{1,15}$/.test(value ?? "") ? Number(value) : null);

/** `GET /api/files/{id}` (read:file). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "read:file" });
  const id = idOf(params.id);
  const file = id ? getFile(context.db, id) : undefined;
  return file ? apiOk(fileView(file)) : apiNotFound(request, context);
}

/** `DELETE /api/files/{id}` (write:file): the row, then the bytes. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["GET", "DELETE"]);
  if (!context.organization || !context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "write:file" });
  const id = idOf(params.id);
  if (!id || !deleteFile(context.db, { dataDir: context.platform.dataDir, organizationId: context.organization.id }, id)) {
    return apiNotFound(request, context);
  }
  return apiOk({ id, deleted: true });
}
