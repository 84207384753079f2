import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jobView } from "~/models/job.server";
import { checkCsv, existingEmails, markImportQueued, PREVIEW_ROWS, readCsvUpload, storeImport, type ImportProblem } from "~/models/user-import.server";
import { getUserSettings } from "~/models/user-settings.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

export const querySchema = z.object({
  group_id: z.coerce.number().int().positive().optional(),
  send_invitations: z.enum(["true", "false"]).optional(),
  dry_run: z.enum(["true", "false"]).optional(),
});

/**
 * Spec §7 `POST users/import/{id}` (file body; write:user): `{id}` is the organization's id (the request's
 * own). The body is a multipart form with `file`, or the CSV itself (`text/csv`). Query: `group_id`,
 * `send_invitations` (default: the user settings), `dry_run=true` to check only. A file with any problem
 * is refused whole (422, one message per line under `fields["line N"]`); otherwise the import runs as a
 * job (202 with the job; follow it at GET /api/jobs/{id}).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  if (!context.organization || !context.db || params.id !== String(context.organization.id)) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "write:user" });
  const db = context.db;
  const t = await apiT(request, context);
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiError(422, { message: t("api.invalid"), code: "invalid" });
  const refuse = (problems: ImportProblem[]) => {
    const fields: Record<string, string[]> = {};
    for (const p of problems) (fields[p.line ? `line ${p.line}` : "file"] ??= []).push(t(`import.errors.${p.code}`, p.params ?? {}));
    return apiError(422, { message: t("import.nothingWritten"), code: "invalid_file", fields });
  };
  const upload = await readCsvUpload(request);
  if ("problem" in upload) return refuse([upload.problem]);
  const checked = checkCsv(upload.bytes, existingEmails(db));
  if (checked.problems.length) return refuse(checked.problems);
  if (query.data.dry_run === "true") {
    return apiOk({ rows: checked.rows.length, preview: checked.rows.slice(0, PREVIEW_ROWS).map((r) => ({ line: r.line, first_name: r.firstName, last_name: r.lastName, phone: r.phone, email: r.email })) });
  }
  const sendInvitations = query.data.send_invitations ? query.data.send_invitations === "true" : getUserSettings(db).inviteImported;
  const stored = storeImport(db, {
    fileName: upload.fileName,
    bytes: upload.bytes,
    rowCount: checked.rows.length,
    groupId: query.data.group_id ?? null,
    sendInvitations,
    createdBy: auth.person?.id ?? null,
  });
  if (!stored) return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { group_id: [t("validation.invalidOption")] } });
  const job = context.platform.jobs.enqueue(context.organization.id, db, "users.import", { import_id: stored.id });
  markImportQueued(db, stored.id, job.id);
  return apiOk({ import_id: stored.id, rows: checked.rows.length, job: jobView(job) }, 202);
}

export const loader = ({ request, context }: LoaderFunctionArgs) => apiMethodNotAllowed(request, context, ["POST"]);
