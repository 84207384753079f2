import { z } from "zod";

/**
 * A learning path's fields and its steps, as /api takes them and as the path editor will post them (issue 49;
 * app/models/paths/paths.server.ts). Not a .server module: the browser checks the forms with the same schemas.
 */
export const pathFields = {
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  description: z.string().max(20_000).default(""),
  published: z.boolean().default(false),
  block_default_access: z.boolean().default(false),
  force_groups: z.boolean().default(false),
  self_enrol: z.boolean().default(true),
  category_id: z.number().int().positive().nullable().default(null),
  cover_file_id: z.number().int().positive().nullable().default(null),
  allow_certificates: z.boolean().default(false),
  points: z.number().int().min(0).max(10_000).default(0),
  validity_months: z.number().int().min(1).max(120).nullable().default(null),
  /** With a validity: assigned holders are assigned the path again this many days before it expires. */
  reassign_days_before: z.number().int().min(1).max(365).default(30),
  /** The template its certificate is printed from; null: the organization's default. */
  certificate_template_id: z.number().int().positive().nullable().default(null),
  /** A badge given when the path is done; null: none. */
  badge_id: z.number().int().positive().nullable().default(null),
};

export const pathSchema = z.object(pathFields);
export type PathInput = z.infer<typeof pathSchema>;

/** One step: a course, or a choice of any `required` of several courses, opening `delay_days` after the one before. */
export const pathStepSchema = z
  .object({
    kind: z.enum(["course", "choice"]).default("course"),
    title: z.string().trim().max(200).default(""),
    course_ids: z.array(z.number().int().positive()).min(1, "validation.required").max(50),
    required: z.number().int().min(1).max(50).default(1),
    delay_days: z.number().int().min(0).max(365).default(0),
  })
  .refine((s) => s.kind === "choice" || s.course_ids.length === 1, { message: "validation.invalid", path: ["course_ids"] })
  .refine((s) => s.required <= s.course_ids.length, { message: "validation.invalid", path: ["required"] })
  .refine((s) => new Set(s.course_ids).size === s.course_ids.length, { message: "validation.invalid", path: ["course_ids"] });

export const pathStepsSchema = z.object({ steps: z.array(pathStepSchema).max(50) });
export type PathStepsInput = z.infer<typeof pathStepsSchema>;
