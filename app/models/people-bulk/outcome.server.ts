import type { AuditVia } from "../admin-audit.server";
import type { AuthRealm } from "../auth/realm.server";

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

export interface SliceOutcome {
  done: number;
  unchanged: number;
  refused: Partial<Record<BulkRefusal, number>>;
}

export interface BulkParams {
  groupId?: number;
  courseId?: number;
  pathId?: number;
  dueDate?: string;
  role?: "learner" | "admin" | null;
}

/** How the slice came (a page or /api), its moment, and, for mailing invitations, the organization's sign-in realm. */
export type SliceContext = { via: AuditVia; now: Date; realm?: AuthRealm };

export const outcome = (): SliceOutcome => ({ done: 0, unchanged: 0, refused: {} });

export const refuse = (o: SliceOutcome, reason: BulkRefusal, n = 1) => {
  if (n > 0) o.refused[reason] = (o.refused[reason] ?? 0) + n;
};
