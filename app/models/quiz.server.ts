import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, max, sql } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import {
  courses,
  lessons,
  quizAnswers,
  quizAttempts,
  quizLessons,
  quizQuestions,
  quizzes,
  users,
  type Course,
  type Lesson,
  type QuestionSnapshot,
  type Quiz,
  type QuizAttempt,
  type QuizOption,
  type QuizQuestion,
} from "../../db/tenant";
import { contains } from "../utils/pagination";
import { publish } from "./events.server";
import { isLessonHidden, lessonAccess, published } from "../access/courses";
import { mayPreview } from "../access/rules";
import type { Viewer } from "../access/viewer";
import { completeLesson } from "./learning.server";
import { quizRenewalSince } from "./completion-cycle.server";
import { markLessonStarted } from "./lesson-state.server";
import { createLesson } from "./lesson.server";
import { moveRow, nextPosition, type Move } from "./ordering.server";
import { questionSchema, type QuestionInput } from "./forms/quizzes";

/**
 * Quizzes (docs/product.md §3 Quiz, §4 quiz states, §7 Quizzes; docs/decisions/013-quizzes.md): authoring, and the
 * learner's attempts. One grading function (`endAttempt`) serves pages and /api. Nothing that reveals a
 * correct answer leaves this module for a learner before their attempt has ended: the learner views below
 * are built field by field from what may be shown.
 */

/* ----------------------------------------------------------------------------------------- schemas */

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

export { questionSchema, type QuestionInput } from "./forms/quizzes";

