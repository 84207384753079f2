import { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_SUBJECTS, ADMIN_AUDIT_VIA } from "../../../db/vocabulary";
import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The audit of what admins did as a list (issue 50; app/utils/list-query.ts): searched by the person's, the actor's
 * address, the group's name, the detail or the address it came from; filtered by action, by how (a page or /api) and
 * by what it is about (a person or a course); newest first, or oldest.
 */
export const AUDIT_LIST: ListSpec<"action" | "via" | "subject", "at"> = {
  filters: {
    action: { kind: "in", values: ADMIN_AUDIT_ACTIONS },
    via: { kind: "in", values: ADMIN_AUDIT_VIA },
    subject: { kind: "in", values: ADMIN_AUDIT_SUBJECTS },
  },
  sorts: ["at"],
  defaultSort: "at",
  defaultDir: () => "desc",
};

export type AuditListQuery = ListQuery<keyof typeof AUDIT_LIST.filters, (typeof AUDIT_LIST.sorts)[number]>;
