import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { plannedLimit } from "../../db/planned-limit";
import { preparedOnce } from "../../db/prepared";
import { certificates, type Certificate } from "../../db/tenant";
import { addDays, dayIn, DEFAULT_TIME_ZONE, localMidnight } from "../utils/calendar";
import { contains, type Page } from "../utils/pagination";
import { isExpired } from "./completion-cycle.server";

/**
 * Certificates (issue 12, docs/decisions/015-certificates.md): the certificates issued, once per learner and
 * course when the course is completed, with the template's layout snapshot at issue. This module reads them,
 * revokes and restores them, and says how /api shows one. The rest, by job: `certificate-templates.server.ts`
 * (the templates), `certificate-issuing.server.ts` (issuing, and the score), `certificate-pdf.server.ts` (the
 * PDF's render jobs and file), `certificate-render.server.ts` and `certificate-html.server.ts` (the page).
 */

export type { Certificate };

/** The form of a certificate's public id (`newPublicId`, app/models/certificate-issuing.server.ts): XXXX-XXXX-XXXX. */
export const PUBLIC_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

export function getCertificate(db: TenantConn, id: number) {
  return db.select().from(certificates).where(eq(certificates.id, id)).get();
}

/** A learner's own certificate; another learner's is simply not found. */
export function getOwnCertificate(db: TenantConn, userId: number, id: number) {
  return db
    .select()
    .from(certificates)
    .where(and(eq(certificates.id, id), eq(certificates.userId, userId)))
    .get();
}

export function getCertificateByPublicId(db: TenantConn, publicId: string) {
  const normalized = publicId.trim().toUpperCase();
  if (!PUBLIC_ID_PATTERN.test(normalized)) return undefined;
  return db.select().from(certificates).where(eq(certificates.publicId, normalized)).get();
}

/** The learner's latest certificate of a course (of their latest completion cycle that issued one). */
export function certificateForCourse(db: TenantConn, userId: number, courseId: number) {
  return preparedOnce(db, "certificate.forCourse", () =>
    db
      .select()
      .from(certificates)
      .where(
        and(
          eq(certificates.userId, sql.placeholder("userId")),
          eq(certificates.issuedForCourseId, sql.placeholder("courseId")),
          // A course's, not a path's: the partial unique index (user, course, cycle) is the one read.
          isNull(certificates.issuedForPathId),
        ),
      )
      .orderBy(desc(certificates.cycle))
      .limit(plannedLimit(1))
      .prepare(),
  ).get({ userId, courseId });
}

/** The person's latest certificate of a learning path (issue 49), of the latest completion that issued one. */
export function certificateForPath(db: TenantConn, userId: number, pathId: number) {
  return db
    .select({ id: certificates.id, revokedAt: certificates.revokedAt })
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.issuedForPathId, pathId)))
    .orderBy(desc(certificates.cycle))
    .get();
}

export function listOwnCertificates(db: TenantConn, userId: number) {
  return db
    .select()
    .from(certificates)
    .where(eq(certificates.userId, userId))
    .orderBy(desc(certificates.issuedAt), desc(certificates.id))
    .all();
}

export function listCertificates(db: TenantConn, page: Page, { q }: { q?: string } = {}) {
  const where = q
    ? sql`(${contains(certificates.learnerName, q)} or ${contains(certificates.courseTitle, q)} or ${contains(certificates.publicId, q)})`
    : undefined;
  const total = db.select({ n: count() }).from(certificates).where(where).get()?.n ?? 0;
  const rows = db
    .select()
    .from(certificates)
    .where(where)
    .orderBy(desc(certificates.issuedAt), desc(certificates.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  return { items: rows, total };
}

export function revokeCertificate(db: TenantConn, id: number, reason: string, now = new Date()) {
  return db.update(certificates).set({ revokedAt: now, revokedReason: reason }).where(eq(certificates.id, id)).returning().get();
}

export function restoreCertificate(db: TenantConn, id: number) {
  return db.update(certificates).set({ revokedAt: null, revokedReason: null }).where(eq(certificates.id, id)).returning().get();
}

/**
 * A certificate in /api. `expires_on` is the last local day it is valid on (the organization's zone), and
 * `expires_at` the instant that day ends there, when it expires at all; `expired` is said against `now`.
 */
export function certificateView(
  c: Certificate,
  verificationUrl: string,
  { timeZone, now = new Date() }: { timeZone?: string; now?: Date } = {},
) {
  const zone = timeZone ?? DEFAULT_TIME_ZONE;
  return {
    id: c.id,
    certificate_id: c.publicId,
    user_id: c.userId,
    course_id: c.courseId,
    // A learning path's certificate (issue 49): the path's id, its title as `course_title`.
    path_id: c.issuedForPathId,
    learner_name: c.learnerName,
    course_title: c.courseTitle,
    score: c.score,
    issued_at: c.issuedAt.toISOString(),
    revoked: Boolean(c.revokedAt),
    revoked_at: c.revokedAt?.toISOString() ?? null,
    revoked_reason: c.revokedReason,
    pdf_ready: c.pdfFileId !== null,
    verification_url: verificationUrl,
    expires_on: c.expiresOn,
    expires_at: c.expiresOn ? new Date(localMidnight(addDays(c.expiresOn, 1), zone)).toISOString() : null,
    expired: isExpired(c.expiresOn, dayIn(zone, now)),
  };
}

/** For a course page: the learner's certificate of that course, if one was issued. */
export function courseCertificateSummary(db: TenantConn, userId: number, courseId: number) {
  const c = certificateForCourse(db, userId, courseId);
  return c
    ? { id: c.id, publicId: c.publicId, revoked: Boolean(c.revokedAt), issuedAt: c.issuedAt.toISOString(), expiresOn: c.expiresOn }
    : null;
}
