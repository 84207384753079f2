import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { certificates, courses, users, type Certificate } from "../../db/tenant";
import { DEFAULT_LAYOUT, templateForCourse } from "./certificate-templates.server";
import { completionOf, cycleStart } from "./completion-cycle.server";
import { courseQuizScore } from "./quiz-results.server";

/**
 * Issuing certificates (docs/decisions/015-certificates.md): once per learner, course and completion cycle,
 * with a fresh public id, the learner's name, the course's title, the score and the template's layout as
 * they are at issue.
 */

// ------------------------------------------------------------------------------------------------
// The score: ONE place to look it up.
// ------------------------------------------------------------------------------------------------

/**
 * The learner's quiz score for a course (out of 100), or null when the course has none: the best score of
 * each quiz lesson, averaged (docs/decisions/013-quizzes.md), in the current completion cycle only (a
 * renewal's certificate shows the renewal's score: docs/decisions/035-recertification.md).
 */
export function certificateScore(db: TenantConn, userId: number, courseId: number): number | null {
  return courseQuizScore(db, userId, courseId, cycleStart(db, userId, courseId));
}
// ------------------------------------------------------------------------------------------------
// Issuing
// ------------------------------------------------------------------------------------------------

/** Crockford base32 without look-alikes: 12 random characters (60 bits), shown as XXXX-XXXX-XXXX. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export function newPublicId() {
  const bytes = crypto.randomBytes(12);
  let out = "";
  for (let i = 0; i < 12; i++) out += ALPHABET[bytes[i] % 32];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

export function learnerName(user: { firstName: string; lastName: string; email: string }) {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/**
 * Issues the learner's certificate for a completed course, once per completion cycle (subscribed to
 * courseCompleted, inside the transaction that recorded the completion). Idempotent: the (user, course,
 * cycle) unique key makes a second call, or a concurrent one, do nothing. The cycle and the expiry day are
 * the completion's (app/models/completion-cycle.server.ts; cycle 1 and no expiry without one). Returns the
 * certificate, or null when the course issues none.
 */
export function issueCertificate(
  tx: TenantConn,
  { userId, courseId, at }: { userId: number; courseId: number; at: Date },
): Certificate | null {
  const course = tx.select().from(courses).where(eq(courses.id, courseId)).get();
  if (!course?.allowCertificates) return null;
  const completion = completionOf(tx, userId, courseId);
  const cycle = completion?.cycle ?? 1;
  const ofCycle = and(eq(certificates.userId, userId), eq(certificates.issuedForCourseId, courseId), eq(certificates.cycle, cycle));
  const existing = tx.select().from(certificates).where(ofCycle).get();
  if (existing) return existing;
  const user = tx.select().from(users).where(eq(users.id, userId)).get();
  if (!user) return null;
  const template = templateForCourse(tx, courseId);
  return insertCertificateOnce(
    tx,
    {
      userId,
      courseId,
      issuedForCourseId: courseId,
      templateId: template?.id ?? null,
      learnerName: learnerName(user),
      courseTitle: course.title,
      locale: user.language ?? "",
      score: certificateScore(tx, userId, courseId),
      layout: template?.layout ?? DEFAULT_LAYOUT,
      issuedAt: at,
      cycle,
      expiresOn: completion?.expiresOn ?? null,
    },
    () => tx.select().from(certificates).where(ofCycle).get(),
  );
}

/**
 * Inserts a certificate (a course's or a learning path's) with a fresh public id, once: when its unique key is
 * taken meanwhile (another path issued it), the one `existing` finds; a public id that collided is drawn again.
 */
export function insertCertificateOnce(
  tx: TenantConn,
  values: Omit<typeof certificates.$inferInsert, "publicId">,
  existing: () => Certificate | undefined,
): Certificate {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = tx
      .insert(certificates)
      .values({ ...values, publicId: newPublicId() })
      .onConflictDoNothing()
      .returning()
      .get();
    if (row) return row;
    // Either the certificate exists (another path issued it) or the random id collided: look, then retry.
    const now = existing();
    if (now) return now;
  }
  throw new Error("could not pick a unique certificate id");
}
