import type { Resource, ResourceScope } from "../kernel/resource.server";
import type { Learner } from "./learning.server";
import {
  createQuiz,
  createQuizSchema,
  deleteQuiz,
  getQuiz,
  listQuizzes,
  quizEditorView,
  quizSummary,
  takeableQuizIds,
  updateQuiz,
  updateQuizSchema,
} from "./quiz.server";

/**
 * Spec §7 "quizzes": the generic calls. Writing needs write:quiz. Reading: those with read:quiz see every
 * quiz with its questions and answers; learners (learn:course) see only the quizzes they may take, through
 * a quiz lesson they may open, and of those only the summary (never a question or an answer: questions
 * reach learners through their own attempt).
 */
type QuizItem = ReturnType<typeof quizSummary> & { questions?: unknown[] };

function learnerOf(scope: ResourceScope): Learner | null {
  return scope.viewer.person ? { id: scope.viewer.person.id, canPreview: false } : null;
}

function visible(scope: ResourceScope, q: string, page: { page: number; perPage: number }) {
  if (scope.viewer.capabilities.has("read:quiz")) {
    const { items, total } = listQuizzes(scope.db, { q, limit: page.perPage, offset: (page.page - 1) * page.perPage });
    return { items: items.map((r) => quizSummary(scope.db, r.quiz)), total };
  }
  const learner = learnerOf(scope);
  if (!learner) return { items: [], total: 0 };
  const ids = takeableQuizIds(scope.db, learner);
  const all = listQuizzes(scope.db, { q, limit: 100_000 }).items.filter((r) => ids.has(r.quiz.id));
  return { items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map((r) => quizSummary(scope.db, r.quiz)), total: all.length };
}

export const quizResource: Resource<QuizItem, typeof createQuizSchema, typeof updateQuizSchema> = {
  read: "learn:course",
  write: "write:quiz",
  createSchema: createQuizSchema,
  updateSchema: updateQuizSchema,
  list: (scope, page) => visible(scope, "", page),
  search: (scope, q, page) => visible(scope, q, page),
  get: (scope, id) => {
    const quiz = getQuiz(scope.db, id);
    if (!quiz) return null;
    if (scope.viewer.capabilities.has("read:quiz")) return quizEditorView(scope.db, quiz);
    const learner = learnerOf(scope);
    return learner && takeableQuizIds(scope.db, learner).has(id) ? quizSummary(scope.db, quiz) : null;
  },
  create: (scope, input) => {
    const result = createQuiz(scope.db, input);
    return result.ok ? { ok: true, value: quizEditorView(scope.db, result.value) } : result;
  },
  update: (scope, id, input) => {
    const result = updateQuiz(scope.db, id, input);
    return result === null ? null : result.ok ? { ok: true, value: quizEditorView(scope.db, result.value) } : result;
  },
  remove: (scope, id) => deleteQuiz(scope.db, id),
};
