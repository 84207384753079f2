import { z } from "zod";
import { mayReadAdminAudit } from "~/access/rules";
import {
  ADMIN_AUDIT_ACTIONS,
  ADMIN_AUDIT_ROLES,
  ADMIN_AUDIT_SUBJECTS,
  ADMIN_AUDIT_VIA,
  auditList,
  auditView,
} from "~/models/admin-audit.server";
import { apiError, apiT } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, E, id, isoDate, page, type ApiCall } from "../contract.server";

/**
 * The audit of what admins did (issue 44; app/models/admin-audit.server.ts): who added or removed whom in
 * which group, and who made or unmade a group's admins, newest first. The organization's admins only, as on
 * /dashboard/users/audit.
 */
const entry = z.object({
  id,
  at: isoDate,
  action: z.enum(ADMIN_AUDIT_ACTIONS),
  via: z.enum(ADMIN_AUDIT_VIA),
  actor: z.object({
    id: id.nullable(),
    email: z.string().nullable(),
    role: z.enum(ADMIN_AUDIT_ROLES),
    token: z.string().nullable(),
  }),
  subject: z.object({ kind: z.enum(ADMIN_AUDIT_SUBJECTS), id, name: z.string() }),
  person: z.object({ id, email: z.string() }).nullable(),
  group: z.object({ id, name: z.string() }).nullable(),
  detail: z.string().nullable(),
  address: z.string().nullable(),
});

const example = {
  id: 41,
  at: "2026-05-04T09:30:00.000Z",
  action: "member_added",
  via: "page",
  actor: { id: 3, email: "lea@example.com", role: "group_admin", token: null },
  subject: { kind: "person", id: 12, name: "sam@example.com" },
  person: { id: 12, email: "sam@example.com" },
  group: { id: 2, name: "Warehouse" },
  detail: null,
  address: "203.0.113.7",
};

export const auditCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/audit",
    tag: "Audit",
    summary: "What admins did",
    description:
      "Changes of groups' members and admins made by organization admins, group admins and super-admins; each person an admin added, changed (`profile_changed`: the fields named in `detail`), gave a type, deactivated, reactivated or removed, on a page or through /api; each person a bulk action deactivated, reactivated, gave a type, assigned a course or a learning path, or mailed the invitation again; and each course a bulk action published, unpublished, moved or deleted; newest first: who (`actor`, with the API token's name when one was used), what (`action`), about whom or what (`subject`: a person, or a course; `person` repeats a person, null for a course), in which group (`group`, for members and admins) or about what (`detail`: the course or path and due day, the type, the fields changed), when, how (`via`: a page or /api) and from where (`address`: the request's client address; null for entries older than 30 Nov 2026). Names are as they were then. Searched by `q` (the person's or actor's address, the group, the detail, the client address) and filtered by `action`, `via` and `subject`. Entries older than the organization's retention (`audit_retention_days` of its user settings) are deleted. Organization admins only.",
    access: "read:organization",
    query: pageSchema.extend({
      q: z.string().trim().max(200).optional(),
      action: z.enum(ADMIN_AUDIT_ACTIONS).optional(),
      via: z.enum(ADMIN_AUDIT_VIA).optional(),
      subject: z.enum(ADMIN_AUDIT_SUBJECTS).optional(),
    }),
    reply: page(entry),
    errors: [E.unauthenticated, E.twoFactorPending, E.organization, E.forbidden, E.invalid],
    example: { reply: { data: [example], meta: { current_page: 1, per_page: 20, total: 1, last_page: 1 } } },
    handler: async ({ request, context, viewer, query }) => {
      if (!mayReadAdminAudit(viewer)) {
        const t = await apiT(request, context);
        return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
      }
      const p = { page: query.page, perPage: query.per_page };
      const filters = {
        ...(query.action ? { action: query.action } : {}),
        ...(query.via ? { via: query.via } : {}),
        ...(query.subject ? { subject: query.subject } : {}),
      };
      const list = auditList(context.db!, { q: query.q ?? "", filters, sort: "at", dir: "desc", ...p });
      return paginated(list.page === p.page ? list.rows.map(auditView) : [], list.total, p);
    },
  }),
];
