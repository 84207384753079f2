import type { LoaderFunctionArgs } from "@remix-run/node";
import { mayReadAdminAudit } from "~/access/rules";
import { withManagedOrganization } from "~/kernel/manage.server";
import { auditExportRows } from "~/models/admin-audit.server";
import { AUDIT_LIST } from "~/models/forms/audit-list";
import { csvResponse, toCsv } from "~/utils/csv.server";
import { parseListQuery } from "~/utils/list-query";

/**
 * `/dashboard/users/audit/export` with the audit list's search and filters (issue 50): the entries they match,
 * newest first, as CSV (at most `AUDIT_EXPORT_MAX`, the newest). The organization's admins only, as the screen. A
 * filter that does not parse is refused rather than left out: an export is not a page that can say so.
 */
export function adminAuditCsv({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, { area: "dashboard", capability: "read:organization" }, (m) => {
    if (!mayReadAdminAudit(m.viewer)) throw new Response("Forbidden", { status: 403 });
    const { query, errors } = parseListQuery(new URL(request.url), AUDIT_LIST);
    if (errors) throw new Response("Bad Request", { status: 400 });
    const rows = auditExportRows(m.db, query).map((e) => [
      e.at.toISOString(),
      e.action,
      e.via,
      e.actorEmail,
      e.actorRole,
      e.actorToken,
      e.subjectId,
      e.subjectEmail,
      e.groupName,
      e.detail,
      e.subjectKind,
      e.ip,
    ]);
    // person_id and person_email name the subject: a course's id and title when subject_kind is "course".
    const header = [
      "at",
      "action",
      "via",
      "actor_email",
      "actor_role",
      "actor_token",
      "person_id",
      "person_email",
      "group",
      "detail",
      "subject_kind",
      "address",
    ];
    return csvResponse(`audit-${m.organization.urlPrefix ?? m.organization.id}.csv`, toCsv(header, rows));
  });
}