/** `POST /api/quizzes`: the settings and, optionally, the questions in order. */
export const createQuizSchema = quizFieldsSchema.extend({ questions: z.array(questionSchema).max(200).default([]) });
/** `PUT /api/quizzes/{id}`: any settings; `questions`, when given, replaces all questions (past results keep their snapshot). */
export const updateQuizSchema = quizFieldsSchema
  .partial()
  .extend({ questions: z.array(questionSchema).max(200).optional() })
  .transform((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as Partial<z.infer<typeof createQuizSchema>>);

export type Result<V> = { ok: true; value: V } | { ok: false; field: string; message: string };

/* ----------------------------------------------------------------------------------------- authoring */

export function getQuiz(db: TenantConn, id: number) {
  return db.select().from(quizzes).where(eq(quizzes.id, id)).get();
}

export function listQuestions(db: TenantConn, quizId: number) {
  return db
    .select()
    .from(quizQuestions)
    .where(eq(quizQuestions.quizId, quizId))
    .orderBy(asc(quizQuestions.position), asc(quizQuestions.id))
    .all();
}

function questionCount(db: TenantConn, quizId: number) {
  return db.select({ n: count() }).from(quizQuestions).where(eq(quizQuestions.quizId, quizId)).get()?.n ?? 0;
}

/** Quizzes with their number of questions and attempts, optionally filtered by title. */
export function listQuizzes(db: TenantConn, { q = "", limit = 100, offset = 0 }: { q?: string; limit?: number; offset?: number } = {}) {
  const where = q.trim() ? contains(quizzes.title, q.trim()) : undefined;
  const rows = db
    .select({
      quiz: quizzes,
      questions: sql<number>`(select count(*) from quiz_questions qq where qq.quiz_id = ${quizzes.id})`,
      attempts: sql<number>`(select count(*) from quiz_attempts qa where qa.quiz_id = ${quizzes.id} and qa.ended_at is not null)`,
      lessons: sql<number>`(select count(*) from quiz_lessons ql where ql.quiz_id = ${quizzes.id})`,
    })
    .from(quizzes)
    .where(where)
    .orderBy(desc(quizzes.createdAt), desc(quizzes.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(quizzes).where(where).get()?.n ?? 0;
  return { items: rows, total };
}

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

function checkPassMin(passMin: number, questions: number): Result<null> {
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

export function createQuiz(db: TenantConn, input: z.infer<typeof createQuizSchema>): Result<Quiz> {
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

export function updateQuiz(db: TenantConn, id: number, input: Partial<z.infer<typeof createQuizSchema>>): Result<Quiz> | null {
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
export function deleteQuestion(db: TenantConn, quizId: number, questionId: number): Result<null> {
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

/** What anyone who may take a quiz may know about it before starting. */
export function quizSummary(db: TenantConn, quiz: Quiz) {
  return {
    id: quiz.id,
    title: quiz.title,
    description: quiz.description,
    deadline: quiz.deadline?.toISOString() ?? null,
    pass_min: quiz.passMin,
    max_attempts: quiz.maxAttempts,
    question_count: questionCount(db, quiz.id),
    created_at: quiz.createdAt.toISOString(),
    updated_at: quiz.updatedAt.toISOString(),
  };
}

/** Creates a `quiz` lesson at the end of the course, showing this quiz. */
export function attachQuiz(db: TenantConn, quizId: number, courseId: number, lessonTitle?: string): Result<Lesson> {
  const quiz = getQuiz(db, quizId);
  if (!quiz) return { ok: false, field: "quiz_id", message: "validation.invalid" };
  return db.transaction((tx) => {
    const created = createLesson(tx, {
      course_id: courseId,
      title: lessonTitle?.trim() || quiz.title,
      kind: "quiz",
      body: "",
      file_id: null,
      video_url: null,
      duration_seconds: null,
    });
    if (!created.ok) return created;
    tx.insert(quizLessons).values({ lessonId: created.value.id, quizId }).run();
    return created;
  });
}

/** Points an existing `quiz` lesson (e.g. one added on the course screen) at this quiz. */
export function linkQuizLesson(db: TenantConn, quizId: number, lessonId: number): Result<Lesson> {
  const lesson = db.select().from(lessons).where(eq(lessons.id, lessonId)).get();
  if (!lesson || lesson.kind !== "quiz" || !getQuiz(db, quizId)) return { ok: false, field: "lesson_id", message: "validation.invalid" };
  db.transaction((tx) => {
    tx.delete(quizLessons).where(eq(quizLessons.lessonId, lessonId)).run();
    tx.insert(quizLessons).values({ lessonId, quizId }).run();
  });
  return { ok: true, value: lesson };
}

/** A lesson that is no longer a `quiz` lesson stops pointing at a quiz (its past attempts stay). */
export function unlinkQuizLesson(db: TenantConn, lessonId: number) {
  db.delete(quizLessons).where(eq(quizLessons.lessonId, lessonId)).run();
}

/** Quiz lessons that show no quiz yet (added on the course screen, or whose quiz was deleted). */
export function unlinkedQuizLessons(db: TenantConn) {
  return db
    .select({ lessonId: lessons.id, lessonTitle: lessons.title, courseTitle: courses.title })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .leftJoin(quizLessons, eq(quizLessons.lessonId, lessons.id))
    .where(and(eq(lessons.kind, "quiz"), isNull(quizLessons.quizId)))
    .orderBy(asc(courses.title), asc(lessons.position))
    .all();
}

export function quizIdOfLesson(db: TenantConn, lessonId: number) {
  return db.select({ quizId: quizLessons.quizId }).from(quizLessons).where(eq(quizLessons.lessonId, lessonId)).get()?.quizId ?? null;
}

/** The courses and lessons a quiz is used in. */
export function quizUsage(db: TenantConn, quizId: number) {
  return db
    .select({
      lessonId: lessons.id,
      lessonTitle: lessons.title,
      courseId: courses.id,
      courseTitle: courses.title,
      allowQuizzes: courses.allowQuizzes,
    })
    .from(quizLessons)
    .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(eq(quizLessons.quizId, quizId))
    .orderBy(asc(courses.title), asc(lessons.position))
    .all();
}

/* ----------------------------------------------------------------------------------------- who may take it */

/**
 * The lesson through which this learner takes the quiz: the given one when it shows this quiz and the
 * learner may open it, else the first such lesson of a published course. Learners take quizzes only
 * through courses they may open; editors may also take them outside any course (lesson null).
 */
export function lessonForTaking(
  db: TenantConn,
  viewer: Viewer,
  quizId: number,
  preferredLessonId?: number | null,
): { lesson: Lesson; course: Course } | null | "none" {
  const rows = db
    .select({ lesson: lessons, course: courses })
    .from(quizLessons)
    .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(and(eq(quizLessons.quizId, quizId), mayPreview(viewer) ? undefined : published))
    .orderBy(asc(courses.position), asc(courses.id), asc(lessons.position))
    .all();
  const usable = rows.filter((r) => !isLessonHidden(viewer, r.course, r.lesson) && lessonAccess(db, viewer, r.course, r.lesson).allowed);
  const chosen = usable.find((r) => r.lesson.id === preferredLessonId) ?? (preferredLessonId ? undefined : usable[0]);
  if (chosen) return chosen;
  return mayPreview(viewer) && !preferredLessonId ? null : "none";
}

/** Quizzes a learner may take (through a lesson they may open), for GET /api/quizzes. */
export function takeableQuizIds(db: TenantConn, viewer: Viewer) {
  const rows = db
    .select({ quizId: quizLessons.quizId, lesson: lessons, course: courses })
    .from(quizLessons)
    .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(and(published, eq(courses.allowQuizzes, true)))
    .all();
  const ids = new Set<number>();
  for (const r of rows) if (!ids.has(r.quizId) && lessonAccess(db, viewer, r.course, r.lesson).allowed) ids.add(r.quizId);
  return ids;
}

/* ----------------------------------------------------------------------------------------- attempts */

export type QuizRefusal =
  "deadline_passed" | "no_attempts_left" | "already_passed" | "no_questions" | "ended" | "not_found" | "invalid_answer";

export class QuizError extends Error {
  constructor(
    public code: QuizRefusal,
    public status = 403,
  ) {
    super(code);
  }
}

function deadlinePassed(quiz: Quiz, now: Date) {
  return quiz.deadline !== null && now.getTime() > quiz.deadline.getTime();
}

function snapshot(questions: QuizQuestion[]): QuestionSnapshot[] {
  return questions.map((q) => ({
    id: q.id,
    type: q.type,
    prompt: q.prompt,
    explanation: q.explanation,
    options: q.options,
    accepted: q.accepted,
  }));
}

export function openAttempt(db: TenantConn, quizId: number, userId: number) {
  return db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quizId), eq(quizAttempts.userId, userId), isNull(quizAttempts.endedAt)))
    .get();
}

/**
 * A learner's ended attempts of a quiz, oldest first. While they renew a completion of a course that shows
 * it (recertification, app/models/completion-cycle.server.ts `quizRenewalSince`), only the attempts started
 * since the renewal opened count: a pass before it belongs to the earlier completion.
 */
export function endedAttempts(db: TenantConn, quizId: number, userId: number) {
  const since = quizRenewalSince(db, quizId, userId);
  return db
    .select()
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.quizId, quizId),
        eq(quizAttempts.userId, userId),
        isNotNull(quizAttempts.endedAt),
        since ? gte(quizAttempts.startedAt, since) : undefined,
      ),
    )
    .orderBy(asc(quizAttempts.attemptNumber))
    .all();
}

export function getAttempt(db: TenantConn, id: number) {
  return db.select().from(quizAttempts).where(eq(quizAttempts.id, id)).get();
}

/**
 * Starts an attempt, or returns the open one (one open attempt per learner and quiz: a partial unique
 * index holds it even against concurrent starts). Refused after the deadline, when the attempts are used
 * up, after a pass (retakes follow a fail, docs/product.md §4), or when the quiz has no questions.
 */
export function startAttempt(db: TenantConn, args: { quiz: Quiz; userId: number; lesson: Lesson | null; now?: Date }): QuizAttempt {
  return openOrStartAttempt(db, args).attempt;
}

/** As startAttempt, also saying whether the attempt is new. */
export function openOrStartAttempt(
  db: TenantConn,
  { quiz, userId, lesson, now = new Date() }: { quiz: Quiz; userId: number; lesson: Lesson | null; now?: Date },
) {
  // An open attempt past the deadline is closed first (and stays closed: the refusal below rolls back only its own work).
  const stale = openAttempt(db, quiz.id, userId);
  if (stale && deadlinePassed(quiz, now)) endAttempt(db, { attempt: stale, now, expired: true });
  return db.transaction((tx): { attempt: QuizAttempt; created: boolean } => {
    const open = openAttempt(tx, quiz.id, userId);
    if (open) return { attempt: open, created: false };
    if (deadlinePassed(quiz, now)) throw new QuizError("deadline_passed");
    const ended = endedAttempts(tx, quiz.id, userId);
    if (ended.some((a) => a.passed)) throw new QuizError("already_passed");
    if (quiz.maxAttempts !== null && ended.length >= quiz.maxAttempts) throw new QuizError("no_attempts_left");
    const questions = listQuestions(tx, quiz.id);
    if (questions.length === 0) throw new QuizError("no_questions", 409);
    const last =
      tx
        .select({ n: max(quizAttempts.attemptNumber) })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.quizId, quiz.id), eq(quizAttempts.userId, userId)))
        .get()?.n ?? 0;
    const attempt = tx
      .insert(quizAttempts)
      .values({
        quizId: quiz.id,
        userId,
        lessonId: lesson?.id ?? null,
        courseId: lesson?.courseId ?? null,
        attemptNumber: last + 1,
        questions: snapshot(questions),
        passMin: Math.min(quiz.passMin, questions.length),
        startedAt: now,
      })
      .returning()
      .get();
    // The quiz lesson is under way from its first attempt (the one lesson state, app/models/lesson-state.server.ts).
    if (lesson) markLessonStarted(tx, { userId, lesson, now });
    return { attempt, created: true };
  });
}

