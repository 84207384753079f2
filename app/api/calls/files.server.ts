import { z } from "zod";
import { deleteFile, fileView as fileReply, getFile, listFiles } from "~/models/file.server";
import { FILE_KINDS } from "~/models/vocabulary";
import { handleUpload } from "~/kernel/upload.server";
import { apiError, apiInvalid, apiNotFound, apiT } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, deleted, E, guarded, id, isoDate, page, signedUrl, type ApiCall } from "../contract.server";

/** The organization's file library (docs/product.md §7 "Files", docs/decisions/009-management-areas-and-files.md). */
const stamp = "2026-05-04T09:30:00.000Z";
const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
const idOf = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : null);
const fileKind = z.enum(FILE_KINDS);

export const fileView = z.object({
  id,
  type: z.string(),
  mime: z.string(),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  created_at: isoDate,
});
export const fileExample = {
  id: 12,
  type: "document",
  mime: "application/pdf",
  name: "checklist.pdf",
  size: 48213,
  sha256: "9b74c9897bac770ffc029102a200c5de…",
  created_at: stamp,
};

export const fileCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/files",
    tag: "Files",
    summary: "The organization's files",
    description: "Newest first, paginated.",
    access: "read:file",
    query: pageSchema,
    reply: page(fileView),
    errors: guarded(E.invalid),
    example: { reply: { data: [fileExample], meta: meta1 } },
    handler: ({ context, query }) => {
      const p = { page: query.page, perPage: query.per_page };
      const { items, total } = listFiles(context.db!, { page: p });
      return paginated(items.map(fileReply), total, p);
    },
  }),
  call({
    method: "POST",
    path: "/api/files",
    tag: "Files",
    summary: "Upload a file",
    description:
      "A multipart form with the field `file`; streamed, limited in size, its type checked from its bytes (images are re-encoded).",
    access: "write:file",
    bodyType: "multipart/form-data",
    body: z.object({ file: z.string().describe("the file (binary)") }),
    reply: fileView,
    status: 201,
    errors: guarded(
      { status: 422, code: "missing", when: "no `file` field" },
      { status: 413, code: "too_large", when: "over the size limit" },
      { status: 415, code: "type_not_allowed", when: "a type Lectern does not keep" },
    ),
    example: { reply: fileExample },
    // Streamed, limited in size, its type checked from its bytes (app/models/file.server.ts).
    handler: async ({ request, context, viewer }) => {
      const organization = context.organization!;
      const t = await apiT(request, context);
      if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
        return apiError(422, { message: t("files.missing"), code: "missing", fields: { file: [t("files.missing")] } });
      }
      // The one upload helper (app/kernel/upload.server.ts), as every page's upload.
      return handleUpload<ReturnType<typeof fileReply> | Response>(
        request,
        context,
        { organizationId: organization.id, field: "file", t },
        async (upload) => fileReply(await upload.store(context.db!, viewer.person?.id ?? null)),
        ({ status, message, code }) => apiError(status, { message, code, fields: { file: [message] } }),
      );
    },
  }),
  call({
    method: "GET",
    path: "/api/files/{id}",
    tag: "Files",
    summary: "One file's details",
    access: "read:file",
    reply: fileView,
    errors: guarded(),
    example: { reply: fileExample },
    handler: ({ request, context, params }) => {
      const id = idOf(params.id);
      const file = id ? getFile(context.db!, id) : undefined;
      return file ? fileReply(file) : apiNotFound(request, context);
    },
  }),
  call({
    method: "DELETE",
    path: "/api/files/{id}",
    tag: "Files",
    summary: "Delete a file",
    access: "write:file",
    reply: deleted,
    errors: guarded(),
    example: { reply: { id: 12, deleted: true } },
    // The row, then the bytes.
    handler: ({ request, context, params }) => {
      const id = idOf(params.id);
      if (!id || !deleteFile(context.db!, { dataDir: context.platform.dataDir, organizationId: context.organization!.id }, id))
        return apiNotFound(request, context);
      return { id, deleted: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/files/{id}/download",
    tag: "Files",
    summary: "A signed download address",
    access: "read:file",
    reply: signedUrl,
    errors: guarded(),
    example: { reply: { url: "http://acme.localhost:3000/files/12/checklist.pdf?expires=1767225600&sig=…", expires_at: stamp } },
    // A signed address that serves the file (with ranges) until it expires.
    handler: ({ request, context, params }) => {
      const organization = context.organization!;
      const id = idOf(params.id);
      const file = id ? getFile(context.db!, id) : undefined;
      if (!file) return apiNotFound(request, context);
      const { url, expires } = context.platform.signFileUrl(organization.id, file, context.platform.config.DOWNLOAD_TTL_SECONDS);
      return { url: `${context.platform.originFor(organization)}${url}`, expires_at: new Date(expires * 1000).toISOString() };
    },
  }),
  call({
    method: "GET",
    path: "/api/files/type/{type}",
    tag: "Files",
    summary: "Files of one type",
    description: "`type` is image, document, video, audio or archive.",
    access: "read:file",
    query: pageSchema,
    reply: page(fileView),
    errors: guarded(E.invalid),
    example: { reply: { data: [fileExample], meta: meta1 } },
    handler: async ({ request, context, params, query }) => {
      const kind = fileKind.safeParse(params.type);
      if (!kind.success) return apiInvalid(request, context, new z.ZodError(kind.error.issues.map((i) => ({ ...i, path: ["type"] }))));
      const p = { page: query.page, perPage: query.per_page };
      const { items, total } = listFiles(context.db!, { kind: kind.data, page: p });
      return paginated(items.map(fileReply), total, p);
    },
  }),
];
