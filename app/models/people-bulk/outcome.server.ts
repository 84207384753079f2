import type { AuditVia } from "../admin-audit.server";
import type { AuthRealm } from "../auth/realm.server";
import { outcome as emptyOutcome, refuse, type SliceOutcome as BulkOutcome } from "../bulk-job.server";

/**
 * What a slice of a bulk action on people answers (issue 50; app/models/people-bulk/steps.server.ts runs them): each
 * person done, left as they were (nothing to change), or refused with a reason.
 */
export type BulkRefusal =
  | "gone"
  | "not_managed"
  | "not_member"
  | "self"
  // Mailing the invitation again (app/models/people-bulk/invitations.server.ts):
  | "signed_in"
  | "deactivated"
  | "external"
  | "recently_invited"
  | "mail_failed";

export type SliceOutcome = BulkOutcome<BulkRefusal>;

export interface BulkParams {
  groupId?: number;
  courseId?: number;
  pathId?: number;
  dueDate?: string;
  role?: "learner" | "admin" | null;
}

/** How the slice came (a page or /api), its moment, and, for mailing invitations, the organization's sign-in realm. */
export type SliceContext = { via: AuditVia; now: Date; realm?: AuthRealm };

export const outcome = (): SliceOutcome => emptyOutcome<BulkRefusal>();

/** Counts `n` people refused for `reason` (app/models/bulk-job.server.ts). */
export { refuse };
