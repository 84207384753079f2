import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fileView, listFiles, receiveUpload, storeUpload, UploadError } from "~/models/file.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { uploadLimits, uploadProblem } from "~/kernel/upload.server";

/** `GET /api/files` (read:file): the organization's files, newest first, paginated. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "read:file" });
  const page = pageSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!page.success) return apiInvalid(request, context, page.error);
  const p = { page: page.data.page, perPage: page.data.per_page };
  const { items, total } = listFiles(context.db, { page: p });
  return apiOk(paginated(items.map(fileView), total, p));
}

/** `POST /api/files` (write:file, multipart, field `file`): streamed, limited, checked from its bytes. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  if (!context.organization || !context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "write:file" });
  const limits = uploadLimits(context);
  const t = await apiT(request, context);
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return apiError(422, { message: t("files.missing"), code: "missing", fields: { file: [t("files.missing")] } });
  }
  let received: Awaited<ReturnType<typeof receiveUpload>> | undefined;
  try {
    received = await receiveUpload(request, { dataDir: context.platform.dataDir, organizationId: context.organization.id, limits });
    const key = String(received.formData.get("file") ?? "").split(":")[1];
    const stored = await storeUpload(context.db, {
      dataDir: context.platform.dataDir,
      organizationId: context.organization.id,
      pending: key ? received.pending.get(key) : undefined,
      limits,
      uploadedBy: auth.person?.id ?? null,
    });
    return apiOk(fileView(stored), 201);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const { status, message } = uploadProblem(error, t, error.problem === "too_large" ? limits.maxBytes : 0);
    return apiError(status, { message, code: error.problem, fields: { file: [message] } });
  } finally {
    received?.cleanup();
  }
}
