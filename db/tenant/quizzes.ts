import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { QUESTION_TYPES, type QuestionType } from "../vocabulary";
import { courses, lessons } from "./courses";
import { users } from "./people";

/*
 * Quizzes (issue 10, docs/decisions/013-quizzes.md). A quiz has ordered questions; a `quiz` lesson points at
 * one quiz (`quiz_lessons`), so a quiz can serve several courses. An attempt (the /api "submission") copies
 * the questions, with their correct answers, when it starts: grading runs against that snapshot, so editing
 * a quiz never changes past results. The correct answers live only on the server until the attempt ends.
 */

/** A choice of a single, multiple or true/false question. true/false questions have the ids "true" and "false". */
export interface QuizOption {
  id: string;
  text: string;
  correct: boolean;
}

export const quizzes = sqliteTable("quizzes", {
  id: id(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  /** After this moment no attempt may start, and open attempts take no more answers. */
  deadline: integer("deadline", { mode: "timestamp" }),
  /** Pass requirement: the minimum number of correct answers (never more than the number of questions). */
  passMin: integer("pass_min").notNull().default(0),
  /** null: unlimited retakes. */
  maxAttempts: integer("max_attempts"),
  ...timestamps(),
});

export const quizQuestions = sqliteTable(
  "quiz_questions",
  {
    id: id(),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    prompt: text("prompt").notNull(),
    /** Shown after submission. */
    explanation: text("explanation").notNull().default(""),
    options: text("options", { mode: "json" }).$type<QuizOption[]>().notNull(),
    /** Short-text questions: the accepted answers (matched ignoring case and spaces). */
    accepted: text("accepted", { mode: "json" }).$type<string[]>().notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("quiz_questions_quiz_idx").on(t.quizId, t.position),
    check("quiz_questions_type_check", sql`${t.type} in ('single','multiple','true_false','text')`),
  ],
);

/** Which quiz a `quiz` lesson shows. */
export const quizLessons = sqliteTable(
  "quiz_lessons",
  {
    lessonId: integer("lesson_id")
      .primaryKey()
      .references(() => lessons.id, { onDelete: "cascade" }),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
  },
  (t) => [index("quiz_lessons_quiz_idx").on(t.quizId)],
);

/** The questions as they were when an attempt started (what it is graded against). */
export interface QuestionSnapshot {
  id: number;
  type: QuestionType;
  prompt: string;
  explanation: string;
  options: QuizOption[];
  accepted: string[];
}

export const quizAttempts = sqliteTable(
  "quiz_attempts",
  {
    id: id(),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The quiz lesson it was taken in, when taken inside a course. */
    lessonId: integer("lesson_id").references(() => lessons.id, { onDelete: "set null" }),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "set null" }),
    attemptNumber: integer("attempt_number").notNull(),
    questions: text("questions", { mode: "json" }).$type<QuestionSnapshot[]>().notNull(),
    passMin: integer("pass_min").notNull(),
    /** The question the learner is on (0-based), so another device resumes at the same place. */
    current: integer("current").notNull().default(0),
    startedAt: integer("started_at", { mode: "timestamp" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp" }),
    /** Out of 100, set when the attempt ends. */
    score: integer("score"),
    correctCount: integer("correct_count"),
    passed: integer("passed", { mode: "boolean" }),
    /** true when the deadline ended it rather than the learner. */
    expired: integer("expired", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("quiz_attempts_number_unique").on(t.quizId, t.userId, t.attemptNumber),
    // One open attempt per learner and quiz.
    uniqueIndex("quiz_attempts_open_unique").on(t.quizId, t.userId).where(sql`ended_at is null`),
    index("quiz_attempts_user_idx").on(t.userId),
  ],
);

/** The learner's answer to one question of an attempt; answering again replaces it. */
export const quizAnswers = sqliteTable(
  "quiz_answers",
  {
    attemptId: integer("attempt_id")
      .notNull()
      .references(() => quizAttempts.id, { onDelete: "cascade" }),
    questionId: integer("question_id").notNull(),
    /** Chosen option ids (choice questions) or the typed text (short text). */
    choices: text("choices", { mode: "json" }).$type<string[]>().notNull(),
    text: text("text"),
    /** Set when the attempt is graded. */
    correct: integer("correct", { mode: "boolean" }),
    updatedAt: integer("updated_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

export type Quiz = typeof quizzes.$inferSelect;
export type QuizQuestion = typeof quizQuestions.$inferSelect;
export type QuizAttempt = typeof quizAttempts.$inferSelect;
export type QuizAnswer = typeof quizAnswers.$inferSelect;
