import type { TFunction } from "i18next";
import { z } from "zod";
import { peopleExportReach } from "~/access/rules";
import { userListFilters } from "~/models/forms/user-list";
import { jobView as jobReply } from "~/models/job.server";
import { peopleCsvStream, type ReadTenant } from "~/models/people-export.server";
import { userExportIds } from "~/models/user-list.server";
import { inviteUser } from "~/models/provision.server";
import {
  checkCsv,
  existingEmails,
  markImportQueued,
  PREVIEW_ROWS,
  readCsvUpload,
  storeImport,
  type ImportProblem,
} from "~/models/user-import.server";
import { userCreateSchema, userResource, userUpdateSchema, userView as userReply } from "~/models/user-resource.server";
import { getUserSettings } from "~/models/user-settings.server";
import { getUser } from "~/models/user.server";
import { deleteUserAudited, editUserAudited } from "~/models/user-audited.server";
import { apiError, apiForbidden, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { mayGrant } from "~/utils/capabilities";
import { csvStreamResponse } from "~/utils/csv.server";
import { call, deleted, E, guarded, id, isoDate, type ApiCall } from "../contract.server";
import { resourceCalls } from "../resource.server";
import { bulkFilterRefused } from "../bulk.server";
import { jobExample, jobView } from "./courses.server";
import { peopleExportQuery } from "./people-bulk.server";

/** The organization's people (docs/product.md §7 "Users"). */
/** A model's field problems (translation keys) as the 422 envelope, in the caller's language. */
function invalidFields(t: TFunction, problems: Record<string, string[]>) {
  const fields = Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, v.map((m) => t(m))]));
  return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
}

export const userView = z.object({
  id,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  language: z.string().nullable(),
  type: z.string().nullable(),
  managed_externally: z.boolean(),
  disabled: z.boolean(),
  created_at: isoDate,
});

const stamp = { created_at: "2026-05-04T09:30:00.000Z", updated_at: "2026-05-04T09:30:00.000Z" };

export const importQuery = z.object({
  group_id: z.coerce.number().int().positive().optional(),
  send_invitations: z.enum(["true", "false"]).optional(),
  dry_run: z.enum(["true", "false"]).optional(),
});

