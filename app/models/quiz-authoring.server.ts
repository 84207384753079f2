import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import { quizQuestions, quizzes, type Quiz, type QuizOption, type QuizQuestion } from "../../db/tenant";
import { questionSchema, type QuestionInput } from "./forms/quizzes";
import { moveRow, nextPosition, type Move } from "./ordering.server";
import type { WriteResult } from "./resource";
import { getQuiz, listQuestions, questionCount, quizSummary } from "./quiz.server";

/**
 * Writing quizzes (docs/decisions/013-quizzes.md): a quiz's settings and its questions, as the editor and
 * /api change them, and the editor's views (answers included: never for learners). The pass requirement
 * never exceeds the number of questions.
 */

const title = z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200);

/** A quiz's settings. `deadline` is an ISO date-time (or null for none). */
export const quizFieldsSchema = z.object({
  title,
  description: z.string().max(10_000).default(""),
  deadline: z.coerce.date({ invalid_type_error: "validation.invalid" }).nullable().default(null),
  /** Pass requirement: the minimum number of correct answers. */
  pass_min: z.number({ invalid_type_error: "validation.notANumber" }).int().min(0).max(1000).default(0),
  /** null: unlimited retakes (the default). */
  max_attempts: z.number({ invalid_type_error: "validation.notANumber" }).int().min(1).max(1000).nullable().default(null),
});

/** `POST /api/quizzes`: the settings and, optionally, the questions in order. */
export const createQuizSchema = quizFieldsSchema.extend({ questions: z.array(questionSchema).max(200).default([]) });
/** `PUT /api/quizzes/{id}`: any settings; `questions`, when given, replaces all questions (past results keep their snapshot). */
export const updateQuizSchema = quizFieldsSchema
  .partial()
  .extend({ questions: z.array(questionSchema).max(200).optional() })
  .transform((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as Partial<z.infer<typeof createQuizSchema>>);

function questionColumns(input: QuestionInput) {
  let options: QuizOption[] = [];
  if (input.type === "single" || input.type === "multiple")
    options = input.options.map((o, i) => ({ id: String(i + 1), text: o.text, correct: o.correct }));
  if (input.type === "true_false") {
    options = [
      { id: "true", text: "", correct: input.correct_answer === true },
      { id: "false", text: "", correct: input.correct_answer === false },
    ];
  }
  return {
    type: input.type,
    prompt: input.prompt,
    explanation: input.explanation,
    options,
    accepted: input.type === "text" ? input.accepted : [],
  };
}

function checkPassMin(passMin: number, questions: number): WriteResult<null> {
  return passMin > questions ? { ok: false, field: "pass_min", message: "quiz.errors.passMinTooHigh" } : { ok: true, value: null };
}

function quizColumns(input: Partial<z.infer<typeof quizFieldsSchema>>) {
  const out: Partial<typeof quizzes.$inferInsert> = {};
  if (input.title !== undefined) out.title = input.title;
  if (input.description !== undefined) out.description = input.description;
  if (input.deadline !== undefined) out.deadline = input.deadline;
  if (input.pass_min !== undefined) out.passMin = input.pass_min;
  if (input.max_attempts !== undefined) out.maxAttempts = input.max_attempts;
  return out;
}

function replaceQuestions(tx: TenantConn, quizId: number, questions: QuestionInput[]) {
  tx.delete(quizQuestions).where(eq(quizQuestions.quizId, quizId)).run();
  questions.forEach((q, position) =>
    tx
      .insert(quizQuestions)
      .values({ ...questionColumns(q), quizId, position })
      .run(),
  );
}

export function createQuiz(db: TenantConn, input: z.infer<typeof createQuizSchema>): WriteResult<Quiz> {
  const checked = checkPassMin(input.pass_min, input.questions.length);
  if (!checked.ok) return checked;
  return db.transaction((tx) => {
    const quiz = tx
      .insert(quizzes)
      .values({ ...quizColumns(input), title: input.title })
      .returning()
      .get();
    replaceQuestions(tx, quiz.id, input.questions);
    return { ok: true as const, value: quiz };
  });
}

export function updateQuiz(db: TenantConn, id: number, input: Partial<z.infer<typeof createQuizSchema>>): WriteResult<Quiz> | null {
  const existing = getQuiz(db, id);
  if (!existing) return null;
  const values = quizColumns(input);
  const passMin = values.passMin ?? existing.passMin;
  const checked = checkPassMin(passMin, input.questions ? input.questions.length : questionCount(db, id));
  if (!checked.ok) return checked;
  return db.transaction((tx) => {
    if (input.questions) replaceQuestions(tx, id, input.questions);
    const row = tx
      .update(quizzes)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(quizzes.id, id))
      .returning()
      .get()!;
    return { ok: true as const, value: row };
  });
}

export function deleteQuiz(db: TenantConn, id: number) {
  // Its quiz lessons stay (their course keeps its order) and show "could not be loaded" until relinked.
  return db.delete(quizzes).where(eq(quizzes.id, id)).run().changes > 0;
}

export function getQuestion(db: TenantConn, quizId: number, questionId: number) {
  return db
    .select()
    .from(quizQuestions)
    .where(and(eq(quizQuestions.id, questionId), eq(quizQuestions.quizId, quizId)))
    .get();
}

export function addQuestion(db: TenantConn, quizId: number, input: QuestionInput) {
  return db
    .insert(quizQuestions)
    .values({ ...questionColumns(input), quizId, position: nextPosition(db, quizQuestions, eq(quizQuestions.quizId, quizId)) })
    .returning()
    .get();
}

export function updateQuestion(db: TenantConn, quizId: number, questionId: number, input: QuestionInput) {
  return db
    .update(quizQuestions)
    .set({ ...questionColumns(input), updatedAt: new Date() })
    .where(and(eq(quizQuestions.id, questionId), eq(quizQuestions.quizId, quizId)))
    .returning()
    .get();
}

/** Refused when the pass requirement would then exceed the number of questions. */
export function deleteQuestion(db: TenantConn, quizId: number, questionId: number): WriteResult<null> {
  const quiz = getQuiz(db, quizId);
  if (!quiz || !getQuestion(db, quizId, questionId)) return { ok: false, field: "question", message: "validation.invalid" };
  const checked = checkPassMin(quiz.passMin, questionCount(db, quizId) - 1);
  if (!checked.ok) return checked;
  db.delete(quizQuestions)
    .where(and(eq(quizQuestions.id, questionId), eq(quizQuestions.quizId, quizId)))
    .run();
  return { ok: true, value: null };
}

export function moveQuestion(db: TenantConn, quizId: number, questionId: number, to: Move) {
  return moveRow(db, quizQuestions, questionId, to, eq(quizQuestions.quizId, quizId));
}

/** The editor's view of a question, answers included (never for learners). */
export function questionEditorView(q: QuizQuestion) {
  return {
    id: q.id,
    type: q.type,
    prompt: q.prompt,
    explanation: q.explanation,
    options: q.type === "single" || q.type === "multiple" ? q.options.map((o) => ({ text: o.text, correct: o.correct })) : [],
    correct_answer: q.type === "true_false" ? q.options.some((o) => o.id === "true" && o.correct) : null,
    accepted: q.accepted,
    position: q.position,
  };
}

/** The editor's view of a quiz (GET /api/quizzes/{id} with write:quiz): everything, answers included. */
export function quizEditorView(db: TenantConn, quiz: Quiz) {
  return { ...quizSummary(db, quiz), questions: listQuestions(db, quiz.id).map(questionEditorView) };
}
