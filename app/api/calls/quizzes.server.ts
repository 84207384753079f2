import { z } from "zod";
import { may } from "~/access/rules";
import { lessonView as lessonReply } from "~/models/lesson.server";
import { quizResultsCsv } from "~/models/quiz-csv.server";
import { quizResource } from "~/models/quiz-resource.server";
import { answerSchema, getAttempt, listAttempts, openOrStartAttempt, saveAnswers } from "~/models/quiz-attempts.server";
import { attachQuiz, lessonForTaking, linkQuizLesson } from "~/models/quiz-lessons.server";
import { attemptView as attemptReply } from "~/models/quiz-player.server";
import { endAttempt, expireIfDue } from "~/models/quiz-grading.server";
import { getQuiz } from "~/models/quiz.server";
import { QuizError } from "~/models/quiz-refusal.server";
import { quizResults } from "~/models/quiz-results.server";
import { findAttempt, quizErrorReply, requireQuizTaker } from "~/screens/quiz-api.server";
import { apiError, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, E, guarded, id, isoDate, page, type ApiCall } from "../contract.server";
import { resourceCalls } from "../resource.server";
import { lessonView } from "./lessons.server";

/** Quizzes, their attempts and their place in courses (docs/product.md §7 "quizzes", docs/decisions/013-quizzes.md). */
const quizSummary = z.object({
  id,
  title: z.string(),
  description: z.string(),
  deadline: isoDate.nullable(),
  pass_min: z.number(),
  max_attempts: z.number().int().nullable(),
  question_count: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
});
/** Learners get the summary; those who may read quizzes also get the questions with their answers. */
const quizView = quizSummary.extend({
  questions: z.array(z.object({ id, type: z.string(), prompt: z.string() }).passthrough()).optional(),
});

const stamp = { created_at: "2026-05-04T09:30:00.000Z", updated_at: "2026-05-04T09:30:00.000Z" };

const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
const learner = "learn:course" as const;

export const attemptListQuery = pageSchema.extend({
  quiz_id: z.coerce.number().int().positive().optional(),
  user_id: z.coerce.number().int().positive().optional(),
});
export const attemptStartBody = z.object({
  /** The quiz to take. */
  quiz_id: z.number().int().positive(),
  /** The quiz lesson it is taken in; by default the first quiz lesson of this quiz the caller may open. */
  lesson_id: z.number().int().positive().nullable().optional(),
});
export const answersBody = z.object({
  /** The attempt (submission) id. */
  submission_id: z.number().int().positive(),
  /** `{question_id, choices: [option ids]}` for choice and true/false questions, `{question_id, text}` for short text. */
  answers: z.array(answerSchema).max(200).default([]),
  /** The question the learner is on (0-based), so another device resumes there. */
  current: z.number().int().min(0).max(1000).optional(),
});
export const attachBody = z.union([
  z.object({
    course_id: z.number().int().positive(),
    /** The new lesson's title; the quiz's title by default. */
    title: z.string().trim().max(200).optional(),
  }),
  z.object({ lesson_id: z.number().int().positive() }),
]);

const attemptView = z.object({
  id,
  quiz_id: id,
  user_id: id,
  lesson_id: id.nullable(),
  course_id: id.nullable(),
  attempt_number: z.number().int(),
  status: z.enum(["in_progress", "passed", "failed"]),
  current: z.number().int(),
  started_at: isoDate,
  ended_at: isoDate.nullable(),
  ended_by_deadline: z.boolean(),
  question_count: z.number().int(),
  answered_count: z.number().int(),
  pass_min: z.number(),
  score: z.number().nullable(),
  correct_count: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  questions: z.array(
    z
      .object({
        id,
        type: z.string(),
        prompt: z.string(),
        options: z.array(z.object({ id: z.string(), text: z.string() })),
        answer: z.object({ choices: z.array(z.string()).nullable().optional(), text: z.string().nullable().optional() }).nullable(),
      })
      .passthrough(),
  ),
});
const attemptExample = {
  id: 9,
  quiz_id: 5,
  user_id: 12,
  lesson_id: 34,
  course_id: 7,
  attempt_number: 1,
  status: "in_progress",
  current: 0,
  started_at: stamp.created_at,
  ended_at: null,
  ended_by_deadline: false,
  question_count: 1,
  answered_count: 0,
  pass_min: 80,
  score: null,
  correct_count: null,
  passed: null,
  questions: [
    {
      id: 51,
      type: "single",
      prompt: "Where is the first-aid kit?",
      options: [
        { id: "a", text: "By the door" },
        { id: "b", text: "In the van" },
      ],
      answer: null,
    },
  ],
};

