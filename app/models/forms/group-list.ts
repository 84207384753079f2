import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The groups management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/group-list.server.ts) and its screen: groups kept by rules or by hand; by name, members or when made.
 */
export const GROUP_LIST: ListSpec<"kind", "name" | "members" | "created"> = {
  filters: { kind: { kind: "in", values: ["rules", "manual"] } },
  sorts: ["name", "members", "created"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type GroupListQuery = ListQuery<keyof typeof GROUP_LIST.filters, (typeof GROUP_LIST.sorts)[number]>;
