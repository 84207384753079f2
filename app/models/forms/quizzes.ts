import { z } from "zod";
import { formErrorMap } from "../../utils/form";
import { QUESTION_TYPES } from "../vocabulary";

/**
 * A quiz's settings as the create and edit forms give them (docs/decisions/013-quizzes.md). The deadline is a
 * datetime-local value, read as UTC. Not a .server module: the browser checks the same fields with it
 * (app/utils/form.ts); the /api body has its own schema (app/models/quiz-authoring.server.ts).
 */
const DATETIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export const quizSettingsFormSchema = z.object({
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  description: z.string().max(10_000).default(""),
  deadline: z
    .string()
    .trim()
    .refine((v) => v === "" || (DATETIME_LOCAL.test(v) && !Number.isNaN(Date.parse(`${v}:00Z`))), "validation.invalid")
    .optional()
    .transform((v) => (v ? new Date(`${v}:00Z`) : null)),
  /** Pass requirement: the minimum number of correct answers. */
  pass_min: z.number({ invalid_type_error: "validation.notANumber" }).int().min(0).max(1000).default(0),
  /** Left empty: unlimited retakes. */
  max_attempts: z
    .number({ invalid_type_error: "validation.notANumber" })
    .int()
    .min(1)
    .max(1000)
    .optional()
    .transform((v) => v ?? null),
});

/**
 * One question. `options` for single and multiple choice (`correct` marks the right ones: exactly one for
 * single choice, at least one for multiple); `correct_answer` for true/false; `accepted` for short text
 * (matched ignoring case and spaces).
 */
export const questionSchema = z
  .object({
    type: z.enum(QUESTION_TYPES),
    prompt: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(2000),
    explanation: z.string().max(5000).default(""),
    options: z
      .array(z.object({ text: z.string().trim().min(1, "validation.required").max(500), correct: z.boolean().default(false) }))
      .max(20)
      .default([]),
    correct_answer: z.boolean().nullable().default(null),
    accepted: z.array(z.string().trim().min(1, "validation.required").max(200)).max(20).default([]),
  })
  .superRefine((q, ctx) => {
    if (q.type === "single" || q.type === "multiple") {
      if (q.options.length < 2) ctx.addIssue({ code: "custom", path: ["options"], message: "quiz.errors.twoOptions" });
      const right = q.options.filter((o) => o.correct).length;
      if (q.type === "single" && right !== 1) ctx.addIssue({ code: "custom", path: ["options"], message: "quiz.errors.oneCorrect" });
      if (q.type === "multiple" && right < 1) ctx.addIssue({ code: "custom", path: ["options"], message: "quiz.errors.someCorrect" });
    }
    if (q.type === "true_false" && q.correct_answer === null)
      ctx.addIssue({ code: "custom", path: ["correct_answer"], message: "quiz.errors.trueOrFalse" });
    if (q.type === "text" && q.accepted.length === 0) ctx.addIssue({ code: "custom", path: ["accepted"], message: "quiz.errors.accepted" });
  });
export type QuestionInput = z.infer<typeof questionSchema>;

/** How many answer options the question form offers (option_text_0…, option_correct_0…). */
export const OPTION_SLOTS = 6;

const slotFields = Object.fromEntries(
  Array.from({ length: OPTION_SLOTS }, (_, i) => [
    [`option_text_${i}`, z.string().optional()],
    [`option_correct_${i}`, z.string().optional()],
  ]).flat(),
) as Record<`option_text_${number}` | `option_correct_${number}`, z.ZodOptional<z.ZodString>>;

/**
 * The question form: a question's fields flat, its options in numbered slots (empty slots left out), true or
 * false as a radio, the accepted answers one a line. Read as one question with `questionSchema`, each of its
 * messages on the form's field (an option's on `options`).
 */
export const questionFormSchema = z
  .object({
    type: z.string().optional(),
    prompt: z.string().optional(),
    explanation: z.string().optional(),
    correct_answer: z.string().optional(),
    accepted: z.string().optional(),
    ...slotFields,
  })
  .transform((form, ctx) => {
    const slots = form as Record<string, string | undefined>;
    const question = questionSchema.safeParse(
      {
        type: form.type,
        prompt: form.prompt ?? "",
        explanation: form.explanation ?? "",
        options: Array.from({ length: OPTION_SLOTS }, (_, i) => ({
          text: (slots[`option_text_${i}`] ?? "").trim(),
          correct: slots[`option_correct_${i}`] === "on",
        })).filter((o) => o.text !== ""),
        correct_answer: form.correct_answer === "true" ? true : form.correct_answer === "false" ? false : null,
        accepted: (form.accepted ?? "")
          .split(/\r?\n/)
          .map((s) => s.trim())
          .filter(Boolean),
      },
      { errorMap: formErrorMap },
    );
    if (question.success) return question.data;
    for (const issue of question.error.issues)
      ctx.addIssue({ code: "custom", path: [String(issue.path[0] ?? "prompt")], message: issue.message });
    return z.NEVER;
  });
