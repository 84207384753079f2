import { z } from "zod";

/**
 * The forms of the certificate templates' page (docs/decisions/015-certificates.md). Not a .server module:
 * the browser checks the same fields with them (app/utils/form.ts).
 */
export const revokeSchema = z.object({
  reason: z.string({ required_error: "certificates.errors.reason" }).trim().min(1, "certificates.errors.reason").max(500),
});

/** A new template: its name (the layout starts from the starter blocks). */
export const newTemplateSchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
});
