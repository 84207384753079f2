import type { TenantConn } from "~/models/database.server";
import { certificateDay } from "~/models/certificate-html.server";
import { completionStatus } from "~/models/recertification.server";

/**
 * Recertification's part of the learner's pages (issue 34): a completion's days written out on the server in
 * the page's language (the learner's pages carry no date formatting of their own: docs/decisions/034-lighthouse.md).
 */

/** The course page's note on the learner's completion of a course that expires; null when it never does. */
export function courseCompletionNote(db: TenantConn, userId: number, courseId: number, language: string, now = new Date()) {
  const status = completionStatus(db, userId, courseId, now);
  if (!status?.expiresOn) return null;
  return {
    completedOn: certificateDay(status.completedOn, language),
    expiresOn: certificateDay(status.expiresOn, language),
    expired: status.expired,
    renewing: status.renewing,
    canRetake: status.canRetake,
  };
}
export type CourseCompletionNote = NonNullable<ReturnType<typeof courseCompletionNote>>;

/** A certificate's validity written out: the day it is valid until, or expired on; null when it never expires. */
export function validityNote(expiresOn: string | null, expired: boolean, language: string) {
  return expiresOn ? { date: certificateDay(expiresOn, language), expired } : null;
}
