import { LANGUAGES } from "../../utils/i18n";
import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The people management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/user-list.server.ts) and its screen: a role (or none here), a group they are in, active or
 * deactivated, a language (or the organization's default); by name, e-mail address or when added.
 */
export const USER_LIST: ListSpec<"role" | "group" | "status" | "language", "name" | "email" | "created"> = {
  filters: {
    role: { kind: "in", values: ["admin", "learner", "none"] },
    group: { kind: "id" },
    status: { kind: "in", values: ["active", "disabled"] },
    language: { kind: "in", values: [...LANGUAGES, "default"] },
  },
  sorts: ["name", "email", "created"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "created" ? "desc" : "asc"),
};

export type UserListQuery = ListQuery<keyof typeof USER_LIST.filters, (typeof USER_LIST.sorts)[number]>;
