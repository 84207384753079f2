import { z } from "zod";

/**
 * A quiz's settings as the create and edit forms give them (docs/decisions/013-quizzes.md). The deadline is a
 * datetime-local value, read as UTC. Not a .server module: the browser checks the same fields with it
 * (app/utils/form.ts); the /api body has its own schema (app/models/quiz.server.ts).
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
