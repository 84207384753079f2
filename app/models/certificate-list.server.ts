import { and, asc, count, eq, exists, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { certificates, certificateTemplates, courses, users } from "../../db/tenant";
import { dayIn } from "../utils/calendar";
import { contains } from "../utils/pagination";
import type { CertificateListQuery, CertificateState } from "./forms/certificate-list";
import { listOrder, listPage } from "./list-page.server";
import { tenantTimeZone } from "./time-zone.server";

/**
 * The organization's issued certificates as a management list (issue 50; docs/decisions/046-management-lists.md):
 * searched by the person's name (as printed) or e-mail address, the course's title or the certificate's number;
 * filtered by course, state (valid, expired after its last valid day in the organization's zone, revoked) and
 * template; sorted by when issued, the person or the course, a page at a time. Who may read it is the screen's
 * capability (write:certificate-template). At hundreds of thousands of certificates its counts and pages want
 * indexes on (issued_at), (course_id, issued_at), (template_id, issued_at), (revoked_at, expires_on) and, for the
 * search and the person's order, (learner_name, course_title, public_id, user_id) (issue 50).
 */
export function certificateList(db: TenantConn, query: CertificateListQuery, now = new Date()) {
  const today = dayIn(tenantTimeZone(db), now);
  const where = and(...certificateConditions(db, query, today));
  // Searched, the issue date is sorted as an expression no index offers: one pass over the table, then only the
  // matches sorted, rather than every row fetched in date order to test each (as the people list does).
  const issued = query.q ? sql`${certificates.issuedAt} + 0` : certificates.issuedAt;
  const order = listOrder(query, { issued, person: certificates.learnerName, course: certificates.courseTitle }, certificates.id);
  return listPage(query, {
    count: () => db.select({ n: count() }).from(certificates).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({
          id: certificates.id,
          publicId: certificates.publicId,
          learnerName: certificates.learnerName,
          email: users.email,
          courseTitle: certificates.courseTitle,
          issuedAt: certificates.issuedAt,
          expiresOn: certificates.expiresOn,
          revokedAt: certificates.revokedAt,
          revokedReason: certificates.revokedReason,
        })
        .from(certificates)
        .leftJoin(users, eq(users.id, certificates.userId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all()
        .map((c) => ({ ...c, state: certificateState(c, today) })),
  });
}

/** Revoked, else expired when its last valid day (`expires_on`) is before `today`, else valid. */
export function certificateState(c: { revokedAt: Date | null; expiresOn: string | null }, today: string): CertificateState {
  if (c.revokedAt) return "revoked";
  return c.expiresOn !== null && c.expiresOn < today ? "expired" : "valid";
}

function certificateConditions(db: TenantConn, query: CertificateListQuery, today: string): (SQL | undefined)[] {
  const { course, state, template } = query.filters;
  const q = query.q;
  // One LIKE over the printed name, the course's title and the number together (a line break between them, which
  // a search box does not send), rather than one each: a single pass over the text of each row.
  const printed = sql`${certificates.learnerName} || char(10) || ${certificates.courseTitle} || char(10) || ${certificates.publicId}`;
  const search = q
    ? or(contains(printed, q), inArray(certificates.userId, db.select({ id: users.id }).from(users).where(contains(users.email, q))))
    : undefined;
  const notRevoked = isNull(certificates.revokedAt);
  return [
    search,
    course ? eq(certificates.courseId, Number(course)) : undefined,
    template ? eq(certificates.templateId, Number(template)) : undefined,
    state === "revoked" ? isNotNull(certificates.revokedAt) : undefined,
    state === "expired" ? and(notRevoked, lt(certificates.expiresOn, today)) : undefined,
    state === "valid" ? and(notRevoked, or(isNull(certificates.expiresOn), gte(certificates.expiresOn, today))) : undefined,
  ];
}

/**
 * The choices of the list's course and template filters: the courses with certificates on or any issued (a course
 * that turned them off keeps its certificates), and every template, each by title or name.
 */
export function certificateListChoices(db: TenantConn) {
  const issued = db.select({ one: sql`1` }).from(certificates).where(eq(certificates.courseId, courses.id));
  return {
    courses: db
      .select({ id: courses.id, title: courses.title })
      .from(courses)
      .where(or(eq(courses.allowCertificates, true), exists(issued)))
      .orderBy(asc(courses.title), asc(courses.id))
      .all(),
    templates: db
      .select({ id: certificateTemplates.id, name: certificateTemplates.name })
      .from(certificateTemplates)
      .orderBy(asc(certificateTemplates.name), asc(certificateTemplates.id))
      .all(),
  };
}
