import type { ListQuery, ListSpec } from "../../utils/list-query";

/** The states of an import (db/tenant/user-imports.ts `USER_IMPORT_STATUSES`), here for the browser too. */
export const IMPORT_STATES = ["preview", "queued", "running", "done", "failed"] as const;

/**
 * The organization's past CSV imports as a management list (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/user-import-list.server.ts) and the import screen: by state; by when uploaded, file name or rows.
 */
export const IMPORT_LIST: ListSpec<"status", "created" | "name" | "rows"> = {
  filters: { status: { kind: "in", values: IMPORT_STATES } },
  sorts: ["created", "name", "rows"],
  defaultSort: "created",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type ImportListQuery = ListQuery<keyof typeof IMPORT_LIST.filters, (typeof IMPORT_LIST.sorts)[number]>;