/** `answers` items: `choices` (option ids) for choice and true/false questions, `text` for short text. */
export const answerSchema = z.object({
  question_id: z.number().int().positive(),
  choices: z.array(z.string().max(20)).max(20).optional(),
  text: z.string().max(500).optional(),
});
export type AnswerInput = z.infer<typeof answerSchema>;

/**
 * Keeps answers of an open attempt (answering a question again replaces its answer) and, optionally, the
 * question the learner is on. Refused once the attempt has ended or the deadline has passed (an open
 * attempt past its deadline is then ended, graded on the answers saved in time).
 */
export function saveAnswers(
  db: TenantConn,
  { attempt, answers, current, now = new Date() }: { attempt: QuizAttempt; answers: AnswerInput[]; current?: number; now?: Date },
) {
  const quiz = getQuiz(db, attempt.quizId);
  if (!quiz) throw new QuizError("not_found", 404);
  if (attempt.endedAt) throw new QuizError("ended", 409);
  if (deadlinePassed(quiz, now)) {
    endAttempt(db, { attempt, now, expired: true });
    throw new QuizError("deadline_passed");
  }
  const byId = new Map(attempt.questions.map((q) => [q.id, q]));
  const rows = answers.map((a) => {
    const q = byId.get(a.question_id);
    if (!q) throw new QuizError("invalid_answer", 422);
    if (q.type === "text") return { questionId: q.id, choices: [] as string[], text: (a.text ?? "").trim().slice(0, 500) };
    const ids = new Set(q.options.map((o) => o.id));
    const choices = [...new Set(a.choices ?? [])];
    if (choices.some((c) => !ids.has(c)) || (q.type !== "multiple" && choices.length > 1)) throw new QuizError("invalid_answer", 422);
    return { questionId: q.id, choices, text: null };
  });
  db.transaction((tx) => {
    // Re-read inside the write lock: an `end` that won the race means these answers come too late.
    const fresh = tx.select({ endedAt: quizAttempts.endedAt }).from(quizAttempts).where(eq(quizAttempts.id, attempt.id)).get();
    if (!fresh || fresh.endedAt) throw new QuizError("ended", 409);
    for (const row of rows) {
      const blank = row.choices.length === 0 && !row.text;
      if (blank) {
        tx.delete(quizAnswers)
          .where(and(eq(quizAnswers.attemptId, attempt.id), eq(quizAnswers.questionId, row.questionId)))
          .run();
        continue;
      }
      tx.insert(quizAnswers)
        .values({ attemptId: attempt.id, questionId: row.questionId, choices: row.choices, text: row.text, updatedAt: now })
        .onConflictDoUpdate({
          target: [quizAnswers.attemptId, quizAnswers.questionId],
          set: { choices: row.choices, text: row.text, updatedAt: now },
        })
        .run();
    }
    if (current !== undefined) {
      const clamped = Math.max(0, Math.min(attempt.questions.length - 1, current));
      tx.update(quizAttempts).set({ current: clamped }).where(eq(quizAttempts.id, attempt.id)).run();
    }
  });
}

