import { listFilters, type ListQuery, type ListSpec } from "../../utils/list-query";
import { COURSE_TYPES } from "../vocabulary";

/**
 * The courses management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/course-list.server.ts) and its screen. Not a .server module: the screen builds its links with it.
 */
export const COURSE_LIST: ListSpec<"category" | "kind" | "state", "position" | "title" | "created" | "updated"> = {
  filters: {
    category: { kind: "id" },
    kind: { kind: "in", values: COURSE_TYPES },
    state: { kind: "in", values: ["published", "draft"] },
  },
  sorts: ["position", "title", "created", "updated"],
  defaultSort: "position",
  defaultDir: (sort) => (sort === "created" || sort === "updated" ? "desc" : "asc"),
};

export type CourseListQuery = ListQuery<keyof typeof COURSE_LIST.filters, (typeof COURSE_LIST.sorts)[number]>;

/** The list's search and filters as a bulk action on courses sends them along: `invalid` refuses the action (app/utils/list-query.ts `listFilters`). */
export const courseListFilters = (read: (name: string) => unknown) => listFilters(COURSE_LIST, read);
