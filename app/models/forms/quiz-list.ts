import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The quizzes management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/quiz-list.server.ts) and its screen (app/screens/organization-quizzes.tsx): used in a course's
 * lesson or not, with a deadline to come, one passed or none; by title, questions, lessons using it, attempts,
 * deadline, when made or when last changed (newest first by default, as the list was before).
 */
export const QUIZ_LIST: ListSpec<"use" | "deadline", "title" | "questions" | "lessons" | "attempts" | "deadline" | "created" | "updated"> =
  {
    filters: {
      use: { kind: "in", values: ["used", "unused"] },
      deadline: { kind: "in", values: ["open", "passed", "none"] },
    },
    sorts: ["created", "updated", "title", "questions", "lessons", "attempts", "deadline"],
    defaultSort: "created",
    defaultDir: (sort) => (sort === "title" || sort === "deadline" ? "asc" : "desc"),
  };

export type QuizListQuery = ListQuery<keyof typeof QUIZ_LIST.filters, (typeof QUIZ_LIST.sorts)[number]>;
