import type { Resource } from "./resource";
import type { Viewer } from "../access/viewer";
import type { TenantDb } from "../../db/open";
import { may } from "../access/rules";
import { createQuiz, createQuizSchema, deleteQuiz, quizEditorView, updateQuiz, updateQuizSchema } from "./quiz-authoring.server";
import { getQuiz, listQuizzes, quizSummary } from "./quiz.server";
import { takeableQuizIds } from "./quiz-lessons.server";

/**
 * docs/product.md §7 "quizzes": the generic calls. Writing needs write:quiz. Reading: those with read:quiz see every
 * quiz with its questions and answers; learners (learn:course) see only the quizzes they may take, through
 * a quiz lesson they may open, and of those only the summary (never a question or an answer: questions
 * reach learners through their own attempt).
 */
type QuizItem = ReturnType<typeof quizSummary> & { questions?: unknown[] };

function visible(db: TenantDb, viewer: Viewer, q: string, page: { page: number; perPage: number }) {
  if (may(viewer, "read:quiz")) {
    const { items, total } = listQuizzes(db, { q, limit: page.perPage, offset: (page.page - 1) * page.perPage });
    return { items: items.map((r) => quizSummary(db, r.quiz)), total };
  }
  if (!viewer.person) return { items: [], total: 0 };
  const ids = takeableQuizIds(db, viewer);
  const all = listQuizzes(db, { q, limit: 100_000 }).items.filter((r) => ids.has(r.quiz.id));
  return {
    items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map((r) => quizSummary(db, r.quiz)),
    total: all.length,
  };
}

export const quizResource: Resource<QuizItem, typeof createQuizSchema, typeof updateQuizSchema> = {
  read: "learn:course",
  write: "write:quiz",
  createSchema: createQuizSchema,
  updateSchema: updateQuizSchema,
  list: (db, viewer, page) => visible(db, viewer, "", page),
  search: (db, viewer, q, page) => visible(db, viewer, q, page),
  get: (db, viewer, id) => {
    const quiz = getQuiz(db, id);
    if (!quiz) return null;
    if (may(viewer, "read:quiz")) return quizEditorView(db, quiz);
    return viewer.person && takeableQuizIds(db, viewer).has(id) ? quizSummary(db, quiz) : null;
  },
  create: (db, viewer, input) => {
    const result = createQuiz(db, input);
    return result.ok ? { ok: true, value: quizEditorView(db, result.value) } : result;
  },
  update: (db, viewer, id, input) => {
    const result = updateQuiz(db, id, input);
    return result === null ? null : result.ok ? { ok: true, value: quizEditorView(db, result.value) } : result;
  },
  remove: (db, viewer, id) => deleteQuiz(db, id),
};