/** Short text matches ignoring case and all spaces (and Unicode compatibility forms). */
export function normalizeText(value: string) {
  return value.normalize("NFKC").toLocaleLowerCase().replace(/\s+/gu, "");
}

/** Is this answer right? Multiple choice is all-or-nothing: exactly the correct options. */
export function isCorrect(q: QuestionSnapshot, answer: { choices: string[]; text: string | null } | undefined) {
  if (!answer) return false;
  if (q.type === "text") {
    const given = normalizeText(answer.text ?? "");
    return given !== "" && q.accepted.some((a) => normalizeText(a) === given);
  }
  const right = q.options
    .filter((o) => o.correct)
    .map((o) => o.id)
    .sort();
  const chosen = [...answer.choices].sort();
  return right.length === chosen.length && right.every((id, i) => id === chosen[i]);
}

export function scoreOf(correct: number, total: number) {
  return total === 0 ? 0 : Math.round((100 * correct) / total);
}

/**
 * Grades an attempt: the one grading function for pages and /api. In one transaction it marks each answer,
 * records the score (out of 100) and pass, publishes `quizAttemptEnded` exactly once, and completes the quiz
 * lesson when passed. Ending an attempt that has already ended changes nothing and returns it as it is,
 * so any number of concurrent `end` calls produce one result.
 */