export const userCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/users",
    tag: "Users",
    noun: "user",
    view: userView,
    resource: userResource,
    itemWrites: false,
    readNote: "Group admins see the members of their groups.",
    replyExample: {
      id: 12,
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: null,
      language: "en",
      type: "learner",
      managed_externally: false,
      disabled: false,
      created_at: stamp.created_at,
    },
  }),
  call({
    method: "POST",
    path: "/api/users",
    tag: "Users",
    summary: "Add a person",
    description:
      "Mails an invitation to choose a password. Takes the fields of the reply by the same names: `email` and `type` (learner, admin or none) are needed; `first_name`, `last_name`, `phone` and `language` may be left out. The reply's other fields are ignored. `firstName`, `lastName` and `role` are older names still taken. Only a caller holding every capability of a role may give it: a token limited to `write:user` adds learners, not admins (403 `forbidden`).",
    access: "write:user",
    body: userCreateSchema,
    reply: userView,
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { email: "grace@example.com", first_name: "Grace", last_name: "Hopper", type: "learner" },
      reply: {
        id: 13,
        email: "grace@example.com",
        first_name: "Grace",
        last_name: "Hopper",
        phone: null,
        language: null,
        type: "learner",
        managed_externally: false,
        disabled: false,
        created_at: stamp.created_at,
      },
    },
    handler: async ({ request, context, viewer, body }) => {
      // `type` (or its older name `role`) must be within the caller's own reach.
      if (!mayGrant(viewer, body.role)) {
        const t = await apiT(request, context);
        return apiError(403, { message: t("users.cannotGrantRole"), code: "forbidden" });
      }
      const added = await inviteUser(context.platform, context.db!, context.organization!, body, { viewer, via: "api" });
      if (!added.ok) {
        return invalidFields(await apiT(request, context), added.fields);
      }
      return userReply(added.user);
    },
  }),
  call({
    method: "PUT",
    path: "/api/users/{id}",
    tag: "Users",
    summary: "Change a person",
    description:
      "Takes the fields of the reply by the same names, and only the fields sent change: a reply sent back as it came changes nothing. `phone: null` clears the phone; `language: null` goes back to the organization's default; `type` is learner, admin or none (null). The reply's read-only fields (`id`, `managed_externally`, `disabled`, `created_at`) are ignored. `firstName`, `lastName` and `role` are older names still taken; sent beside their new names they must agree. Nobody changes their own role, and only a caller holding every capability of a role may give it.",
    access: "write:user",
    body: userUpdateSchema,
    reply: userView,
    errors: guarded(E.invalid, E.invalidBody, { status: 403, code: "self", when: "one's own role or account" }),
    example: {
      body: { first_name: "Grace", last_name: "Hopper", phone: null, type: "admin" },
      reply: {
        id: 13,
        email: "grace@example.com",
        first_name: "Grace",
        last_name: "Hopper",
        phone: null,
        language: null,
        type: "admin",
        managed_externally: false,
        disabled: false,
        created_at: stamp.created_at,
      },
    },
    before: ({ request, context, params }) =>
      /^\d{1,15}$/.test(params.id) && getUser(context.db!, Number(params.id)) ? undefined : apiNotFound(request, context),
    handler: async ({ request, context, params, viewer, body: patch }) => {
      // Nobody changes their own role here: an organization must not lock itself out.
      const db = context.db!;
      const user = getUser(db, Number(params.id))!;
      const t = await apiT(request, context);
      const newRole = patch.role !== undefined && patch.role !== user.role;
      if (viewer.person?.id === user.id && newRole) return apiError(403, { message: t("api.forbidden"), code: "self" });
      if (newRole && !mayGrant(viewer, patch.role ?? null))
        return apiError(403, { message: t("users.cannotGrantRole"), code: "forbidden" });
      const result = editUserAudited(db, viewer, "api", user, patch);
      if (!result) return apiNotFound(request, context);
      if (!result.ok) {
        return invalidFields(t, result.fields);
      }
      return userReply(result.user);
    },
  }),
  call({
    method: "DELETE",
    path: "/api/users/{id}",
    tag: "Users",
    summary: "Remove a person",
    access: "write:user",
    reply: deleted,
    errors: guarded({ status: 403, code: "self", when: "one's own account" }),
    example: { reply: { id: 13, deleted: true } },
    handler: async ({ request, context, params, viewer }) => {
      const db = context.db!;
      const user = /^\d{1,15}$/.test(params.id) ? getUser(db, Number(params.id)) : undefined;
      if (!user) return apiNotFound(request, context);
      if (viewer.person?.id === user.id) {
        const t = await apiT(request, context);
        return apiError(403, { message: t("users.cannotDeleteSelf"), code: "self" });
      }
      deleteUserAudited(db, viewer, "api", user);
      return { id: user.id, deleted: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/users/export",
    tag: "Users",
    summary: "People as CSV",
    description:
      "The people the caller may read (group admins: the members of their groups, with those groups only), by name: those the people list's search and filters match (`q`, `role`, `group`, `status`, `language`, as on /dashboard/users), only those of `ids` when given. Columns `id`, `first_name`, `last_name`, `phone`, `email`, `type`, `status`, `created_at`, then `language`, `groups` (separated by semicolons) and `last_seen_at` (blank when unknown). Written as it is read, so the whole organization may be asked for. Cells that look like formulas are neutralised. An unknown parameter is refused (422).",
    access: "read:user",
    query: peopleExportQuery,
    reply: { file: "text/csv" },
    errors: guarded(E.invalid),
    example: { query: { status: "active", group: "4" } },
    // Also reached from the dashboard's people list with the session cookie (its "Export", and a bulk export).
    handler: ({ request, context, viewer, query }) => {
      const reach = peopleExportReach(viewer);
      if (reach === false) return apiForbidden(request, context);
      const organization = context.organization!;
      // A filter that does not parse refuses the export rather than widening it to everyone.
      const { query: filters, invalid } = userListFilters((name) => query[name as keyof typeof query]);
      if (invalid) return bulkFilterRefused(request, context, "bulk.errors.filters");
      const only = query.ids ? query.ids.split(",").map(Number) : undefined;
      const ids = userExportIds(context.db!, filters, reach, only);
      const read: ReadTenant = (work) => context.platform.tenants.withTenant(organization.id, work);
      return csvStreamResponse(`users-${organization.urlPrefix ?? organization.id}.csv`, peopleCsvStream(read, ids, reach));
    },
  }),
  call({
    method: "POST",
    path: "/api/users/import/{id}",
    tag: "Users",
    summary: "Import people from CSV",
    description:
      '`{id}` is the organization\'s own id. The body is a multipart form with `file`, or the CSV itself (`text/csv`): one person a line, columns first name, last name, phone, email — or in the order a first line of titles gives them (`first_name`, `last_name`, `phone`, `email`, as in the example, or the titles the import screen shows); an empty field is left blank. A file with any problem is refused whole (422, one message per line under `fields["line N"]`); otherwise the import runs as a job (202). `dry_run=true` checks only.',
    access: "write:user",
    query: importQuery,
    bodyType: "text/csv",
    body: z
      .string()
      .describe(
        "the CSV: first name, last name, phone, email, in that order; or in any order under a first line of titles such as `first_name,last_name,phone,email` (or the import screen's titles in any language)",
      ),
    reply: z.object({ import_id: id, rows: z.number().int(), job: jobView }),
    status: 202,
    otherReplies: [
      {
        status: 200,
        reply: z.object({
          rows: z.number().int(),
          preview: z.array(
            z.object({
              line: z.number().int(),
              first_name: z.string(),
              last_name: z.string(),
              phone: z.string().nullable(),
              email: z.string(),
            }),
          ),
        }),
        description: "`dry_run=true`: the rows that would be added",
      },
    ],
    errors: guarded(E.invalid),
    example: {
      query: { dry_run: "false" },
      body: "email,first_name,last_name,phone\ngrace@example.com,Grace,Hopper,\n",
      reply: { import_id: 3, rows: 1, job: { ...jobExample, kind: "users.import" } },
    },
    // `{id}` is the organization's own id; the body is read here (a multipart form or the CSV itself).
    handler: async ({ request, context, params, viewer, query }) => {
      const organization = context.organization!;
      const db = context.db!;
      if (params.id !== String(organization.id)) return apiNotFound(request, context);
      const t = await apiT(request, context);
      const refuse = (problems: ImportProblem[]) => {
        const fields: Record<string, string[]> = {};
        for (const p of problems) (fields[p.line ? `line ${p.line}` : "file"] ??= []).push(t(`import.errors.${p.code}`, p.params ?? {}));
        return apiError(422, { message: t("import.nothingWritten"), code: "invalid_file", fields });
      };
      const upload = await readCsvUpload(request);
      if ("problem" in upload) return refuse([upload.problem]);
      const checked = checkCsv(upload.bytes, existingEmails(db));
      if (checked.problems.length) return refuse(checked.problems);
      if (query.dry_run === "true") {
        return apiOk({
          rows: checked.rows.length,
          preview: checked.rows
            .slice(0, PREVIEW_ROWS)
            .map((r) => ({ line: r.line, first_name: r.firstName, last_name: r.lastName, phone: r.phone, email: r.email })),
        });
      }
      const sendInvitations = query.send_invitations ? query.send_invitations === "true" : getUserSettings(db).inviteImported;
      const stored = storeImport(db, {
        fileName: upload.fileName,
        bytes: upload.bytes,
        rowCount: checked.rows.length,
        groupId: query.group_id ?? null,
        sendInvitations,
        createdBy: viewer.person?.id ?? null,
      });
      if (!stored)
        return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { group_id: [t("validation.invalidOption")] } });
      const job = context.platform.jobs.enqueue(organization.id, db, "users.import", { import_id: stored.id });
      markImportQueued(db, stored.id, job.id);
      return { import_id: stored.id, rows: checked.rows.length, job: jobReply(job) };
    },
  }),
];
