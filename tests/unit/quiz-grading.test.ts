import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase } from "../../db/open";
import { courses, lessons, users } from "../../db/tenant";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { attachQuiz } from "../../app/models/quiz-lessons.server";
import { courseQuizScore } from "../../app/models/quiz-results.server";
import { createQuiz } from "../../app/models/quiz-authoring.server";
import { endAttempt, isCorrect, normalizeText, scoreOf } from "../../app/models/quiz-grading.server";
import { questionSchema } from "../../app/models/forms/quizzes";
import { saveAnswers, startAttempt } from "../../app/models/quiz-attempts.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-quiz-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("grading rules", () => {
  it("matches short text ignoring case and spaces, and multiple choice all-or-nothing", () => {
    expect(normalizeText("  Foto Syn\tTese ")).toBe("fotosyntese");
    const text = { id: 1, type: "text" as const, prompt: "", explanation: "", options: [], accepted: ["New York"] };
    expect(isCorrect(text, { choices: [], text: "newyork" })).toBe(true);
    expect(isCorrect(text, { choices: [], text: "" })).toBe(false);
    const multiple = {
      id: 2,
      type: "multiple" as const,
      prompt: "",
      explanation: "",
      accepted: [],
      options: [
        { id: "1", text: "a", correct: true },
        { id: "2", text: "b", correct: true },
        { id: "3", text: "c", correct: false },
      ],
    };
    expect(isCorrect(multiple, { choices: ["2", "1"], text: null })).toBe(true);
    expect(isCorrect(multiple, { choices: ["1"], text: null })).toBe(false);
    expect(isCorrect(multiple, { choices: ["1", "2", "3"], text: null })).toBe(false);
    expect(isCorrect(multiple, undefined)).toBe(false);
    expect(scoreOf(2, 3)).toBe(67);
    expect(scoreOf(0, 0)).toBe(0);
  });

  it("refuses malformed questions", () => {
    expect(questionSchema.safeParse({ type: "single", prompt: "?", options: [{ text: "a", correct: true }] }).success).toBe(false);
    expect(questionSchema.safeParse({ type: "true_false", prompt: "?" }).success).toBe(false);
    expect(questionSchema.safeParse({ type: "text", prompt: "?", accepted: [] }).success).toBe(false);
    expect(
      questionSchema.safeParse({ type: "multiple", prompt: "?", options: [{ text: "a", correct: true }, { text: "b" }] }).success,
    ).toBe(true);
  });
});

describe("attempts on a real database", () => {
  it("grades once, completes the quiz lesson on a pass, and averages best scores per quiz lesson for the course", () => {
    const file = tenantDatabaseFile(dir, 1);
    createTenantDatabase(file);
    const db = openTenantDatabase(file);
    const user = db.insert(users).values({ email: "l@x.test", role: "learner" }).returning().get();
    const course = db.insert(courses).values({ title: "C", type: "series", published: true, allowQuizzes: true }).returning().get();
    expect(courseQuizScore(db, user.id, course.id)).toBeNull();
    const q = (prompt: string) => questionSchema.parse({ type: "true_false", prompt, correct_answer: true });
    const quizzes = [1, 2].map((n) => {
      const quiz = createQuiz(db, {
        title: `Q${n}`,
        description: "",
        deadline: null,
        pass_min: 1,
        max_attempts: null,
        questions: [q("a"), q("b")],
      });
      if (!quiz.ok) throw new Error("quiz");
      const lesson = attachQuiz(db, quiz.value.id, course.id);
      if (!lesson.ok) throw new Error("lesson");
      return { quiz: quiz.value, lesson: lesson.value };
    });
    const [first] = quizzes;
    const attempt = startAttempt(db, { quiz: first.quiz, userId: user.id, lesson: first.lesson });
    saveAnswers(db, { attempt, answers: [{ question_id: attempt.questions[0].id, choices: ["true"] }] });
    const once = endAttempt(db, { attempt });
    const twice = endAttempt(db, { attempt });
    expect(once).toMatchObject({ ended: true, attempt: { score: 50, passed: true } });
    expect(twice.ended).toBe(false);
    expect(twice.attempt.score).toBe(50);
    const progress = db.$client.prepare("select completed_at from lesson_progress where lesson_id = ?").get(first.lesson.id) as {
      completed_at: number | null;
    };
    expect(progress.completed_at).not.toBeNull();
    // Quiz 2 never tried counts 0: (50 + 0) / 2.
    expect(courseQuizScore(db, user.id, course.id)).toBe(25);
    expect(
      db
        .select()
        .from(lessons)
        .all()
        .filter((l) => l.kind === "quiz"),
    ).toHaveLength(2);
    db.$client.close();
  });
});