export function endAttempt(
  db: TenantConn,
  { attempt, now = new Date(), expired = false }: { attempt: QuizAttempt; now?: Date; expired?: boolean },
) {
  return db.transaction((tx) => {
    const fresh = tx.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id)).get();
    if (!fresh) throw new QuizError("not_found", 404);
    if (fresh.endedAt) return { attempt: fresh, ended: false };
    const answers = tx.select().from(quizAnswers).where(eq(quizAnswers.attemptId, fresh.id)).all();
    const byQuestion = new Map(answers.map((a) => [a.questionId, a]));
    let correct = 0;
    for (const q of fresh.questions) {
      const a = byQuestion.get(q.id);
      const right = isCorrect(q, a);
      if (right) correct++;
      if (a)
        tx.update(quizAnswers)
          .set({ correct: right })
          .where(and(eq(quizAnswers.attemptId, fresh.id), eq(quizAnswers.questionId, q.id)))
          .run();
    }
    const score = scoreOf(correct, fresh.questions.length);
    const passed = correct >= fresh.passMin;
    const ended = tx
      .update(quizAttempts)
      .set({ endedAt: now, score, correctCount: correct, passed, expired })
      .where(and(eq(quizAttempts.id, fresh.id), isNull(quizAttempts.endedAt)))
      .returning()
      .get();
    if (!ended) return { attempt: tx.select().from(quizAttempts).where(eq(quizAttempts.id, fresh.id)).get()!, ended: false };
    publish(tx, "quizAttemptEnded", {
      userId: ended.userId,
      quizId: ended.quizId,
      attemptId: ended.id,
      lessonId: ended.lessonId,
      courseId: ended.courseId,
      score,
      passed,
      attemptNumber: ended.attemptNumber,
      at: now,
    });
    if (passed && ended.lessonId) {
      const lesson = tx.select().from(lessons).where(eq(lessons.id, ended.lessonId)).get();
      if (lesson) completeLesson(tx, { userId: ended.userId, lesson, now });
    }
    return { attempt: ended, ended: true };
  });
}

/** Ends an open attempt whose quiz's deadline has passed (graded on the answers saved in time). */
export function expireIfDue(db: TenantConn, attempt: QuizAttempt, now = new Date()) {
  if (attempt.endedAt) return attempt;
  const quiz = getQuiz(db, attempt.quizId);
  if (quiz && deadlinePassed(quiz, now)) return endAttempt(db, { attempt, now, expired: true }).attempt;
  return attempt;
}

/* ----------------------------------------------------------------------------------------- views */

