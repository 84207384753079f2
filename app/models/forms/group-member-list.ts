import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * A group's members as a management list (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/group-member-list.server.ts) and its component (app/components/group-members.tsx): the group's admins
 * or its other members, active or deactivated people; by name, e-mail address or the order they were added in.
 */
export const GROUP_MEMBER_LIST: ListSpec<"role" | "status", "name" | "email" | "added"> = {
  filters: {
    role: { kind: "in", values: ["admin", "member"] },
    status: { kind: "in", values: ["active", "disabled"] },
  },
  sorts: ["name", "email", "added"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "added" ? "desc" : "asc"),
};

export type GroupMemberListQuery = ListQuery<keyof typeof GROUP_MEMBER_LIST.filters, (typeof GROUP_MEMBER_LIST.sorts)[number]>;
