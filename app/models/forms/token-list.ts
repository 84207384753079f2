import { CAPABILITIES } from "../../utils/capabilities";
import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The API tokens list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/auth/api-token-list.server.ts) and its screen: live or expired (a revoked token is deleted, so there is
 * no revoked state to filter by), holding one capability, made for the organization or by a person; by name, when
 * made, last used or expiry, newest first.
 */
export const TOKEN_LIST: ListSpec<"state" | "capability" | "owner", "created" | "name" | "lastUsed" | "expires"> = {
  filters: {
    state: { kind: "in", values: ["active", "expired"] },
    capability: { kind: "in", values: CAPABILITIES },
    owner: { kind: "in", values: ["organization", "person"] },
  },
  sorts: ["created", "name", "lastUsed", "expires"],
  defaultSort: "created",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type TokenListQuery = ListQuery<keyof typeof TOKEN_LIST.filters, (typeof TOKEN_LIST.sorts)[number]>;
