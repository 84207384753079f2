import { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_VIA } from "../../../db/vocabulary";
import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The audit of what admins did as a list (issue 50; app/utils/list-query.ts): searched by the person's, the actor's
 * address, the group's name or the detail; filtered by action and by how (a page or /api); newest first, or oldest.
 */
export const AUDIT_LIST: ListSpec<"action" | "via", "at"> = {
  filters: { action: { kind: "in", values: ADMIN_AUDIT_ACTIONS }, via: { kind: "in", values: ADMIN_AUDIT_VIA } },
  sorts: ["at"],
  defaultSort: "at",
  defaultDir: () => "desc",
};

export type AuditListQuery = ListQuery<keyof typeof AUDIT_LIST.filters, (typeof AUDIT_LIST.sorts)[number]>;
