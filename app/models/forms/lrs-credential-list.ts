import type { ListQuery, ListSpec } from "../../utils/list-query";
import { XAPI_FORM_SCOPES, XAPI_FORM_VERSIONS } from "./xapi-credentials";

/**
 * The LRS credentials list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/xapi/credential-list.server.ts) and its screen: live, revoked or expired; reading and writing all or
 * writing its own; the xAPI version; by name, when made, last used or expiry, newest first.
 */
export const LRS_CREDENTIAL_LIST: ListSpec<"state" | "scope" | "version", "created" | "name" | "lastUsed" | "expires"> = {
  filters: {
    state: { kind: "in", values: ["active", "revoked", "expired"] },
    scope: { kind: "in", values: XAPI_FORM_SCOPES },
    version: { kind: "in", values: XAPI_FORM_VERSIONS },
  },
  sorts: ["created", "name", "lastUsed", "expires"],
  defaultSort: "created",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type LrsCredentialListQuery = ListQuery<keyof typeof LRS_CREDENTIAL_LIST.filters, (typeof LRS_CREDENTIAL_LIST.sorts)[number]>;
