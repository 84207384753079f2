import type { ListQuery, ListSpec } from "../../utils/list-query";

/** Where a person stands with an assignment, and "left" for someone no longer in its group. */
export const PERSON_STATES = ["not_started", "in_progress", "overdue", "done", "left"] as const;
export type PersonState = (typeof PERSON_STATES)[number];

/**
 * One assignment's people as a management list (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/assignment-reports.server.ts `assignmentPeoplePage`) and the assignments screen: by state; by name,
 * due day or state (in the order above). The assignment itself is the screen's `assignment` parameter.
 */
export const ASSIGNMENT_PEOPLE_LIST: ListSpec<"state", "name" | "due" | "state"> = {
  filters: { state: { kind: "in", values: PERSON_STATES } },
  sorts: ["name", "due", "state"],
  defaultSort: "name",
  defaultDir: () => "asc",
};

export type AssignmentPeopleQuery = ListQuery<keyof typeof ASSIGNMENT_PEOPLE_LIST.filters, (typeof ASSIGNMENT_PEOPLE_LIST.sorts)[number]>;
