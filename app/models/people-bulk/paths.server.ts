import { eq, inArray } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { learningPaths, users } from "../../../db/tenant";
import type { Viewer } from "../../access/viewer";
import { recordAudit } from "../admin-audit.server";
import { assignPathToPeople } from "../paths/assignments.server";
import { outcome, refuse, type BulkParams, type SliceContext, type SliceOutcome } from "./outcome.server";

/**
 * A learning path assigned to each person on their own, due on one day (issue 50's bulk action), as a path's
 * assignments screen assigns it to a person (app/models/paths/assignments.server.ts, whose checks of the path and
 * the viewer the job made before its first slice), a slice at once (`assignPathToPeople`): someone it is assigned
 * to on their own already is left as they are; each person assigned is in the audit with the path and the day.
 */
export function pathSlice(db: TenantConn, viewer: Viewer, params: BulkParams, ids: number[], { via, now }: SliceContext): SliceOutcome {
  const o = outcome();
  const emails = new Map(
    db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, ids))
      .all()
      .map((r) => [r.id, r.email] as const),
  );
  refuse(o, "gone", ids.length - emails.size);
  const assigned = assignPathToPeople(db, viewer, { pathId: params.pathId!, userIds: [...emails.keys()], dueDate: params.dueDate! }, now);
  if (!assigned.ok) {
    refuse(o, "not_managed", emails.size);
    return o;
  }
  o.unchanged += assigned.already.length;
  const title =
    db.select({ title: learningPaths.title }).from(learningPaths).where(eq(learningPaths.id, params.pathId!)).get()?.title ?? "";
  recordAudit(
    db,
    viewer,
    via,
    assigned.made.map((r) => ({
      action: "path_assigned" as const,
      subject: { id: r.userId, email: emails.get(r.userId) ?? "" },
      detail: `${title} · ${params.dueDate}`,
    })),
    now,
  );
  o.done += assigned.made.length;
  return o;
}
