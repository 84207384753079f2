import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { certificates, certificateTemplates, learningPaths, pathEnrolments, userBadges, users, type Certificate } from "../../../db/tenant";
import { insertCertificateOnce, learnerName } from "../certificate-issuing.server";
import { DEFAULT_LAYOUT } from "../certificate-templates.server";
import type { PathCompleted } from "../events.server";
import { award, recordActiveDay } from "../points.server";

/*
 * What a learning path gives when it is done (issue 49, docs/decisions/045-learning-paths.md), subscribed to
 * `pathCompleted` inside the transaction that marked it: its own certificate (once per person, path and
 * completion cycle, verifiable like a course's), the "path completed" points (the path's own number when it sets
 * one) and the badge it names. Each is idempotent: a second event for the same cycle changes nothing.
 */

/** The path's certificate for this completion, issued once; null when the path issues none. */
export function issuePathCertificate(tx: TenantConn, { userId, pathId, at, cycle }: PathCompleted): Certificate | null {
  const path = tx.select().from(learningPaths).where(eq(learningPaths.id, pathId)).get();
  if (!path?.allowCertificates) return null;
  const ofCycle = and(eq(certificates.userId, userId), eq(certificates.issuedForPathId, pathId), eq(certificates.cycle, cycle));
  const existing = tx.select().from(certificates).where(ofCycle).get();
  if (existing) return existing;
  const user = tx.select().from(users).where(eq(users.id, userId)).get();
  if (!user) return null;
  const own = path.certificateTemplateId
    ? tx.select().from(certificateTemplates).where(eq(certificateTemplates.id, path.certificateTemplateId)).get()
    : undefined;
  const template = own ?? tx.select().from(certificateTemplates).where(eq(certificateTemplates.isDefault, true)).get();
  const enrolment = tx
    .select({ expiresOn: pathEnrolments.expiresOn })
    .from(pathEnrolments)
    .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId)))
    .get();
  return insertCertificateOnce(
    tx,
    {
      userId,
      courseId: null,
      // A path's certificate is no course's: the one-per-course rule leaves it out (issued_for_path_id is set).
      issuedForCourseId: 0,
      issuedForPathId: pathId,
      templateId: template?.id ?? null,
      learnerName: learnerName(user),
      courseTitle: path.title,
      locale: user.language ?? "",
      score: null,
      layout: template?.layout ?? DEFAULT_LAYOUT,
      issuedAt: at,
      cycle,
      expiresOn: enrolment?.expiresOn ?? null,
    },
    () => tx.select().from(certificates).where(ofCycle).get(),
  );
}

/** The "path completed" points, once per path (renewals earn none, as a course's), and the path's badge. */
export function rewardPathCompleted(tx: TenantConn, { userId, pathId, at }: PathCompleted) {
  const path = tx
    .select({ points: learningPaths.points, badgeId: learningPaths.badgeId })
    .from(learningPaths)
    .where(eq(learningPaths.id, pathId))
    .get();
  if (!path) return;
  recordActiveDay(tx, userId, at);
  award(tx, { userId, activity: "path_completed", ref: `path:${pathId}`, at, ...(path.points > 0 ? { points: path.points } : {}) });
  if (path.badgeId !== null)
    tx.insert(userBadges)
      .values({ userId, badgeId: path.badgeId, uid: randomBytes(16).toString("hex"), awardedAt: at })
      .onConflictDoNothing()
      .run();
}
