import { LANGUAGES } from "../../utils/i18n";
import { listFilters, type ListQuery, type ListSpec } from "../../utils/list-query";

/**
 * The "last active" filter's choices: within the last 7, 30 or 90 days, not for more than 90, or never (no sign-in
 * kept: app/models/auth/session.server.ts `markActive`).
 */
export const SEEN = ["7d", "30d", "90d", "over_90d", "never"] as const;
/** The days of each "within" choice, and of "over". */
export const SEEN_DAYS: Record<Exclude<(typeof SEEN)[number], "never">, number> = { "7d": 7, "30d": 30, "90d": 90, over_90d: 90 };

/**
 * The people management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/user-list.server.ts) and its screen: a role (or none here), a group they are in, active or
 * deactivated, a language (or the organization's default), when last active; by name, e-mail address, when added or
 * when last active.
 */
export const USER_LIST: ListSpec<"role" | "group" | "status" | "language" | "seen", "name" | "email" | "created" | "seen"> = {
  filters: {
    role: { kind: "in", values: ["admin", "learner", "none"] },
    group: { kind: "id" },
    status: { kind: "in", values: ["active", "disabled"] },
    language: { kind: "in", values: [...LANGUAGES, "default"] },
    seen: { kind: "in", values: SEEN },
  },
  sorts: ["name", "email", "created", "seen"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "created" || sort === "seen" ? "desc" : "asc"),
};

export type UserListQuery = ListQuery<keyof typeof USER_LIST.filters, (typeof USER_LIST.sorts)[number]>;

/**
 * The list's search and filters as a bulk action sends them along (issue 50; the confirmation's fields, or
 * `POST /api/users/bulk`'s `filter`): `invalid` when one does not parse, which refuses the action rather than
 * leaving the filter out and widening it.
 */
export function userListFilters(read: (name: string) => unknown): { query: Pick<UserListQuery, "q" | "filters">; invalid: boolean } {
  return listFilters(USER_LIST, read);
}
