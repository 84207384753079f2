import { z } from "zod";

/**
 * The forms of categories and carousels (the dashboard's browse tabs). Not a .server module: the browser
 * checks the same fields with them (app/utils/form.ts). The /api bodies have their own schemas beside the
 * models (category.server.ts, carousel.server.ts).
 */

/** A cover chosen from the file library (issue 18): an id, or nothing (then the form clears it). */
export const coverChoiceField = z.coerce
  .number({ invalid_type_error: "validation.invalid" })
  .int("validation.invalid")
  .positive("validation.invalid")
  .max(Number.MAX_SAFE_INTEGER, "validation.invalid")
  .optional();

export const categoryFormSchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(100),
  cover_file_id: coverChoiceField,
});

export const carouselFormSchema = z.object({
  title: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  published: z.boolean().default(false),
  cover_file_id: coverChoiceField,
});
