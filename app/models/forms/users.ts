import { z } from "zod";
import { LANGUAGES } from "../../utils/i18n";

/*
 * The person form of the users screens. Not a .server module: the browser checks the same fields with it
 * (app/utils/form.ts) before the server does.
 */

/** Roles an admin assigns; "none" keeps the account (and its history) without access. */
export const ASSIGNABLE_ROLES = ["learner", "admin", "none"] as const;

/** The fields an admin sets on a person (docs/product.md §3 User). */
export const userFormSchema = z.object({
  firstName: z.string().trim().max(100).default(""),
  lastName: z.string().trim().max(100).default(""),
  email: z.string({ required_error: "validation.required" }).trim().max(254).email("validation.email"),
  phone: z.string().trim().max(40).optional().transform((v) => v || null),
  role: z
    .enum(ASSIGNABLE_ROLES, { errorMap: () => ({ message: "validation.invalidOption" }) })
    .transform((v) => (v === "none" ? null : v)),
  language: z
    .enum(["", ...LANGUAGES])
    .optional()
    .transform((v) => (v ? v : null)),
});
export type UserForm = z.infer<typeof userFormSchema>;