function answersOf(db: TenantConn, attemptId: number) {
  return new Map(
    db
      .select()
      .from(quizAnswers)
      .where(eq(quizAnswers.attemptId, attemptId))
      .all()
      .map((a) => [a.questionId, a]),
  );
}

/**
 * An attempt as its learner (or an admin) sees it. While it is open: the questions and options without
 * anything that tells right from wrong, and the learner's own answers. Once it has ended: also which
 * options were right, the accepted texts, whether each answer was right, and the explanations.
 */
export function attemptView(db: TenantConn, attempt: QuizAttempt) {
  const answers = answersOf(db, attempt.id);
  const reveal = attempt.endedAt !== null;
  return {
    id: attempt.id,
    quiz_id: attempt.quizId,
    user_id: attempt.userId,
    lesson_id: attempt.lessonId,
    course_id: attempt.courseId,
    attempt_number: attempt.attemptNumber,
    status: reveal ? (attempt.passed ? "passed" : "failed") : "in_progress",
    current: attempt.current,
    started_at: attempt.startedAt.toISOString(),
    ended_at: attempt.endedAt?.toISOString() ?? null,
    ended_by_deadline: attempt.expired,
    question_count: attempt.questions.length,
    answered_count: attempt.questions.filter((q) => answers.has(q.id)).length,
    pass_min: attempt.passMin,
    score: reveal ? attempt.score : null,
    correct_count: reveal ? attempt.correctCount : null,
    passed: reveal ? attempt.passed : null,
    questions: attempt.questions.map((q) => {
      const a = answers.get(q.id);
      const base = {
        id: q.id,
        type: q.type,
        prompt: q.prompt,
        options: q.options.map((o) => ({ id: o.id, text: o.text })),
        answer: a ? { choices: a.choices, text: a.text } : null,
      };
      if (!reveal) return base;
      return {
        ...base,
        correct: isCorrect(q, a),
        correct_choices: q.options.filter((o) => o.correct).map((o) => o.id),
        accepted: q.accepted,
        explanation: q.explanation,
      };
    }),
  };
}
export type AttemptView = ReturnType<typeof attemptView>;

/**
 * Everything the quiz player needs for one learner: the quiz's intro facts, the open attempt (without
 * answers), the latest ended one (revealed), and whether a retake is possible.
 */
export function quizPlayerState(db: TenantConn, { quiz, userId, now = new Date() }: { quiz: Quiz; userId: number; now?: Date }) {
  let open = openAttempt(db, quiz.id, userId);
  if (open) open = expireIfDue(db, open, now);
  if (open?.endedAt) open = undefined;
  const ended = endedAttempts(db, quiz.id, userId);
  const last = ended.at(-1);
  const passedBefore = ended.some((a) => a.passed);
  const attemptsLeft = quiz.maxAttempts === null ? null : Math.max(0, quiz.maxAttempts - ended.length);
  const closed = deadlinePassed(quiz, now);
  return {
    quiz: {
      ...quizSummary(db, quiz),
      attempts_used: ended.length,
      attempts_left: attemptsLeft,
      deadline_passed: closed,
      best_score: ended.length ? Math.max(...ended.map((a) => a.score ?? 0)) : null,
    },
    open: open ? attemptView(db, open) : null,
    last: last ? attemptView(db, last) : null,
    can_start: !open && !closed && !passedBefore && attemptsLeft !== 0 && quizSummary(db, quiz).question_count > 0,
    refusal: (open
      ? null
      : closed
        ? "deadline_passed"
        : passedBefore
          ? null
          : attemptsLeft === 0
            ? "no_attempts_left"
            : null) as QuizRefusal | null,
  };
}
export type QuizPlayerState = ReturnType<typeof quizPlayerState>;

/** A learner's attempts, newest first (GET /api/quizzes/submissions). */
export function listAttempts(db: TenantConn, { userId, quizId }: { userId?: number; quizId?: number }) {
  return db
    .select()
    .from(quizAttempts)
    .where(and(userId ? eq(quizAttempts.userId, userId) : undefined, quizId ? eq(quizAttempts.quizId, quizId) : undefined))
    .orderBy(desc(quizAttempts.id))
    .all();
}

