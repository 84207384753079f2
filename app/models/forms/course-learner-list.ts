import type { ListQuery, ListSpec } from "../../utils/list-query";

/** Where a learner stands with a course: nothing done yet, some lessons, or the course completed. */
export const LEARNER_STATES = ["not_started", "in_progress", "completed"] as const;
export type LearnerState = (typeof LEARNER_STATES)[number];

/**
 * A course's learners as a management list (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/course-learner-list.server.ts) and its screen: their state, a group they are in, assigned the course or
 * not; by name, progress, last activity or when they completed it.
 */
export const COURSE_LEARNER_LIST: ListSpec<"state" | "group" | "assigned", "name" | "progress" | "activity" | "completed"> = {
  filters: {
    state: { kind: "in", values: LEARNER_STATES },
    group: { kind: "id" },
    assigned: { kind: "in", values: ["yes", "no"] },
  },
  sorts: ["name", "progress", "activity", "completed"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type CourseLearnerListQuery = ListQuery<keyof typeof COURSE_LEARNER_LIST.filters, (typeof COURSE_LEARNER_LIST.sorts)[number]>;
