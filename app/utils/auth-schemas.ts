import { z } from "zod";

/**
 * Form schemas shared by the server (the truth) and the browser (early hints). Messages are translation
 * keys, rendered with t() by the form components, so every error reaches people in their language.
 */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 1024;

const email = z.string({ required_error: "validation.required" }).trim().max(254, "validation.email").email("validation.email");

const password = z
  .string({ required_error: "validation.required" })
  .min(PASSWORD_MIN_LENGTH, "validation.passwordTooShort")
  .max(PASSWORD_MAX_LENGTH, "validation.passwordTooLong");

export const loginSchema = z.object({
  email,
  password: z.string({ required_error: "validation.required" }).max(PASSWORD_MAX_LENGTH, "validation.passwordTooLong"),
  redirectTo: z.string().optional(),
});

export const twoFactorSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("confirm"),
    code: z
      .string({ required_error: "validation.code" })
      .trim()
      .regex(/^\d{6}$/, "validation.code"),
  }),
  z.object({ intent: z.literal("resend") }),
]);

export const emailSchema = z.object({ email });

/** A new password typed twice (docs/product.md §5: "password and confirmation must match"). */
export const newPasswordSchema = z
  .object({ password, passwordConfirmation: z.string({ required_error: "validation.required" }) })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: "validation.passwordsDontMatch",
    path: ["passwordConfirmation"],
  });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ required_error: "validation.required" }).max(PASSWORD_MAX_LENGTH),
    password,
    passwordConfirmation: z.string({ required_error: "validation.required" }),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: "validation.passwordsDontMatch",
    path: ["passwordConfirmation"],
  });
