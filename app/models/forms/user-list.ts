import { LANGUAGES } from "../../utils/i18n";
import { parseListQuery, type ListQuery, type ListSpec } from "../../utils/list-query";

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

/**
 * The list's search and filters as a bulk action sends them along (issue 50; the confirmation's fields, or
 * `POST /api/users/bulk`'s `filter`): `invalid` when one does not parse, which refuses the action rather than
 * leaving the filter out and widening it.
 */
export function userListFilters(read: (name: string) => unknown): { query: Pick<UserListQuery, "q" | "filters">; invalid: boolean } {
  const url = new URL("http://list/");
  for (const name of ["q", ...Object.keys(USER_LIST.filters)]) {
    const value = read(name);
    if ((typeof value === "string" && value) || typeof value === "number") url.searchParams.set(name, String(value));
  }
  const { query, errors } = parseListQuery(url, USER_LIST);
  return { query: { q: query.q, filters: query.filters }, invalid: errors !== null };
}