export const quizCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/quizzes",
    tag: "Quizzes",
    noun: "quiz",
    view: quizView,
    resource: quizResource,
    readNote: "Learners see the quizzes of courses they may open, without answers.",
    createExample: { title: "Safety check", pass_min: 80 },
    updateExample: { pass_min: 70 },
    replyExample: {
      id: 5,
      title: "Safety check",
      description: "",
      deadline: null,
      pass_min: 80,
      max_attempts: null,
      question_count: 0,
      ...stamp,
    },
  }),
  call({
    method: "GET",
    path: "/api/quizzes/submissions",
    tag: "Quizzes",
    summary: "Quiz attempts",
    description: "The caller's own, newest first; with read:quiz every attempt of the organization (`quiz_id`, `user_id` filter).",
    access: learner,
    query: attemptListQuery,
    reply: page(attemptView),
    errors: guarded(E.invalid),
    example: { reply: { data: [attemptExample], meta: meta1 } },
    handler: async ({ request, context, query }) => {
      const { db, viewer, person } = await requireQuizTaker(request, context);
      const { page, per_page, quiz_id, user_id } = query;
      const userId = may(viewer, "read:quiz") ? user_id : person.id;
      const all = listAttempts(db, { userId, quizId: quiz_id });
      const items = all.slice((page - 1) * per_page, page * per_page).map((a) => attemptReply(db, expireIfDue(db, a)));
      return paginated(items, all.length, { page, perPage: per_page });
    },
  }),
  call({
    method: "POST",
    path: "/api/quizzes/submissions",
    tag: "Quizzes",
    summary: "Start (or resume) a quiz attempt",
    description: "201 with a new attempt; 200 with the open one when there is one.",
    access: learner,
    body: attemptStartBody,
    reply: attemptView,
    status: 201,
    otherReplies: [{ status: 200, reply: attemptView, description: "the open attempt, resumed" }],
    errors: guarded(E.invalid, E.invalidBody, {
      status: 403,
      code: "no_attempts_left",
      when: "every attempt is used (also `deadline_passed`, `already_passed`, `no_questions`)",
    }),
    example: { body: { quiz_id: 5 }, reply: attemptExample },
    // When the learner already has an open attempt of this quiz, that one is answered (200) instead of a new one (201).
    handler: async ({ request, context, body }) => {
      const { db, person, viewer } = await requireQuizTaker(request, context);
      const quiz = getQuiz(db, body.quiz_id);
      const place = quiz ? lessonForTaking(db, viewer, quiz.id, body.lesson_id) : "none";
      if (!quiz || place === "none") return apiNotFound(request, context);
      try {
        const { attempt, created } = openOrStartAttempt(db, { quiz, userId: person.id, lesson: place?.lesson ?? null });
        return apiOk(attemptReply(db, attempt), created ? 201 : 200);
      } catch (error) {
        return quizErrorReply(request, context, error);
      }
    },
  }),
  call({
    method: "GET",
    path: "/api/quizzes/submissions/{id}",
    tag: "Quizzes",
    summary: "One quiz attempt",
    description: "The caller's own (another learner's is a 404 without read:quiz). Scores and answers show once it ended.",
    access: learner,
    reply: attemptView,
    errors: guarded(),
    example: { reply: attemptExample },
    // While open it carries no correct answers.
    handler: async ({ request, context, params }) => {
      const { db, viewer } = await requireQuizTaker(request, context);
      const attempt = await findAttempt(request, context, viewer, params.id);
      return attemptReply(db, expireIfDue(db, attempt));
    },
  }),
  call({
    method: "POST",
    path: "/api/quizzes/submissions/answers",
    tag: "Quizzes",
    summary: "Save answers of my open attempt",
    access: learner,
    body: answersBody,
    reply: attemptView,
    errors: guarded(E.invalid, E.invalidBody, {
      status: 403,
      code: "deadline_passed",
      when: "the quiz's deadline passed (also `ended`; 422 `invalid_answer`)",
    }),
    example: {
      body: { submission_id: 9, answers: [{ question_id: 51, choices: ["a"] }], current: 0 },
      reply: { ...attemptExample, answered_count: 1 },
    },
    // Answering a question again replaces its answer; an empty answer clears it.
    handler: async ({ request, context, body }) => {
      const { db, viewer } = await requireQuizTaker(request, context);
      const attempt = await findAttempt(request, context, viewer, String(body.submission_id), { own: true });
      try {
        saveAnswers(db, { attempt, answers: body.answers, current: body.current });
      } catch (error) {
        return quizErrorReply(request, context, error);
      }
      return attemptReply(db, getAttempt(db, attempt.id)!);
    },
  }),
  call({
    method: "POST",
    path: "/api/quizzes/submissions/end/{id}",
    tag: "Quizzes",
    summary: "Submit my attempt and grade it",
    access: learner,
    reply: attemptView,
    errors: guarded({
      status: 403,
      code: "deadline_passed",
      when: "too late: the attempt is closed on the answers saved in time (also `ended`)",
    }),
    example: {
      reply: {
        ...attemptExample,
        status: "passed",
        ended_at: stamp.created_at,
        score: 100,
        correct_count: 1,
        passed: true,
        answered_count: 1,
      },
    },
    // Ending it again answers the same result.
    handler: async ({ request, context, params }) => {
      const { db, viewer } = await requireQuizTaker(request, context);
      const attempt = await findAttempt(request, context, viewer, params.id, { own: true });
      // Past the deadline the submission is refused (the attempt is closed on the answers saved in time).
      if (expireIfDue(db, attempt).expired) return quizErrorReply(request, context, new QuizError("deadline_passed"));
      return attemptReply(db, endAttempt(db, { attempt }).attempt);
    },
  }),
  call({
    method: "POST",
    path: "/api/quizzes/{id}/attach",
    tag: "Quizzes",
    summary: "Show a quiz in a course",
    description:
      "Adds a quiz lesson at the end of a course (`course_id`, optional `title`), or points an existing quiz lesson at this quiz (`lesson_id`).",
    access: "write:quiz",
    body: attachBody,
    reply: lessonView.extend({ quiz_id: id }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { course_id: 7 },
      reply: {
        id: 34,
        course_id: 7,
        title: "Safety check",
        kind: "quiz",
        body: "",
        file_id: null,
        video_url: null,
        duration_seconds: null,
        position: 5,
        ...stamp,
        quiz_id: 5,
      },
    },
    before: async ({ request, context, params, viewer }) => {
      if (!may(viewer, "write:course")) {
        const t = await apiT(request, context);
        return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
      }
      if (!getQuiz(context.db!, Number(params.id) || -1)) return apiNotFound(request, context);
    },
    handler: async ({ request, context, params, body }) => {
      const db = context.db!;
      const quiz = getQuiz(db, Number(params.id) || -1)!;
      const result =
        "lesson_id" in body ? linkQuizLesson(db, quiz.id, body.lesson_id) : attachQuiz(db, quiz.id, body.course_id, body.title);
      if (!result.ok) {
        const t = await apiT(request, context);
        return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { [result.field]: [t(result.message)] } });
      }
      return { ...lessonReply(result.value), quiz_id: quiz.id };
    },
  }),
  call({
    method: "GET",
    path: "/api/quizzes/{id}/export",
    tag: "Quizzes",
    summary: "Every ended attempt of a quiz, as CSV",
    description: "Cells that look like formulas are neutralised.",
    access: "read:quiz",
    reply: { file: "text/csv" },
    errors: guarded(),
    example: {},
    handler: ({ request, context, params }) => {
      const quiz = getQuiz(context.db!, Number(params.id) || -1);
      if (!quiz) return apiNotFound(request, context);
      return quizResultsCsv(quiz, quizResults(context.db!, quiz.id));
    },
  }),
];
