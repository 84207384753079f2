import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { certificateTemplates } from "../../db/tenant";
import { contains } from "../utils/pagination";
import type { CertificateTemplateListQuery } from "./forms/certificate-template-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The certificate templates management list (issue 50; docs/decisions/046-management-lists.md): searched by name,
 * filtered to the default template or the others and to those courses use or not, sorted by name, courses or when
 * made, a page at a time. The courses using a template are those naming it, and for the default also the courses
 * with certificates on that name none (they are issued with it). Who may read it is the screen's capability.
 */
// The template's columns named with their table: in a select list drizzle writes a column without it.
const courses = sql<number>`((select count(*) from course_certificate_templates cct where cct.template_id = "certificate_templates"."id")
  + case when "certificate_templates"."is_default" then (select count(*) from courses c where c.allow_certificates = 1
      and not exists (select 1 from course_certificate_templates x where x.course_id = c.id)) else 0 end)`;

export function certificateTemplateList(db: TenantConn, query: CertificateTemplateListQuery) {
  const { kind, use } = query.filters;
  const conditions: (SQL | undefined)[] = [
    query.q ? contains(certificateTemplates.name, query.q) : undefined,
    kind ? eq(certificateTemplates.isDefault, kind === "default") : undefined,
    use === "used" ? sql`${courses} > 0` : use === "unused" ? sql`${courses} = 0` : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(
    query,
    { name: certificateTemplates.name, courses, created: certificateTemplates.createdAt },
    certificateTemplates.id,
  );
  return listPage(query, {
    count: () => db.select({ n: count() }).from(certificateTemplates).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({ template: certificateTemplates, courses })
        .from(certificateTemplates)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}