/**
 * For the admin's quiz screen and its CSV: each learner's attempts, best score, whether they passed, and
 * every ended attempt.
 */
export function quizResults(db: TenantConn, quizId: number) {
  const rows = db
    .select({ attempt: quizAttempts, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(quizAttempts)
    .innerJoin(users, eq(users.id, quizAttempts.userId))
    .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.endedAt)))
    .orderBy(asc(users.email), asc(quizAttempts.attemptNumber))
    .all();
  const learners = new Map<
    number,
    { userId: number; email: string; name: string; attempts: number; best: number; passed: boolean; lastAt: Date }
  >();
  for (const r of rows) {
    const a = r.attempt;
    const entry = learners.get(a.userId) ?? {
      userId: a.userId,
      email: r.email,
      name: [r.firstName, r.lastName].filter(Boolean).join(" "),
      attempts: 0,
      best: 0,
      passed: false,
      lastAt: a.endedAt!,
    };
    entry.attempts++;
    entry.best = Math.max(entry.best, a.score ?? 0);
    entry.passed ||= Boolean(a.passed);
    if (a.endedAt! > entry.lastAt) entry.lastAt = a.endedAt!;
    learners.set(a.userId, entry);
  }
  return {
    learners: [...learners.values()],
    attempts: rows.map((r) => ({
      id: r.attempt.id,
      userId: r.attempt.userId,
      email: r.email,
      name: [r.firstName, r.lastName].filter(Boolean).join(" "),
      attemptNumber: r.attempt.attemptNumber,
      score: r.attempt.score ?? 0,
      correct: r.attempt.correctCount ?? 0,
      questions: r.attempt.questions.length,
      passed: Boolean(r.attempt.passed),
      expired: r.attempt.expired,
      startedAt: r.attempt.startedAt,
      endedAt: r.attempt.endedAt!,
    })),
  };
}

/**
 * The learner's quiz score for a course (for certificates' {score}): the best score of each quiz lesson of
 * the course, averaged; null when the course has no quiz lessons. A quiz lesson never attempted counts 0.
 * With `since`, only attempts ended after it count (a renewal's certificate: its own cycle's scores; the
 * attempt that completed the earlier cycle ended at that completion).
 */
export function courseQuizScore(db: TenantConn, userId: number, courseId: number, since: Date | null = null): number | null {
  const quizLessonsOfCourse = db
    .select({ lessonId: lessons.id, quizId: quizLessons.quizId })
    .from(lessons)
    .innerJoin(quizLessons, eq(quizLessons.lessonId, lessons.id))
    .where(and(eq(lessons.courseId, courseId), eq(lessons.kind, "quiz")))
    .all();
  if (quizLessonsOfCourse.length === 0) return null;
  const best = db
    .select({ lessonId: quizAttempts.lessonId, best: max(quizAttempts.score) })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.userId, userId),
        eq(quizAttempts.courseId, courseId),
        isNotNull(quizAttempts.endedAt),
        since ? gt(quizAttempts.endedAt, since) : undefined,
        inArray(
          quizAttempts.lessonId,
          quizLessonsOfCourse.map((l) => l.lessonId),
        ),
      ),
    )
    .groupBy(quizAttempts.lessonId)
    .all();
  const byLesson = new Map(best.map((b) => [b.lessonId, b.best ?? 0]));
  const sum = quizLessonsOfCourse.reduce((s, l) => s + (byLesson.get(l.lessonId) ?? 0), 0);
  return Math.round(sum / quizLessonsOfCourse.length);
}

/**
 * The quiz part of the lesson player's data: the player state, or `failed` when the lesson shows no quiz
 * (never linked, or its quiz was deleted) — the player then says the quiz could not be loaded.
 */
export function quizForLesson(db: TenantConn, { lesson, userId, now = new Date() }: { lesson: Lesson; userId: number; now?: Date }) {
  const quizId = quizIdOfLesson(db, lesson.id);
  const quiz = quizId ? getQuiz(db, quizId) : undefined;
  if (!quiz) return { failed: true as const, quizId: null, state: null };
  return { failed: false as const, quizId: quiz.id, state: quizPlayerState(db, { quiz, userId, now }) };
}
