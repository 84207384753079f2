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
  phone: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v || null),
  role: z.enum(ASSIGNABLE_ROLES, { errorMap: () => ({ message: "validation.invalidOption" }) }).transform((v) => (v === "none" ? null : v)),
  language: z
    .enum(["", ...LANGUAGES])
    .optional()
    .transform((v) => (v ? v : null)),
});
export type UserForm = z.infer<typeof userFormSchema>;

/** The options an admin picks beside a CSV import's file (the file itself is read by readCsvUpload). */
export const importOptionsSchema = z.object({
  /** A group's id, or none; anything else is not one of the choices. */
  groupId: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^[1-9]\d{0,14}$/.test(v), "validation.invalidOption")
    .transform((v) => (v ? Number(v) : null)),
  sendInvitations: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
});
